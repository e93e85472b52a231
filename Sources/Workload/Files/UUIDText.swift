/// A UUID's text form (8-4-4-4-12 hex digits), read and written byte by byte.
package enum UUIDText {
    /// The 16 bytes of `text`, nil when it is not a UUID.
    package static func parse(_ text: InlineText) -> (UInt64, UInt64)? {
        guard text.count == 36 else { return nil }
        return text.withBytes { b -> (UInt64, UInt64)? in
            var bytes = [UInt8]()
            bytes.reserveCapacity(16)
            var i = 0
            while i < 36 {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    guard b[i] == UInt8(ascii: "-") else { return nil }
                    i += 1
                    continue
                }
                guard let high = hex(b[i]), let low = hex(b[i + 1]) else { return nil }
                bytes.append(high << 4 | low)
                i += 2
            }
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { $0.copyBytes(from: bytes) }
            return words
        }
    }

    /// Appends the text form of 16 bytes to `out`.
    package static func format(_ bytes: UnsafeRawBufferPointer, into out: inout InlineText) {
        for (i, byte) in bytes.prefix(16).enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(byte: UInt8(ascii: "-")) }
            out.append(hex: UInt64(byte), digits: 2)
        }
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 97...102: return c - 87
        case 65...70: return c - 55
        default: return nil
        }
    }
}
