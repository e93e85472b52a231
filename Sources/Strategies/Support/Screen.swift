import ObjectGraph
import Report

/// A list screen watching the import (`--view-context`): the container's view context merges
/// every save (`automaticallyMergesChangesFromParent`) into a results controller over all
/// records, as an app's list would. Its merging runs on its own queue while the strategy writes;
/// the time it takes is recorded, and what it ends up showing is compared with the store.
///
/// This is the cost WWDC20 session 10017 found dominating an import by regular saves. Batch
/// requests post no notification: the screen sees nothing of them without a refetch.
final class Screen: @unchecked Sendable {
    // `controller` is confined to `context`'s queue.
    private let context: ManagedObjectContext
    private let controller: FetchedResultsController

    /// A screen on `container`, or nil when the job does not ask for one.
    init?(job: StrategyJob, container: PersistentContainer, mapping: ImportModel) throws {
        guard job.watchesWithViewContext else { return nil }
        let context = container.viewContext
        context.automaticallyMergesChangesFromParent = true
        self.context = context
        // Sorted by the record's key, as an app's list is (NSFetchedResultsController requires
        // sort descriptors): each merged insert finds its row by a binary search.
        var request = FetchRequest(entityName: mapping.recordEntity.name)
        request.sortDescriptors = mapping.roles.key.map { SortDescriptor(key: $0) }
        controller = try context.performAndWait { () throws -> FetchedResultsController in
            let c = try FetchedResultsController(fetchRequest: request, managedObjectContext: context)
            try c.performFetch()
            return c
        }
    }

    /// Waits for the merges already queued, then reports what the screen holds and what merging cost.
    func report(into counters: inout StrategyCounters) {
        let shown = context.performAndWait { controller.count }
        counters.viewObjects = shown
        counters.mergeMillisecondsTotal = context.mergeMilliseconds
    }
}
