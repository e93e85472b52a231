/// A set of a record's fields (`RecordShape.fields` indexes): which a reader has seen in the
/// record, which are keys. The first 64 in one word; a shape of more fields (an order of 64
/// attributes and its related object's key) keeps the rest in words made once for the shape.
struct FieldSet: Sendable {
    private var low: UInt64 = 0
    private var high: [UInt64]

    /// An empty set for a shape of `count` fields.
    init(count: Int) { high = count > 64 ? Array(repeating: 0, count: (count - 1) / 64) : [] }

    /// The set of `fields`, for a shape of `count` fields.
    init(_ fields: some Sequence<Int>, count: Int) {
        self.init(count: count)
        for f in fields { insert(f) }
    }

    @inline(__always)
    func contains(_ f: Int) -> Bool {
        f < 64 ? low & (1 << UInt64(f)) != 0 : high[(f - 64) / 64] & (1 << UInt64((f - 64) % 64)) != 0
    }

    @inline(__always)
    mutating func insert(_ f: Int) {
        if f < 64 { low |= 1 << UInt64(f) } else { high[(f - 64) / 64] |= 1 << UInt64((f - 64) % 64) }
    }
}
