/// Produces the records of a `WorkloadSpec` shaped by a `RecordShape`, each from its position alone.
///
/// Stateless per record (values are hashes of seed, key index and field), so producers can share
/// a stream by position and memory never grows with `rows`. A repeated key repeats its record
/// exactly, as a retried request or a re-sent page would, or (`--update-rate`, decided per
/// position) carries new values for its other attributes, as a feed resends a record that
/// changed: its key, its related object and its constrained values stay. It knows fields and how
/// to make their values, never which entity they belong to.
package struct Generator: Sendable {
    package let spec: WorkloadSpec
    package let shape: RecordShape
    package let plan: KeyPlan
    /// The bytes generated binary values point into (nil when the shape has none).
    package let pool: PayloadPool?
    private let valueSeed: UInt64
    private let fields: [CompiledField]
    private let parentFields: [CompiledField]
    private let texts: [CompiledTexts]
    private let parentTexts: [CompiledTexts]
    /// The members' key then other attributes, compiled as the related object's are.
    private let memberFields: [CompiledField]
    private let memberTexts: [CompiledTexts]
    /// The fields a repeat with new values changes (`RecordShape.changingFields`), by index.
    private let changing: [Bool]

    /// Core Data's reference date is 2001-01-01; this is 2026-01-01 in seconds since then.
    static let dateBase = 788_918_400.0
    static let year = 365 * 86_400

    package init(spec: WorkloadSpec, shape: RecordShape) {
        self.spec = spec
        self.shape = shape
        self.plan = spec.keyPlan
        self.valueSeed = Mixing.mix(spec.seed ^ 0x00DA_7A5E_ED00)
        let largest = shape.largestPayload
        pool = largest > 0 ? PayloadPool(largest: largest, seed: spec.seed) : nil
        let parentKeys = Set(shape.parentKey)
        fields = shape.fields.enumerated().map { i, field in
            CompiledField(field, salt: Mixing.nameSalt(field.name), fromParent: parentKeys.contains(i))
        }
        parentFields = shape.parentFields.map { CompiledField($0, salt: Mixing.nameSalt($0.name), fromParent: true) }
        texts = shape.fields.map { CompiledTexts($0, entity: shape.parentEntity) }
        parentTexts = shape.parentFields.map { CompiledTexts($0, entity: shape.parentEntity) }
        let memberSpecs = shape.members.map { [$0.key] + $0.fields } ?? []
        memberFields = memberSpecs.map { CompiledField($0, salt: Mixing.nameSalt($0.name), fromParent: true) }
        memberTexts = memberSpecs.map { CompiledTexts($0, entity: shape.members?.entity) }
        let changingFields = Set(shape.changingFields)
        changing = shape.fields.indices.map(changingFields.contains)
    }

    /// Fills `record` with the record at position `i` (0 ≤ i < rows).
    @inline(__always)
    package func record(at i: Int, into record: inout Record) {
        record.index = i
        fill(keyIndex: plan.keyIndex(at: i), version: version(at: i), into: &record)
    }

    /// The version of the values the record at position `i` carries: 0 for a key's first record
    /// and for a repeat that is an exact copy of it, `i + 1` for a repeat with new values (one in
    /// `updateRate` of the repeats, decided by the position alone).
    @inline(__always)
    package func version(at i: Int) -> Int {
        guard spec.updateRate > 0, plan.isRepeat(i) else { return 0 }
        return Mixing.unit(Mixing.hash(valueSeed ^ 0x0C4A_9ED0, UInt64(i))) < spec.updateRate ? i + 1 : 0
    }

    /// Fills every value of unique key `k` (all but `index`) as version `version` carries them: a
    /// key's record is always the same for the same version.
    @inline(__always)
    package func fill(keyIndex k: Int, version: Int = 0, into record: inout Record) {
        record.keyIndex = k
        let h = Mixing.hash(valueSeed, UInt64(k))
        let parent = shape.parentPerRecord ? k : Int(Mixing.hash(h, 1) % UInt64(max(1, spec.parents)))
        record.parentIndex = parent
        record.values.reset(fields: fields.count)
        let parentHash = Mixing.hash(valueSeed ^ 0x9A2E_47, UInt64(parent))
        // A changed record's other values: the same key and related object, new values.
        let valueHash = version == 0 ? h : Mixing.hash(h ^ 0x7E45_10E5, UInt64(version))
        let spec = self.spec
        fields.withUnsafeBufferPointer { fields in
            texts.withUnsafeBufferPointer { texts in
                for f in fields.indices {
                    let hash = fields[f].fromParent ? parentHash : changing[f] ? valueHash : h
                    fields[f].generate(
                        keyIndex: k, parent: parent, hash: hash, spec: spec, texts: texts.baseAddress! + f, at: f,
                        into: &record.values)
                }
            }
        }
    }

    /// Every unique key's last record in the stream, by key index: the values the store must hold
    /// when each key's last copy wins (the verifier's `stale`). One pass over the positions.
    package func forEachLast(_ sink: (Record) throws -> Void) rethrows {
        var last = [Int](repeating: 0, count: plan.uniqueKeys)   // the last copy's version
        if spec.updateRate > 0 && plan.duplicates > 0 {
            for i in 0..<plan.rows where plan.isRepeat(i) { last[plan.keyIndex(at: i)] = version(at: i) }
        }
        var record = Record()
        for k in 0..<plan.uniqueKeys {
            fill(keyIndex: k, version: last[k], into: &record)
            try sink(record)
        }
    }

    /// Fills `values` with the related object `parent`'s other attributes (`shape.parentFields`),
    /// the same for the same index in every run.
    package func fillParent(_ parent: Int, into values: inout RecordValues) {
        values.reset(fields: parentFields.count)
        let parentHash = Mixing.hash(valueSeed ^ 0x9A2E_47, UInt64(parent))
        parentTexts.withUnsafeBufferPointer { texts in
            for f in parentFields.indices {
                parentFields[f].generate(
                    keyIndex: parent, parent: parent, hash: parentHash, spec: spec, texts: texts.baseAddress! + f,
                    at: f, into: &values)
            }
        }
    }

    /// The members record key `k` relates to through the shape's many-to-many: `perRecord`
    /// distinct indexes of `0 ..< pool`, the same for the same key (a repeated record names the
    /// same tags). Empty without a many-to-many.
    package func members(ofKey k: Int) -> [Int] {
        guard let m = shape.members, m.perRecord > 0, m.pool > 0 else { return [] }
        var picked: [Int] = []
        picked.reserveCapacity(min(m.perRecord, m.pool))
        var h = Mixing.hash(valueSeed ^ 0x3E3B_E125, UInt64(k))
        while picked.count < min(m.perRecord, m.pool) {
            let i = Int(h % UInt64(m.pool))
            if !picked.contains(i) { picked.append(i) }
            h = Mixing.mix(h)
        }
        return picked
    }

    /// Member `index`'s key (slot 0) and other attributes (slots 1 …), the same in every run.
    package func fillMember(_ index: Int, into values: inout RecordValues) {
        guard let m = shape.members else { return }
        values.reset(fields: 1 + m.fields.count)
        let h = Mixing.hash(valueSeed ^ 0x5EED_3E3B, UInt64(index))
        memberFields.withUnsafeBufferPointer { fields in
            memberTexts.withUnsafeBufferPointer { texts in
                for f in fields.indices {
                    fields[f].generate(
                        keyIndex: index, parent: index, hash: h, spec: spec, texts: texts.baseAddress! + f, at: f,
                        into: &values)
                }
            }
        }
    }

    /// The record at position `i`, as a new value.
    package func record(at i: Int) -> Record {
        var r = Record()
        record(at: i, into: &r)
        return r
    }

    /// An integer key of unique-key index `k`: the 48-bit value for a 64-bit attribute; for
    /// narrower ones a bijection within the type (ascending: k + 1), so distinct keys stay
    /// distinct as long as the unique keys fit (`RecordShape.keyCapacity`).
    @inline(__always)
    static func integerKey(_ k: Int, _ type: FieldType, spec: WorkloadSpec) -> UInt64 {
        let bits = type == .integer16 ? 15 : type == .integer32 ? 31 : 64
        guard bits < 64 else { return keyValue(k, spec: spec) }
        return spec.keyOrder == .random ? Mixing.permute(UInt64(k), bits: bits, seed: spec.seed) : UInt64(k + 1)
    }

    /// Hex digits of a generated text key (its 48-bit value).
    @inline(__always) package static var keyDigits: Int { 12 }
    /// Bytes of a generated binary key: a UUID's, as apps store one in a Binary attribute.
    package static let bytesKeyLength = 16

    /// Unique-key index `k` as an offset in `0 ..< count`: `k` ascending, else a seeded bijection
    /// on the smallest power of two holding `count`, walked until it lands inside (cycle-walking:
    /// still a bijection, and under two steps on average).
    @inline(__always)
    static func rangedKey(_ k: Int, count: UInt64, spec: WorkloadSpec) -> UInt64 {
        guard spec.keyOrder == .random else { return UInt64(k) }
        let bits = max(2, 64 - (count &- 1).leadingZeroBitCount)   // permute needs 2 bits or more
        var v = Mixing.permute(UInt64(k), bits: bits, seed: spec.seed)
        while v >= count { v = Mixing.permute(v, bits: bits, seed: spec.seed) }
        return v
    }

    /// The key value of unique-key index `k` before formatting: distinct for distinct `k` (a
    /// bijection on 48 bits). Ascending keys are a seeded base plus `k` (below 2^47, so 12 hex
    /// digits hold them).
    @inline(__always)
    package static func keyValue(_ k: Int, spec: WorkloadSpec) -> UInt64 {
        spec.keyOrder == .random
            ? Mixing.permute48(UInt64(k), seed: spec.seed)
            : (Mixing.mix(spec.seed) & 0x7FFF_0000_0000) &+ UInt64(k)
    }
}

