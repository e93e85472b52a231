/// A fetch request's sort descriptors applied to objects in memory: what a fetch that includes
/// unsaved changes sorts by, and where a results controller puts an object a merge brings in.
struct ObjectOrder {
    /// Each descriptor with the attribute it sorts by (nil: not an attribute, skipped).
    private let keys: [(descriptor: SortDescriptor, attribute: Int?)]

    init(_ request: FetchRequest, entity: Entity) {
        keys = request.sortDescriptors.map { ($0, entity.attributeIndex($0.key)) }
    }

    /// No sort descriptors: objects keep the order they came in.
    var isEmpty: Bool { keys.isEmpty }

    /// Whether `a` sorts before `b` (both with their values loaded).
    func precedes(_ a: ManagedObject, _ b: ManagedObject) -> Bool {
        for (d, index) in keys {
            guard let index else { continue }
            guard let order = Predicate.order(a.values[index], b.values[index]), order != 0 else { continue }
            return d.ascending ? order < 0 : order > 0
        }
        return false
    }

    /// Where `o` goes in `sorted`: after every object it does not precede (a binary search,
    /// `+[NSFetchedResultsController _insertIndexForObject:inArray:lowIdx:highIdx:sortDescriptors:]`);
    /// the end without sort descriptors. A fault compared is filled first by `fulfil`, as reading
    /// its sort key would fire it.
    func insertionIndex(of o: ManagedObject, in sorted: [ManagedObject], fulfil: (ManagedObject) -> Void) -> Int {
        guard !isEmpty else { return sorted.count }
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid].isFault { fulfil(sorted[mid]) }
            if precedes(o, sorted[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Whether `o`, at `index` of `sorted`, is no longer between its neighbours (faults filled
    /// by `fulfil`).
    func isOutOfPlace(_ o: ManagedObject, at index: Int, in sorted: [ManagedObject], fulfil: (ManagedObject) -> Void)
        -> Bool
    {
        guard !isEmpty else { return false }
        for i in [index - 1, index + 1] where sorted.indices.contains(i) && sorted[i].isFault { fulfil(sorted[i]) }
        return (index > 0 && precedes(o, sorted[index - 1]))
            || (index + 1 < sorted.count && precedes(sorted[index + 1], o))
    }
}
