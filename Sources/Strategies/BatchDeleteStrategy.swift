import ObjectGraph
import Report

/// `NSBatchDeleteRequest`, returning what the app asks for (`--result`).
///
/// One `DELETE … WHERE Z_PK IN (SELECT …)` in the store, its delete rules carried out by
/// temporary triggers: no objects, no notification. A screen (`--view-context`) shows the deleted
/// records (and each category's to-many holds them) until their IDs are merged: then they leave
/// it and their categories' to-manys. With a screen the IDs are asked for (a fetch of the targets
/// first) and the merge is in the measured time.
package struct BatchDeleteStrategy: WriteStrategy {
    package init() {}
    package var name: String { "batch-delete" }
    package var summary: String { "one BatchDeleteRequest (date < cutoff); with a screen, its IDs merged into it" }
    package var idiom: String { "NSBatchDeleteRequest + mergeChanges(fromRemoteContextSave:into:) (seed 004)" }
    package var keyNeed: KeyNeed { .nothing }
    package var issuesBatchRequests: Bool { true }
    package var defaultBatchSize: Int? { nil }
    package var operation: Operation { .delete }

    /// Core Data refuses the request when a rule its triggers cannot carry out is reached (134060).
    package func refusal(on source: ImportSource) -> String? {
        guard let model = try? source.file.model(), let relationship = model.batchDeleteRefusal(of: source.roles.entity)
        else { return nil }
        return
            "Core Data refuses NSBatchDeleteRequest here: \(relationship)'s delete rule cannot run in a batch delete (134060, "
            + "\"Delete rule is not supported for batch deletes\"); fetch-delete deletes through a context, which applies it"
    }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try FilledStore<Store>.runBatchRequest(job, worker: "deleter") { worker, store, resultType in
            var request = BatchDeleteRequest(entityName: store.expense, predicate: store.target.predicate)
            request.resultType = resultType
            return try worker.execute(request)
        } merge: {
            .init(deleted: $0.objectIDs)
        }
    }
}