/// A field with its generation resolved to what the per-record loop needs: plain values only
/// (no String, no array), so reading one per field per record copies a few words and touches no
/// reference count; texts around generated values sit apart, in `CompiledTexts`.
private struct CompiledField: Sendable {
    enum Kind: Sendable {
        case textKey, uuidKey, integerKey, rangedKey(Int64, UInt64), realKey, dateKey, bytesKey(Int)
        case parentText(NameList?), parentUUID, parentNumber, parentBool, parentInteger, parentBytes
        case words, text(Int, Int), cents(Int, Int), number(Double, Double), integer(Int64, Int64)
        case pastYear, share(Double), payload(Int), uuid, uri
    }

    let kind: Kind
    let type: FieldType
    let salt: UInt64
    /// Made from the related object's index (its key), not the record's.
    let fromParent: Bool

    init(_ field: FieldSpec, salt: UInt64, fromParent: Bool) {
        type = field.type
        self.salt = salt
        self.fromParent = fromParent
        switch field.generation {
        case .key:
            switch field.type {
            case .text: kind = .textKey
            case .uuid: kind = .uuidKey
            case .real: kind = .realKey
            case .date: kind = .dateKey
            case .bytes: kind = .bytesKey(Generator.bytesKeyLength)
            default: kind = .integerKey
            }
        case .rangedKey(let minimum, let count):
            kind = .rangedKey(minimum, count)
        case .parentKey(let names):
            switch field.type {
            case .text: kind = .parentText(names)
            case .uuid: kind = .parentUUID
            case .real, .date: kind = .parentNumber
            case .bool: kind = .parentBool
            case .bytes: kind = .parentBytes
            default: kind = .parentInteger
            }
        case .words: kind = .words
        case .text(let minimum, let maximum): kind = .text(minimum, maximum)
        case .cents(let minimum, let maximum): kind = .cents(minimum, maximum)
        case .number(let minimum, let maximum): kind = .number(minimum, maximum)
        case .integer(let minimum, let maximum): kind = .integer(minimum, maximum)
        case .pastYear: kind = .pastYear
        case .share(let share): kind = .share(share)
        case .payload(let bytes): kind = .payload(bytes)
        case .uuid: kind = .uuid
        case .uri: kind = .uri
        }
    }

