import Host

/// The formats of import files.
package enum RecordFileFormat: String, Sendable, Codable, CaseIterable {
    /// `{"expenses": [ {…}, {…} ]}`: the import shape of the seeds.
    case json
    /// One object per line.
    case ndjson
}

/// Writes records of a shape as JSON or NDJSON, straight into a buffer flushed with write(2):
/// each field under its file name, texts as JSON strings, dates as ISO 8601, bytes as base64,
/// UUIDs as their text.
///
/// Built byte by byte (no Foundation, no Codable) because `loadgen generate` must never be the
/// bottleneck: millions of records per second into a null sink.
package struct RecordFileWriter {
    package let format: RecordFileFormat
    package let shape: RecordShape
    private let fd: Int32
    private let out = OutputBuffer()
    private var written = 0
    private let pool: PayloadPool?
    /// Every field's `"name": ` prefix, built once, one after another (`prefixEnds[f]` ends
    /// field f's): one buffer, so that a record costs no array retains.
    private let prefixes: [UInt8]
    private let prefixEnds: [Int]
    /// How each field is written, decided once: reading it from the field's spec per record
    /// copied the spec (its strings and enums) every time, a fifth of the writer's time.
    private let kinds: [Kind]
    /// The order fields are written in: the record's own members first, then each object's
    /// members together (`"properties": {"code": …, "mag": …}`, its own objects likewise), and
    /// how many objects close after each field.
    private let order: [Int]
    private let closing: [Int]

    private enum Kind { case text, integer, cents, real, date, bool, bytes, uuid }

    /// Writes to the open file descriptor `fd` (not closed by the writer); `pool` is the
    /// generator's, for generated binary values.
    package init(fd: Int32, format: RecordFileFormat, shape: RecordShape, pool: PayloadPool?) {
        self.fd = fd
        self.format = format
        self.shape = shape
        self.pool = pool
        let fields = shape.fields
        // A member that fills several attributes is written once, with the value the reader reads.
        let copies = Set(shape.sharedMembers.flatMap(\.copies))
        let flat = fields.indices.filter { fields[$0].flatName != nil && !copies.contains($0) }
        let paths = fields.map(Self.path)
        order = flat + Self.grouped(fields.indices.filter { fields[$0].flatName == nil }, paths: paths)
        var closing = [Int](repeating: 0, count: fields.count)
        var each: [[UInt8]] = []
        for (position, i) in order.enumerated() {
            let previous = position == 0 ? [] : paths[order[position - 1]]
            let path = paths[i]
            let shared = zip(previous.dropLast(), path.dropLast()).prefix { $0 == $1 }.count
            if position > 0 { closing[order[position - 1]] = previous.count - 1 - shared }
            let opened = path[shared..<(path.count - 1)].map { "\"\($0)\": {" }.joined()
            each.append(Array(((position == 0 ? "{" : ", ") + opened + "\"\(path[path.count - 1])\": ").utf8))
        }
        if let last = order.last { closing[last] = paths[last].count - 1 }
        self.closing = closing
        prefixes = each.flatMap { $0 }
        prefixEnds = each.reduce(into: []) { ends, p in ends.append((ends.last ?? 0) + p.count) }
        kinds = fields.map(Self.kind)
        if format == .json { out.put(Array("{\"\(shape.arrayName)\": [\n".utf8)) }
    }

    /// Where a field is written: its member, or the members down to it (`properties`, `place`,
    /// `code` for a key path).
    private static func path(_ spec: FieldSpec) -> [String] {
        guard spec.flatName == nil, let c = spec.container else { return [spec.fileName] }
        return c.levels
    }

    /// `fields` in the order they are written: those inside one object together, and inside it
    /// those of each object it holds, each in the order its first field comes.
    private static func grouped(_ fields: [Int], paths: [[String]], depth: Int = 0) -> [Int] {
        var names: [String] = []
        var members: [String: [Int]] = [:]
        for f in fields {
            let name = paths[f][depth]
            if members[name] == nil { names.append(name) }
            members[name, default: []].append(f)
        }
        return names.flatMap { name in
            let inside = members[name] ?? []
            let leaves = inside.filter { paths[$0].count == depth + 1 }
            return leaves + grouped(inside.filter { paths[$0].count > depth + 1 }, paths: paths, depth: depth + 1)
        }
    }

    private static func kind(_ spec: FieldSpec) -> Kind {
        switch spec.type {
        case .text: return .text
        case .integer16, .integer32, .integer64: return .integer
        case .real: if case .cents = spec.generation { return .cents } else { return .real }
        case .date: return .date
        case .bool: return .bool
        case .bytes: return .bytes
        case .uuid: return .uuid
        }
    }

    /// Appends one record.
    package mutating func write(_ r: Record) throws {
        if format == .json && written > 0 { out.put(",\n") }
        var start = 0
        for (position, f) in order.enumerated() {
            let end = prefixEnds[position]
            out.put(prefixes, start, end)
            start = end
            writeValue(r.values, f, kinds[f])
            for _ in 0..<closing[f] { out.byte(125) }   // each object's '}'
        }
        out.put(format == .ndjson ? "}\n" : "}")
        written += 1
        if out.count >= OutputBuffer.flushAt { try flush() }
    }

    @inline(__always)
    private func writeValue(_ v: RecordValues, _ f: Int, _ kind: Kind) {
        if v.isNull(f) {
            out.put("null")
            return
        }
        switch kind {
        case .text: v.withBytes(f, pool: pool) { out.string($0) }
        case .integer:
            let n = v.integer(f)
            if n < 0 { out.byte(45) }
            out.decimal(n.magnitude)
        case .cents: out.cents(v.double(f))
        case .real: out.put(Array("\(v.double(f))".utf8))
        case .date:
            out.byte(34)
            out.date(v.double(f))
            out.byte(34)
        case .bool: out.put(v.bool(f) ? "true" : "false")
        case .bytes:
            // Into the buffer itself: base64 is 4 bytes per 3.
            v.withBytes(f, pool: pool) { bytes in
                out.byte(34)
                out.append(maximum: (bytes.count + 2) / 3 * 4) { Base64.encode(bytes, to: $0) }
                out.byte(34)
            }
        case .uuid:
            var text = InlineText()
            v.withBytes(f, pool: pool) { UUIDText.format($0, into: &text) }
            text.withBytes { out.string($0) }
        }
    }

    /// Ends the document and writes what is buffered.
    package mutating func finish() throws {
        if format == .json { out.put(written > 0 ? "\n]}\n" : "]}\n") }
        try flush()
    }

    private mutating func flush() throws {
        do {
            try Posix.writeAll(fd, UnsafeRawBufferPointer(start: out.base, count: out.count))
        } catch {
            throw RecordFileError.cannotWrite(error.errno)
        }
        out.count = 0
    }
}

