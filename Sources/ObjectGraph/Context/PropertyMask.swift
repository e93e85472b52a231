/// A set of an entity's property positions: which attributes and to-ones an object changed, which
/// to-manys it loaded or touched, which values a `propertiesToFetch` fault holds.
///
/// Core Data has no limit on an entity's properties, and shipped models have entities of 40 to
/// 64 attributes, so neither has the mask. Positions below 64 live in one inline word: tracking a
/// change costs one compare and one OR, and an entity of at most 64 tracked properties (nearly
/// every entity) never allocates. Higher positions spill into `high`, allocated on first use.
/// It lives in the engine's module, not one of its own: across a module boundary its copies,
/// hashes and tests were calls, 0.75 % more instructions in a context import.
///
/// The positions of one entity's change mask: attribute `i` at `i`, to-one `j` at
/// `Entity.toOnePosition(j)` (after the attributes). To-manys and many-to-manys have masks of
/// their own, by their index.
package struct PropertyMask: Hashable, Sendable {
    /// Positions 0 ..< 64.
    package var low: UInt64 = 0
    /// Positions 64 and up, 64 a word; nil while none is set. Kept without trailing zero words,
    /// so that equal sets are equal values (the save's statement cache keys on masks).
    private var high: [UInt64]?

    /// The empty set.
    package init() {}

    /// The set of `positions`.
    package init<S: Sequence<Int>>(_ positions: S) {
        for p in positions { insert(p) }
    }

    /// Positions `0 ..< count`: every property of a kind.
    package static func all(_ count: Int) -> PropertyMask { PropertyMask(0..<count) }

    package var isEmpty: Bool { low == 0 && high == nil }

    @inline(__always)
    package func contains(_ position: Int) -> Bool {
        if position < 64 { return low & (1 << UInt64(position)) != 0 }
        return highContains(position)
    }

    @inline(__always)
    package mutating func insert(_ position: Int) {
        if position < 64 { low |= 1 << UInt64(position) } else { highInsert(position) }
    }

    @inline(__always)
    package mutating func remove(_ position: Int) {
        if position < 64 { low &= ~(1 << UInt64(position)) } else { highRemove(position) }
    }

    /// Sets or clears `position`.
    @inline(__always)
    package mutating func update(_ position: Int, to member: Bool) {
        if member { insert(position) } else { remove(position) }
    }

    package func union(_ other: PropertyMask) -> PropertyMask {
        var out = PropertyMask()
        out.low = low | other.low
        out.high = Self.combine(high, other.high, keepingMissing: true) { $0 | $1 }
        return out
    }

    package mutating func formUnion(_ other: PropertyMask) {
        low |= other.low
        if high != nil || other.high != nil { high = Self.combine(high, other.high, keepingMissing: true) { $0 | $1 } }
    }

    package func intersection(_ other: PropertyMask) -> PropertyMask {
        var out = PropertyMask()
        out.low = low & other.low
        if high != nil && other.high != nil {
            out.high = Self.combine(high, other.high, keepingMissing: false) { $0 & $1 }
        }
        return out
    }

    package func subtracting(_ other: PropertyMask) -> PropertyMask {
        var out = PropertyMask()
        out.low = low & ~other.low
        if high != nil { out.high = Self.combine(high, other.high, keepingMissing: true) { $0 & ~$1 } }
        return out
    }

    /// Some position is in both.
    package func intersects(_ other: PropertyMask) -> Bool {
        if low & other.low != 0 { return true }
        return high != nil && other.high != nil && !intersection(other).isEmpty
    }

    // MARK: Positions past 64

    private func highContains(_ position: Int) -> Bool {
        let (word, bit) = Self.split(position)
        guard let high, word < high.count else { return false }
        return high[word] & (1 << UInt64(bit)) != 0
    }

    private mutating func highInsert(_ position: Int) {
        let (word, bit) = Self.split(position)
        var words = high ?? []
        if words.count <= word { words.append(contentsOf: repeatElement(0, count: word + 1 - words.count)) }
        words[word] |= 1 << UInt64(bit)
        high = words
    }

    private mutating func highRemove(_ position: Int) {
        let (word, bit) = Self.split(position)
        guard var words = high, word < words.count else { return }
        words[word] &= ~(1 << UInt64(bit))
        high = Self.trimmed(words)
    }

    /// Word and bit of a position of 64 or more in `high`.
    private static func split(_ position: Int) -> (word: Int, bit: Int) { ((position - 64) / 64, (position - 64) % 64) }

    /// `a` and `b` word by word; a word one side lacks counts as 0, and is kept from the other
    /// side only when `keepingMissing`.
    private static func combine(
        _ a: [UInt64]?, _ b: [UInt64]?, keepingMissing: Bool,
        _ op: (UInt64, UInt64) -> UInt64
    ) -> [UInt64]? {
        let a = a ?? []
        let b = b ?? []
        let count = keepingMissing ? max(a.count, b.count) : min(a.count, b.count)
        let words = (0..<count).map { op($0 < a.count ? a[$0] : 0, $0 < b.count ? b[$0] : 0) }
        return trimmed(words)
    }

    private static func trimmed(_ words: [UInt64]) -> [UInt64]? {
        guard let last = words.lastIndex(where: { $0 != 0 }) else { return nil }
        return last == words.count - 1 ? words : Array(words[...last])
    }
}