    /// One switch for every kind (a second one for the keys cost raw-sqlite 0.9 % of its
    /// instructions): each case one call or store.
    @inline(__always)
    func generate(
        keyIndex k: Int, parent: Int, hash h: UInt64, spec: WorkloadSpec, texts: UnsafePointer<CompiledTexts>,
        at f: Int, into v: inout RecordValues
    ) {
        let x = Mixing.hash(h, salt)
        switch kind {
        case .textKey: setTextKey(Generator.keyValue(k, spec: spec), texts: texts, at: f, &v)
        case .uuidKey:
            let value = Generator.keyValue(k, spec: spec)
            setUUID(high: value, low: Mixing.hash(value, salt), at: f, &v)
        case .integerKey: v.setInteger(Int64(bitPattern: Generator.integerKey(k, type, spec: spec)), at: f)
        case .rangedKey(let minimum, let count):
            v.setInteger(minimum &+ Int64(bitPattern: Generator.rangedKey(k, count: count, spec: spec)), at: f)
        case .realKey: v.setDouble(Double(Generator.keyValue(k, spec: spec)), at: f)
        // A millisecond apart per key before 2026-01-01: distinct, and in the past year for a million keys.
        case .dateKey:
            v.setDouble(
                Generator.dateBase - Double(Generator.rangedKey(k, count: 1 << 40, spec: spec) + 1) / 1000, at: f)
        case .bytesKey(let length): setBytesKey(Generator.keyValue(k, spec: spec), length: length, at: f, &v)
        case .parentBytes: setBytesKey(UInt64(parent), length: Generator.bytesKeyLength, at: f, &v)
        case .parentText(let names): setParentName(parent, names: names, texts: texts, at: f, &v)
        case .parentUUID: setUUID(high: UInt64(parent), low: x, at: f, &v)
        case .parentNumber: v.setDouble(Double(parent + 1), at: f)
        case .parentBool: v.setBool(parent % 2 == 1, at: f)
        case .parentInteger: v.setInteger(Int64(parent + 1), at: f)
        case .words:
            let start = v.beginText()
            appendWords(x, into: &v)
            v.endText(start, at: f)
        case .text(let minimum, let maximum):
            setText(length: minimum + Int(x % UInt64(max(1, maximum - minimum + 1))), hash: x, at: f, &v)
        case .cents(let minimum, let maximum):
            v.setDouble(Double(minimum + Int(x % UInt64(max(1, maximum - minimum + 1)))) / 100, at: f)
        case .number(let minimum, let maximum): v.setDouble(minimum + Mixing.unit(x) * (maximum - minimum), at: f)
        case .integer(let minimum, let maximum):
            let span = UInt64(bitPattern: maximum &- minimum) &+ 1
            v.setInteger(minimum &+ Int64(bitPattern: span == 0 ? x : x % span), at: f)
        case .pastYear: v.setDouble(Generator.dateBase - Double(x % UInt64(Generator.year)), at: f)
        case .share(let share): v.setBool(Mixing.unit(x) < share, at: f)
        case .payload(let bytes): v.setPooled(offset: Int(x % UInt64(PayloadPool.slack)), length: bytes, at: f)
        case .uuid: setUUID(high: x, low: Mixing.mix(x), at: f, &v)
        case .uri:
            var text = texts.pointee.prefix
            text.append(hex: x, digits: 12)
            text.withBytes { v.setBytes($0, at: f) }
        }
    }

