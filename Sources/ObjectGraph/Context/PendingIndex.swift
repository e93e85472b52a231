/// Unsaved objects of one entity by the value of one attribute: what lets a fetch that
/// includes pending changes (`name == %@`, find-or-create) look at the few unsaved objects that
/// can match instead of every one.
///
/// Without it, each such fetch scans every inserted and updated object, so a writer that
/// finds-or-creates N records between saves does N²/2 comparisons: `one-writer` with
/// `--batch-size 1000000` took 257 s for 100,000 rows. The index keeps that linear.
///
/// It is built on the first equality fetch and extended with objects listed since (the change
/// lists only grow between saves); an indexed object whose indexed attribute changes is moved
/// (`ManagedObject.setValue` tells the context). Buckets are keyed by `Value`'s Hashable, which
/// is looser than SQLite's byte comparison (canonically equivalent strings share a bucket), so
/// callers still judge each candidate with the predicate. Cleared whenever the lists are.
/// Confined to the context's queue like the lists it indexes.
struct PendingIndex {
    let entity: Int
    let attribute: Int
    private var buckets: [Value: [ManagedObject]] = [:]
    /// How much of the context's inserted and updated lists is indexed.
    private var insertedSeen = 0
    private var updatedSeen = 0

    init(entity: Int, attribute: Int) {
        self.entity = entity
        self.attribute = attribute
    }

    /// Indexes what was listed since the last call. Returns how many objects it looked at.
    mutating func catchUp(inserted: [ManagedObject], updated: [ManagedObject]) -> Int {
        let before = insertedSeen + updatedSeen
        while insertedSeen < inserted.count {
            add(inserted[insertedSeen])
            insertedSeen += 1
        }
        while updatedSeen < updated.count {
            add(updated[updatedSeen])
            updatedSeen += 1
        }
        return insertedSeen + updatedSeen - before
    }

    private mutating func add(_ o: ManagedObject) {
        guard o.entity.id == entity, !o.isFault, o.values.indices.contains(attribute) else { return }
        o.pendingIndexAttribute = attribute
        buckets[o.values[attribute], default: []].append(o)
    }

    /// The objects that may hold `value`.
    func candidates(_ value: Value) -> [ManagedObject] { buckets[value] ?? [] }

    /// `o`'s indexed attribute goes from `old` to `new`.
    mutating func move(_ o: ManagedObject, from old: Value, to new: Value) {
        if var bucket = buckets[old], let i = bucket.firstIndex(where: { $0 === o }) {
            bucket.remove(at: i)
            buckets[old] = bucket.isEmpty ? nil : bucket
        }
        buckets[new, default: []].append(o)
    }
}
