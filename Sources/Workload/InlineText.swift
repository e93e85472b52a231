import Host

/// UTF-8 text of at most `InlineText.capacity` bytes stored inline, with no heap allocation.
///
/// Records are produced at millions per second and handed between threads; a String per field
/// would cost an allocation per record where a buffer can avoid it. Strategies bind these bytes
/// straight into SQLite, or make a String only when the idiom they model would (a managed object).
package struct InlineText: Sendable, Hashable, CustomStringConvertible {
    /// The most bytes an `InlineText` holds. Longer values are rejected by the readers of
    /// import files with a clear error rather than cut.
    package static let capacity = 96

    private var storage:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// Number of bytes in use.
    package private(set) var count: Int = 0

    package init() {}

    /// Copies `string`'s UTF-8, or returns nil when it is longer than `capacity`.
    package init?(_ string: String) {
        var copy = string
        let fits = copy.withUTF8 { buffer -> Bool in
            guard buffer.count <= Self.capacity else { return false }
            self.append(UnsafeRawBufferPointer(buffer))
            return true
        }
        if !fits { return nil }
    }

    /// Copies `bytes`, or returns nil when they are longer than `capacity`.
    package init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= Self.capacity else { return nil }
        append(bytes)
    }

    // MARK: Building

    /// Empties the text, keeping nothing.
    @inline(__always)
    package mutating func removeAll() { count = 0 }

    /// Appends one byte. Bytes beyond capacity are dropped: builders size their output.
    @inline(__always)
    package mutating func append(byte: UInt8) {
        guard count < Self.capacity else { return }
        let index = count
        withUnsafeMutableBytes(of: &storage) { $0[index] = byte }
        count += 1
    }

    /// Appends bytes, dropping what does not fit.
    @inline(__always)
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let n = min(bytes.count, Self.capacity - count)
        guard n > 0, let source = bytes.baseAddress else { return }
        let start = count
        withUnsafeMutableBytes(of: &storage) { target in
            (target.baseAddress! + start).copyMemory(from: source, byteCount: n)
        }
        count += n
    }

    /// Appends a static ASCII string's bytes.
    @inline(__always)
    package mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `value` in decimal, zero-padded to `width` digits.
    @inline(__always)
    package mutating func append(decimal value: UInt64, width: Int = 1) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 24 bytes of scratch
        var n = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[n] = UInt8(truncatingIfNeeded: 48 + v % 10)
                v /= 10
                n += 1
            } while v > 0 && n < 20
            while n < width && n < 24 {
                buffer[n] = 48
                n += 1
            }
        }
        withUnsafeBytes(of: &digits) { buffer in
            for i in stride(from: n - 1, through: 0, by: -1) { append(byte: buffer[i]) }
        }
    }

    /// Appends the low `digits` hex digits of `value`, lowercase.
    @inline(__always)
    package mutating func append(hex value: UInt64, digits: Int) {
        for i in stride(from: digits - 1, through: 0, by: -1) {
            let nibble = UInt8(truncatingIfNeeded: (value >> UInt64(i * 4)) & 0xf)
            append(byte: nibble < 10 ? 48 + nibble : 87 + nibble)
        }
    }

    // MARK: Reading

    /// Calls `body` with the text's bytes, valid only during the call.
    @inline(__always)
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let n = count
        return try withUnsafeBytes(of: storage) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
    }

    /// The text as a String (allocates when longer than 15 bytes).
    package var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    package var isEmpty: Bool { count == 0 }

    package var description: String { string }

    // MARK: Equality, by bytes

    package static func == (a: InlineText, b: InlineText) -> Bool {
        guard a.count == b.count else { return false }
        return a.count == 0
            || a.withBytes { x in b.withBytes { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }

    package func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: $0) }
    }

}