    /// `length` bytes (at most 32) whose first eight are `value` big-endian, the rest a hash of it:
    /// distinct values, distinct bytes (a 16-byte binary key, as a UUID stored as Binary).
    @inline(__always)
    func setBytesKey(_ value: UInt64, length: Int, at f: Int, _ v: inout RecordValues) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (
            value.bigEndian, Mixing.hash(value, salt), Mixing.mix(value ^ salt),
            Mixing.hash(salt, value)
        )
        withUnsafeBytes(of: &words) { v.setBytes(UnsafeRawBufferPointer(rebasing: $0.prefix(min(length, 32))), at: f) }
    }

    /// prefix + the key's 12 hex digits + suffix.
    @inline(__always)
    func setTextKey(_ value: UInt64, texts: UnsafePointer<CompiledTexts>, at f: Int, _ v: inout RecordValues) {
        var text = texts.pointee.prefix
        text.append(hex: value, digits: Generator.keyDigits)
        texts.pointee.suffix.withBytes { text.append($0) }
        text.withBytes { v.setBytes($0, at: f) }
    }

    /// The related object's name: from its word list, else "<Entity> N".
    @inline(__always)
    func setParentName(
        _ parent: Int, names: NameList?, texts: UnsafePointer<CompiledTexts>, at f: Int, _ v: inout RecordValues
    ) {
        let start = v.beginText()
        if let names, parent < names.words.count {
            v.appendText(names.words[parent])
        } else {
            v.appendText(texts.pointee.entityPrefix)
            var n = InlineText()
            n.append(decimal: UInt64(parent + 1))
            v.appendText(n)
        }
        v.endText(start, at: f)
    }

    /// `length` bytes of words of the lists, space-separated, the last one cut to the length
    /// (ASCII, so a cut never splits a character).
    @inline(__always)
    func setText(length: Int, hash x: UInt64, at f: Int, _ v: inout RecordValues) {
        let start = v.beginText()
        var word = x
        var written = 0
        while written < length {
            let piece = Names.nouns[Int(word & 15)]
            let n = min(piece.utf8CodeUnitCount, length - written)
            v.appendText(UnsafeRawBufferPointer(start: piece.utf8Start, count: n))
            written += n
            if written < length {
                v.appendText(" ")
                written += 1
            }
            word = Mixing.mix(word)
        }
        v.endText(start, at: f)
    }

    /// "<adjective> <noun> #N".
    @inline(__always)
    func appendWords(_ h: UInt64, into v: inout RecordValues) {
        var text = InlineText()
        text.append(Names.adjectives[Int(h & 15)])
        text.append(byte: 32)
        text.append(Names.nouns[Int((h >> 4) & 15)])
        text.append(" #")
        text.append(decimal: (h >> 8) % 10_000)
        v.appendText(text)
    }

    /// A version-4 UUID's 16 bytes whose first six carry `high` (distinct highs below 2^48,
    /// distinct UUIDs).
    @inline(__always)
    func setUUID(high: UInt64, low: UInt64, at f: Int, _ v: inout RecordValues) {
        var words: (UInt64, UInt64) = (
            (high << 16) | 0x4000 | ((low >> 52) & 0x0FFF),
            (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        )
        withUnsafeBytes(of: &words) { v.setBytes($0, at: f) }
    }
}

/// The texts around a field's generated values (a key's prefix and suffix, a URL's prefix, the
/// entity's name before a number), as inline bytes.
private struct CompiledTexts: Sendable {
    let prefix: InlineText
    let suffix: InlineText
    let entityPrefix: InlineText

    init(_ field: FieldSpec, entity: String?) {
        switch field.generation {
        case .key(let p, let s):
            prefix = InlineText(p) ?? InlineText()
            suffix = InlineText(s) ?? InlineText()
        case .uri(let p):
            prefix = InlineText(p) ?? InlineText()
            suffix = InlineText()
        default:
            prefix = InlineText()
            suffix = InlineText()
        }
        entityPrefix = InlineText((entity ?? "Item") + " ") ?? InlineText()
    }
}

extension NameList {
    /// The list's words, in order.
    var words: [StaticString] {
        switch self {
        case .categories: return Names.categories
        case .albums: return Names.albums
        }
    }
}
