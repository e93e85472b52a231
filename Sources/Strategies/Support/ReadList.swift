import ObjectGraph
import Report

/// A list screen of every expense with its category's name: the read strategies differ only in
/// how the fetch is set up (plain, prefetching, in batches).
struct ReadList {
    var prefetchesCategories = false
    var batchSize = 0

    func run(_ job: StrategyJob) throws -> StrategyCounters {
        let store = try FilledStore(job)
        let context = store.container.newBackgroundContext(name: "screen")
        var counters = StrategyCounters()
        try context.performAndWait {
            var request = FetchRequest(entityName: store.expense)
            if prefetchesCategories, let relationship = store.categoryRelationship {
                request.relationshipKeyPathsForPrefetching = [relationship]
            }
            request.fetchBatchSize = batchSize
            let list = try context.fetch(request)
            var shown = 0, bytes = 0, peak = 0
            // What the walk holds at once, sampled every ten batches (a pass over the registry:
            // sampling every record would cost more than the read).
            let every = batchSize > 0 ? batchSize * 10 : Int.max
            for (i, expense) in list.enumerated() {
                // What a cell shows: the note and the category's name.
                if let note = store.note, case .string(let text) = expense.value(at: note) { bytes += text.utf8.count }
                if let category = store.category, let name = store.categoryName,
                   case .string(let text)? = expense.object(at: category)?.value(at: name) {
                    bytes += text.utf8.count
                }
                shown += 1
                if i % every == every - 1 { peak = max(peak, context.materializedObjectCount) }
                if i % 1_000 == 999 { job.progress.add(1_000) }
            }
            peak = max(peak, context.materializedObjectCount)
            job.progress.add(list.count % 1_000)
            counters.objectsRead = shown
            counters.peakRegisteredObjects = peak
            withExtendedLifetime(bytes) {}
        }
        return counters
    }
}

extension ManagedObjectContext {
    /// Time this context spent merging, in milliseconds.
    var mergeMilliseconds: Double {
        Double(mergeTime.components.seconds) * 1000 + Double(mergeTime.components.attoseconds) / 1e15
    }
}
