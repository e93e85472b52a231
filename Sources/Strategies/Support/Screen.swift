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
package final class Screen<Store: ObjectStore>: ScreenInFront, @unchecked Sendable {
    // `controller` and `held` are confined to `context`'s queue.
    private let context: Store.Context
    private let controller: Store.Context.Controller?
    /// A list's objects, held as its cells hold them (a controller holds its own).
    private let held: [Store.Context.Object]
    /// How many objects the screen shows now, on its queue. Made in `init`, which the strategies
    /// call specialised for their engine: `report` reached through `ScreenInFront` (a prepared
    /// screen) runs the class's generic code, where counting `held` itself went through the
    /// standard library's unspecialised `reduce`, one allocation per shown object (+1,040 in a
    /// delete behind `--view-context list:1000`).
    private let shownCount: () -> Int
    package let kind: ScreenKind

    /// The screen the job asks for on `container`, showing its list already; nil when it asks
    /// for none.
    init?(job: StrategyJob, container: Store, mapping: ImportModel) throws {
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
            let controller = try context.performAndWait { () throws -> Store.Context.Controller in
                let c = try Store.Context.Controller(fetchRequest: request, managedObjectContext: context)
                try c.performFetch()
                return c
            }
            (self.controller, held) = (controller, [])
            shownCount = { controller.count }
        case .list:
            let held = try context.performAndWait { try context.fetch(request) }
            (controller, self.held) = (nil, held)
            shownCount = { held.reduce(0) { $0 + ($1.isRegistered ? 1 : 0) } }
        }
    }

    /// Whether the screen follows inserts (a controller does; a list shows what it fetched).
    package var followsInserts: Bool { controller != nil }

    /// A batch request's changes, merged as `mergeChanges(fromRemoteContextSave:into:)` merges
    /// them (timed with the other merges).
    package func merge(_ changes: RemoteChanges) {
        Store.Context.mergeChanges(fromRemoteContextSave: changes, into: [context])
    }

    /// `body` with the objects the screen shows, on its queue (for checks after the window).
    func withShownObjects<T>(_ body: ([Store.Context.Object]) -> T) -> T {
        context.performAndWait { body(controller?.fetchedObjects ?? held.filter(\.isRegistered)) }
    }

    /// Waits for the merges already queued, then reports what the screen shows and what merging
    /// cost.
    package func report(into counters: inout StrategyCounters) {
        counters.viewObjects = context.performAndWait { shownCount() }
        counters.mergeMillisecondsTotal = context.mergeMilliseconds
    }
}

/// A screen whatever the engine it shows (`PreparedState` keeps it from `setUp` to the window).
package protocol ScreenInFront: AnyObject, Sendable {
    var kind: ScreenKind { get }
    /// Whether the screen follows inserts (a controller does; a list shows what it fetched).
    var followsInserts: Bool { get }
    /// A batch request's changes, merged as `mergeChanges(fromRemoteContextSave:into:)` merges them.
    func merge(_ changes: RemoteChanges)
    /// What the screen shows and what merging cost.
    func report(into counters: inout StrategyCounters)
}
