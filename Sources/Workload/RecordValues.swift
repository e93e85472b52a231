import Host

/// The values of one record, one per field of its `RecordShape`, stored inline.
///
/// Records are produced at millions per second, copied into batches and handed between threads:
/// a `String` or an array per field would cost allocations a buffer avoids. The values live in
/// one fixed arena inside the value: a slot of 8 bytes per field (a number's bits, or where its
/// text or bytes sit), then the text and bytes themselves. A record whose values outgrow the arena
/// (long texts, an import file's binary data) moves them to one heap buffer of its own; bytes
/// generated from a shared `PayloadPool` are referenced, never copied.
///
/// The null and bytes flags of the first 64 fields are two words of the value; a shape of more
/// fields (an order of 64 attributes and its related object's key) keeps the flags of the rest in
/// words after the slots, a null word then a bytes word per 64 fields.
package struct RecordValues: Sendable {
    /// Bytes held inline (slots and variable data together).
    package static let inlineCapacity = 256
    /// The most fields a shape may have: SQLite's most columns a table holds (2000).
    package static let maxFields = 2000

    private var arena: Arena = Arena()
    /// The arena's contents once they no longer fit inline.
    private var spill: [UInt8]? = nil
    /// Bytes used (slots, then variable data).
    private var used = 0
    private var fieldCount = 0
    /// Fields 0 ..< 64 that are null.
    private var nulls: UInt64 = 0
    /// Fields whose slot says where bytes are (texts, binary data), not a number's bits.
    private var byteFields: UInt64 = 0

    package init() {}

    // 32 words = 256 bytes: a record the size of the datasets' records before they were shaped by
    // models (about 330 bytes with the rest of `Record`), so batches copy no more than they did.
    private struct Arena {
        var words:
            (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    /// A slot's flag: the field's bytes are in the shape's payload pool, not in the record.
    fileprivate static let pooled: UInt64 = 1 << 63

    // MARK: Writing

    /// Empties the values for a shape of `fields` fields, every field null.
    @inline(__always)
    package mutating func reset(fields: Int) {
        fieldCount = fields
        byteFields = 0
        // The datasets' and most models' records: slots inline, one word of flags.
        if _fastPath(fields * 8 <= Self.inlineCapacity) {
            used = fields * 8
            nulls = (1 << UInt64(fields)) - 1
            if spill != nil {
                spill!.removeAll(keepingCapacity: true)
                spill!.append(contentsOf: repeatElement(0, count: used))
            }
            return
        }
        resetWide(fields)
    }

    /// `reset` for a record whose slots do not fit inline (more than 32 fields), flags past 64
    /// fields after the slots.
    private mutating func resetWide(_ fields: Int) {
        precondition(fields <= Self.maxFields, "a record holds at most \(Self.maxFields) fields")
        let flagWords = Self.flagWords(fields)
        used = fields * 8 + flagWords * 16
        nulls = fields >= 64 ? ~0 : (1 << UInt64(fields)) - 1
        byteFields = 0
        if spill != nil || used > Self.inlineCapacity {
            if spill == nil { spill = [] }
            spill!.removeAll(keepingCapacity: true)
            spill!.append(contentsOf: repeatElement(0, count: used))
        }
        if _slowPath(flagWords > 0) { setHighNulls(fields, words: flagWords) }
    }

    /// Words of null flags (and as many of bytes flags) for the fields past 64.
    @inline(__always)
    private static func flagWords(_ fields: Int) -> Int { fields > 64 ? (fields - 1) / 64 : 0 }

    /// Every field past 64 null.
    private mutating func setHighNulls(_ fields: Int, words: Int) {
        for w in 0..<words {
            let n = min(64, fields - 64 - 64 * w)
            storeWord(n == 64 ? ~0 : (1 << UInt64(n)) - 1, at: fields * 8 + w * 16)
        }
    }

    /// Offset of the null word (`bytes` false) or bytes word holding field `f`'s flag (f ≥ 64).
    @inline(__always)
    private func flagOffset(_ f: Int, bytes: Bool) -> Int { fieldCount * 8 + ((f - 64) / 64) * 16 + (bytes ? 8 : 0) }

    private func flag(_ f: Int, bytes: Bool) -> Bool {
        loadWord(at: flagOffset(f, bytes: bytes)) & (1 << UInt64((f - 64) % 64)) != 0
    }

    private mutating func setFlag(_ f: Int, bytes: Bool, to on: Bool) {
        let offset = flagOffset(f, bytes: bytes)
        let bit: UInt64 = 1 << UInt64((f - 64) % 64)
        let word = loadWord(at: offset)
        storeWord(on ? word | bit : word & ~bit, at: offset)
    }

    private func loadWord(at offset: Int) -> UInt64 {
        if let spill { return spill.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) } }
        return withUnsafeBytes(of: arena) { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
    }

    private mutating func storeWord(_ word: UInt64, at offset: Int) {
        if spill != nil {
            spill!.withUnsafeMutableBytes { $0.storeBytes(of: word, toByteOffset: offset, as: UInt64.self) }
        } else {
            withUnsafeMutableBytes(of: &arena) { $0.storeBytes(of: word, toByteOffset: offset, as: UInt64.self) }
        }
    }

    @inline(__always)
    package mutating func setNull(_ field: Int) {
        if field < 64 { nulls |= 1 << UInt64(field) } else { setFlag(field, bytes: false, to: true) }
    }

    @inline(__always)
    package mutating func setInteger(_ value: Int64, at field: Int) { setSlot(UInt64(bitPattern: value), at: field) }

    @inline(__always)
    package mutating func setDouble(_ value: Double, at field: Int) { setSlot(value.bitPattern, at: field) }

    @inline(__always)
    package mutating func setBool(_ value: Bool, at field: Int) { setSlot(value ? 1 : 0, at: field) }

    /// Copies `bytes` in as the field's text or binary value.
    @inline(__always)
    package mutating func setBytes(_ bytes: UnsafeRawBufferPointer, at field: Int) {
        let offset = reserve(bytes.count)
        if bytes.count > 0 { write(bytes, at: offset) }
        setSlot(UInt64(offset) << 32 | UInt64(bytes.count), at: field, bytes: true)
    }

    /// The field's bytes are `length` bytes of the shape's payload pool at `offset`.
    @inline(__always)
    package mutating func setPooled(offset: Int, length: Int, at field: Int) {
        setSlot(Self.pooled | UInt64(offset) << 32 | UInt64(length), at: field, bytes: true)
    }

    /// Gives `field` the value of `source` (its bytes shared, not copied): a feed's member that
    /// fills two attributes.
    @inline(__always)
    package mutating func copyValue(of source: Int, to field: Int) {
        if isNull(source) { return setNull(field) }
        setSlot(slot(source), at: field, bytes: holdsBytes(source))
    }

    /// Starts a text built in pieces (`appendText`, then `endText`); only one at a time.
    @inline(__always)
    package mutating func beginText() -> Int { used }

    /// Appends to the text begun last.
    @inline(__always)
    package mutating func appendText(_ bytes: UnsafeRawBufferPointer) {
        let offset = reserve(bytes.count)
        if bytes.count > 0 { write(bytes, at: offset) }
    }

    @inline(__always)
    package mutating func appendText(_ text: InlineText) { text.withBytes { appendText($0) } }

    @inline(__always)
    package mutating func appendText(_ text: StaticString) {
        appendText(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Ends the text begun at `start`: everything appended since is the field's value.
    @inline(__always)
    package mutating func endText(_ start: Int, at field: Int) {
        setSlot(UInt64(start) << 32 | UInt64(used - start), at: field, bytes: true)
    }

    // MARK: Reading

    package var count: Int { fieldCount }

    // The same four readers are `Borrowed`'s: a protocol extension serving both cost 6.6 % more
    // instructions in batch-insert-only (its calls from other modules went through the witness
    // table), so each type has its own.
    @inline(__always)
    package func isNull(_ field: Int) -> Bool {
        if _fastPath(field < 64) { return nulls & (1 << UInt64(field)) != 0 }
        return flag(field, bytes: false)
    }
    /// The field holds text or bytes (its slot says where), not a number's bits.
    @inline(__always)
    func holdsBytes(_ field: Int) -> Bool {
        if _fastPath(field < 64) { return byteFields & (1 << UInt64(field)) != 0 }
        return flag(field, bytes: true)
    }
    @inline(__always)
    package func integer(_ field: Int) -> Int64 { Int64(bitPattern: slot(field)) }
    @inline(__always)
    package func double(_ field: Int) -> Double { Double(bitPattern: slot(field)) }
    @inline(__always)
    package func bool(_ field: Int) -> Bool { slot(field) != 0 }

    /// A pooled value read without a pool: only a 0-byte payload has none.
    fileprivate static func emptyValue(_ length: Int) -> UnsafeRawBufferPointer {
        precondition(length == 0, "a pooled value of \(length) bytes read without its payload pool")
        return UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// Calls `body` with the field's text or bytes (empty for a null), valid only during the call.
    @inline(__always)
    package func withBytes<R>(_ field: Int, pool: PayloadPool?, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows
        -> R
    {
        guard !isNull(field) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        let s = slot(field)
        let offset = Int((s & ~Self.pooled) >> 32)
        let length = Int(s & 0xFFFF_FFFF)
        if s & Self.pooled != 0 {
            // No pool is made for payloads of 0 bytes (`--payload-bytes 0`): the value is empty.
            guard let pool else { return try body(Self.emptyValue(length)) }
            return try body(pool.bytes(at: offset, count: length))
        }
        if let spill {
            return try spill.withUnsafeBytes {
                try body(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + length)]))
            }
        }
        return try withUnsafeBytes(of: arena) {
            try body(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + length)]))
        }
    }

    /// The field's length in bytes, for texts and bytes.
    @inline(__always)
    package func byteCount(_ field: Int) -> Int { isNull(field) ? 0 : Int(slot(field) & 0xFFFF_FFFF) }

    /// Calls `body` with the values borrowed in place: the bytes it hands out stay valid for the
    /// whole call, so they may be bound without a copy and stepped before it returns.
    @inline(__always)
    package func withBorrowed<R>(_ body: (Borrowed) throws -> R) rethrows -> R {
        if let spill { return try spill.withUnsafeBytes { try body(Borrowed(values: self, base: $0.baseAddress!)) } }
        return try withUnsafeBytes(of: arena) { try body(Borrowed(values: self, base: $0.baseAddress!)) }
    }

    /// The values with a base address that is stable for the call of `withBorrowed`.
    package struct Borrowed {
        fileprivate let nulls: UInt64
        fileprivate let base: UnsafeRawPointer
        /// Where the null words of fields past 64 start.
        fileprivate let flags: Int

        fileprivate init(values: RecordValues, base: UnsafeRawPointer) {
            nulls = values.nulls
            self.base = base
            flags = values.fieldCount * 8
        }

        @inline(__always)
        package func isNull(_ field: Int) -> Bool {
            if _fastPath(field < 64) { return nulls & (1 << UInt64(field)) != 0 }
            let word = base.loadUnaligned(fromByteOffset: flags + ((field - 64) / 64) * 16, as: UInt64.self)
            return word & (1 << UInt64((field - 64) % 64)) != 0
        }
        @inline(__always)
        package func integer(_ field: Int) -> Int64 { Int64(bitPattern: slot(field)) }
        @inline(__always)
        package func double(_ field: Int) -> Double { Double(bitPattern: slot(field)) }
        @inline(__always)
        package func bool(_ field: Int) -> Bool { slot(field) != 0 }

        /// The field's text or bytes (in the record, or in `pool`), valid during `withBorrowed`.
        @inline(__always)
        package func bytes(_ field: Int, pool: PayloadPool?) -> UnsafeRawBufferPointer {
            guard !isNull(field) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            let s = slot(field)
            let offset = Int((s & ~RecordValues.pooled) >> 32)
            let length = Int(s & 0xFFFF_FFFF)
            if s & RecordValues.pooled != 0 {
                guard let pool else { return RecordValues.emptyValue(length) }
                return pool.bytes(at: offset, count: length)
            }
            return UnsafeRawBufferPointer(start: base + offset, count: length)
        }

        @inline(__always)
        package func slot(_ field: Int) -> UInt64 { base.loadUnaligned(fromByteOffset: field * 8, as: UInt64.self) }
    }

    // MARK: The arena

    @inline(__always)
    package func slot(_ field: Int) -> UInt64 {
        if let spill { return spill.withUnsafeBytes { $0.load(fromByteOffset: field * 8, as: UInt64.self) } }
        return withUnsafeBytes(of: arena) { $0.load(fromByteOffset: field * 8, as: UInt64.self) }
    }

    @inline(__always)
    private mutating func setSlot(_ bits: UInt64, at field: Int, bytes: Bool = false) {
        if _fastPath(field < 64) {
            let bit: UInt64 = 1 << UInt64(field)
            nulls &= ~bit
            byteFields = bytes ? byteFields | bit : byteFields & ~bit
        } else {
            setFlag(field, bytes: false, to: false)
            setFlag(field, bytes: true, to: bytes)
        }
        if spill != nil {
            spill!.withUnsafeMutableBytes { $0.storeBytes(of: bits, toByteOffset: field * 8, as: UInt64.self) }
        } else {
            withUnsafeMutableBytes(of: &arena) { $0.storeBytes(of: bits, toByteOffset: field * 8, as: UInt64.self) }
        }
    }

    /// Room for `n` more bytes; returns where they start. Moves to the heap when they do not fit.
    @inline(__always)
    fileprivate mutating func reserve(_ n: Int) -> Int {
        let offset = used
        used += n
        if spill != nil {
            spill!.append(contentsOf: repeatElement(0, count: n))
        } else if used > Self.inlineCapacity {
            var heap = [UInt8](repeating: 0, count: used)
            withUnsafeBytes(of: arena) { inline in
                heap.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: inline.baseAddress!, byteCount: offset) }
            }
            spill = heap
        }
        return offset
    }

    @inline(__always)
    fileprivate mutating func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        if spill != nil {
            spill!.withUnsafeMutableBytes {
                ($0.baseAddress! + offset).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
        } else {
            withUnsafeMutableBytes(of: &arena) {
                ($0.baseAddress! + offset).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
        }
    }
}

extension RecordValues: Equatable {
    /// Equal when every field holds the same value: numbers by their bits, texts and bytes as
    /// bytes, pooled bytes by where they sit in the pool.
    package static func == (a: RecordValues, b: RecordValues) -> Bool {
        guard a.fieldCount == b.fieldCount, a.nulls == b.nulls, a.byteFields == b.byteFields else { return false }
        for f in 0..<a.fieldCount {
            guard a.isNull(f) == b.isNull(f), a.holdsBytes(f) == b.holdsBytes(f) else { return false }
            guard !a.isNull(f) else { continue }
            let sa = a.slot(f)
            let sb = b.slot(f)
            guard a.holdsBytes(f), sa & pooled == 0 || sb & pooled == 0 else {
                if sa != sb { return false } else { continue }
            }
            if (sa & pooled) != (sb & pooled) { return false }
            let equal = a.withBytes(f, pool: nil) { x in
                b.withBytes(f, pool: nil) { y in
                    x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
                }
            }
            if !equal { return false }
        }
        return true
    }
}