/// A growable byte buffer written through a cursor: no per-byte capacity or uniqueness checks,
/// which is what `Array.append` costs at millions of records per second.
private final class OutputBuffer {
    static let flushAt = 1 << 18
    private(set) var base: UnsafeMutableRawPointer
    private var capacity: Int
    var count = 0

    init() {
        capacity = Self.flushAt + (1 << 16)
        base = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    @inline(__always)
    private func reserve(_ n: Int) {
        guard count + n > capacity else { return }
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: (count + n) * 2, alignment: 16)
        bigger.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = bigger
        capacity = (count + n) * 2
    }

    @inline(__always)
    func put(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        reserve(n)
        (base + count).copyMemory(from: text.utf8Start, byteCount: n)
        count += n
    }

    @inline(__always)
    func put(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let source = bytes.baseAddress { (base + count).copyMemory(from: source, byteCount: bytes.count) }
        count += bytes.count
    }

    /// Lets `write` put up to `maximum` bytes at the cursor; it returns how many it wrote.
    @inline(__always)
    func append(maximum: Int, _ write: (UnsafeMutableRawPointer) -> Int) {
        reserve(maximum)
        count += write(base + count)
    }

    /// `bytes[start..<end]`.
    @inline(__always)
    func put(_ bytes: [UInt8], _ start: Int, _ end: Int) {
        reserve(end - start)
        bytes.withUnsafeBytes { (base + count).copyMemory(from: $0.baseAddress! + start, byteCount: end - start) }
        count += end - start
    }

    func put(_ bytes: [UInt8]) {
        reserve(bytes.count)
        bytes.withUnsafeBytes { (base + count).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        count += bytes.count
    }

    @inline(__always)
    func byte(_ b: UInt8) {
        reserve(1)
        base.storeBytes(of: b, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// A JSON string, escaping what JSON requires (copied whole when nothing needs escaping).
    @inline(__always)
    func string(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count * 6 + 2)
        byte(34)
        if !bytes.contains(where: { $0 < 32 || $0 == 34 || $0 == 92 }) {
            if let source = bytes.baseAddress { (base + count).copyMemory(from: source, byteCount: bytes.count) }
            count += bytes.count
        } else {
            let hex: StaticString = "0123456789abcdef"
            for b in bytes {
                switch b {
                case 34, 92:
                    byte(92)
                    byte(b)
                case 0..<32:
                    put("\\u00")
                    byte(hex.utf8Start[Int(b >> 4)])
                    byte(hex.utf8Start[Int(b & 15)])
                default: byte(b)
                }
            }
        }
        byte(34)
    }

    /// Whole cents as `123.45`, exactly (no binary-to-decimal surprises).
    @inline(__always)
    func cents(_ value: Double) {
        var cents = Int64((value * 100).rounded())
        if cents < 0 {
            byte(45)
            cents = -cents
        }
        decimal(UInt64(cents / 100))
        byte(46)
        byte(UInt8(48 + cents % 100 / 10))
        byte(UInt8(48 + cents % 10))
    }

    @inline(__always)
    func decimal(_ v: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var n = 0
        var x = v
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(48 + x % 10)
                x /= 10
                n += 1
            } while x > 0
        }
        reserve(n)
        withUnsafeBytes(of: &digits) { d in
            var i = n
            while i > 0 {
                i -= 1
                base.storeBytes(of: d[i], toByteOffset: count, as: UInt8.self)
                count += 1
            }
        }
    }

    @inline(__always)
    func date(_ seconds: Double) {
        reserve(32)
        count += ISO8601.write(seconds, to: base + count)
    }
}

/// A file that cannot be written.
package enum RecordFileError: Error, CustomStringConvertible {
    case cannotWrite(Int32)
    package var description: String { "cannot write: \(String(cString: strerror(cannotWriteCode)))" }
    private var cannotWriteCode: Int32 {
        if case .cannotWrite(let c) = self { return c }
        return 0
    }
}
