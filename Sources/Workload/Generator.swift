/// Produces the records of a `WorkloadSpec`, each from its position alone.
///
/// Stateless per record (values are hashes of seed and key index), so producers can share a
/// stream by position, memory never grows with `rows`, and a repeated key repeats its record
/// exactly, as a retried request or a re-sent page would.
package struct Generator: Sendable {
    package let spec: WorkloadSpec
    package let plan: KeyPlan
    private let valueSeed: UInt64

    /// Core Data's reference date is 2001-01-01; this is 2026-01-01 in seconds since then.
    static let dateBase = 788_918_400.0
    static let year = 365 * 86_400

    package init(spec: WorkloadSpec) {
        self.spec = spec
        self.plan = spec.keyPlan
        self.valueSeed = Mixing.mix(spec.seed ^ 0x00DA_7A5E_ED00)
    }

    /// Fills `record` with the record at position `i` (0 ≤ i < rows).
    @inline(__always)
    package func record(at i: Int, into record: inout Record) {
        record.index = i
        fill(keyIndex: plan.keyIndex(at: i), into: &record)
    }

    /// Fills every value of unique key `k` (all but `index`): a key's record is always the same.
    @inline(__always)
    package func fill(keyIndex k: Int, into record: inout Record) {
        record.keyIndex = k
        fillKey(k, into: &record.key)
        let h = Mixing.hash(valueSeed, UInt64(k))
        let parent = Int(Mixing.hash(h, 1) % UInt64(max(1, spec.parents)))
        record.parentIndex = parent
        parentName(parent, into: &record.parentName)
        switch spec.dataset {
        case .expenses:
            record.amount = Double(1 + Mixing.hash(h, 2) % 99_999) / 100
            record.date = Self.dateBase - Double(Mixing.hash(h, 3) % UInt64(Self.year))
            fillNote(Mixing.hash(h, 4), into: &record.note)
        case .photos:
            record.isSeen = Mixing.hash(h, 5) % 10 == 0
            record.payloadOffset = Int(Mixing.hash(h, 6) % UInt64(PayloadPool.slack))
        }
    }

    /// The record at position `i`, as a new value.
    package func record(at i: Int) -> Record {
        var r = Record()
        record(at: i, into: &r)
        return r
    }

    /// The key of unique-key index `k`: `ex-` + 12 hex digits, or a photo URL. Distinct for
    /// distinct `k` (a bijection), so the verifier can rebuild the expected key set. Ascending
    /// keys are a seeded base plus `k` (below 2^47, so 12 hex digits hold them).
    @inline(__always)
    package func fillKey(_ k: Int, into key: inout InlineText) {
        let v = spec.keyOrder == .random ? Mixing.permute48(UInt64(k), seed: spec.seed)
                                         : (Mixing.mix(spec.seed) & 0x7FFF_0000_0000) &+ UInt64(k)
        key.removeAll()
        switch spec.dataset {
        case .expenses:
            key.append("ex-")
            key.append(hex: v, digits: 12)
        case .photos:
            key.append("https://img.example.com/p/")
            key.append(hex: v, digits: 12)
            key.append(".jpg")
        }
    }

    /// The name of parent `index` (category or album). Names are unique.
    package func parentName(_ index: Int, into name: inout InlineText) {
        name.removeAll()
        let list = spec.dataset == .expenses ? Names.categories : Names.albums
        if index < list.count {
            name.append(list[index])
        } else {
            name.append(spec.dataset == .expenses ? "Category " : "Album ")
            name.append(decimal: UInt64(index + 1))
        }
    }

    /// The name of parent `index`, as a String.
    package func parentName(_ index: Int) -> String {
        var name = InlineText()
        parentName(index, into: &name)
        return name.string
    }

    @inline(__always)
    private func fillNote(_ h: UInt64, into note: inout InlineText) {
        note.removeAll()
        note.append(Names.adjectives[Int(h & 15)])
        note.append(byte: 32)
        note.append(Names.nouns[Int((h >> 4) & 15)])
        note.append(" #")
        note.append(decimal: (h >> 8) % 10_000)
    }
}
