import ObjectGraph
import Report

/// The screen in front of a run (`--view-context`, `ScreenKind`): the same list for every
/// strategy, on the container's view context. It merges every save of the strategy's contexts
/// (`automaticallyMergesChangesFromParent`) on its own queue while the strategy writes, and the
/// object IDs of its batch requests (`merge`, as `mergeChanges(fromRemoteContextSave:into:)`);
/// the time merging takes is recorded, and what it shows is compared with the store.
///
/// This is the cost WWDC20 session 10017 found dominating an import by regular saves; a batch
/// request posts no notification, so it pays for the IDs it must return instead.
package final class Screen: @unchecked Sendable {
    // `controller` and `held` are confined to `context`'s queue.
    private let context: ManagedObjectContext
    private let controller: FetchedResultsController?
    /// A list's objects, held as its cells hold them (a controller holds its own).
    private var held: [ManagedObject] = []
    package let kind: ScreenKind

    /// The screen the job asks for on `container`, showing its list already; nil when it asks
    /// for none.
    init?(job: StrategyJob, container: PersistentContainer, mapping: ImportModel) throws {
        guard let kind = job.screen else { return nil }
        self.kind = kind
        let context = container.viewContext
        context.automaticallyMergesChangesFromParent = true
        self.context = context
        // Sorted by the record's key, as an app's list is (NSFetchedResultsController requires
        // sort descriptors): each merged insert finds its row by a binary search.
        var request = FetchRequest(entityName: mapping.recordEntity.name)
        request.sortDescriptors = mapping.roles.key.map { SortDescriptor(key: $0) }
        request.fetchLimit = kind.limit ?? 0
        switch kind {
        case .controller:
            controller = try context.performAndWait { () throws -> FetchedResultsController in
                let c = try FetchedResultsController(fetchRequest: request, managedObjectContext: context)
                try c.performFetch()
                return c
            }
        case .list:
            controller = nil
            held = try context.performAndWait { try context.fetch(request) }
        }
    }

    /// Whether the screen follows inserts (a controller does; a list shows what it fetched).
    var followsInserts: Bool { controller != nil }

    /// A batch request's changes, merged as `mergeChanges(fromRemoteContextSave:into:)` merges
    /// them (timed with the other merges).
    func merge(_ changes: ManagedObjectContext.RemoteChanges) {
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [context])
    }

    /// `body` with the objects the screen shows, on its queue (for checks after the window).
    func withShownObjects<T>(_ body: ([ManagedObject]) -> T) -> T {
        context.performAndWait { body(controller?.fetchedObjects ?? held.filter { $0.managedObjectContext != nil }) }
    }

    /// Waits for the merges already queued, then reports what the screen shows and what merging
    /// cost.
    func report(into counters: inout StrategyCounters) {
        counters.viewObjects = context.performAndWait {
            controller?.count ?? held.reduce(0) { $0 + ($1.managedObjectContext == nil ? 0 : 1) }
        }
        counters.mergeMillisecondsTotal = context.mergeMilliseconds
    }
}
