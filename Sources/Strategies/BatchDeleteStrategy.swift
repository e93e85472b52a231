import ObjectGraph
import Report

/// `NSBatchDeleteRequest` returning object IDs, merged into a screen showing the records.
///
/// One `DELETE … WHERE Z_PK IN (SELECT …)` in the store: no objects, no delete rules run, no
/// notification. The screen shows the deleted expenses (and each category's to-many holds them)
/// until the IDs are merged: then they leave it and their categories' to-manys. The merge is in
/// the measured time.
package struct BatchDeleteStrategy: WriteStrategy {
    package init() {}
    package var name: String { "batch-delete" }
    package var summary: String { "one BatchDeleteRequest (date < cutoff), IDs merged into the screen" }
    package var idiom: String { "NSBatchDeleteRequest + mergeChanges(fromRemoteContextSave:into:) (seed 004)" }
    package var keyConstraint: KeyConstraint { .unique }
    package var defaultBatchSize: Int? { nil }
    package var operation: Operation { .delete }

    package func setUp(_ job: StrategyJob) throws -> PreparedState? {
        let store = try FilledStore(job)
        let state = PreparedState()
        state.container = store.container
        state.screen = try store.screenShowingTargets()
        return state
    }

    package func run(_ job: StrategyJob) throws -> StrategyCounters {
        guard let container = job.prepared?.container, let screen = job.prepared?.screen else {
            throw OperationError.notFilled
        }
        let store = try FilledStore(job, container: container)
        let worker = container.newBackgroundContext(name: "deleter")
        let result = try worker.performAndWait {
            var request = BatchDeleteRequest(entityName: store.expense, predicate: store.target.predicate)
            request.resultType = .objectIDs
            return try worker.execute(request)
        }
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: (updated: [], deleted: result.objectIDs), into: [screen])
        job.progress.add(result.count)
        var counters = StrategyCounters()
        counters.mergeMillisecondsTotal = screen.mergeMilliseconds
        counters.viewObjects = screen.performAndWait { screen.registeredObjectCount }
        return counters
    }
}
