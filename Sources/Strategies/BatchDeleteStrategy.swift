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
    /// A lopsided pair with its fetch-and-save sibling, said wherever the two stand side by side.
    package var caveat: String {
        "its time includes merging the deleted objects' IDs into a screen, which the fetch-and-save idiom does not need "
            + "(its own context already has them)"
    }
    package var keyNeed: KeyNeed { .nothing }
    package var defaultBatchSize: Int? { nil }
    package var operation: Operation { .delete }

    /// Core Data refuses the request when a rule its triggers cannot carry out is reached (134060).
    package func refusal(on source: ImportSource) -> String? {
        guard let model = try? source.file.model(), let relationship = model.batchDeleteRefusal(of: source.roles.entity) else { return nil }
        return "Core Data refuses NSBatchDeleteRequest here: \(relationship)'s delete rule cannot run in a batch delete (134060, "
            + "\"Delete rule is not supported for batch deletes\"); fetch-delete deletes through a context, which applies it"
    }

    package func setUp(_ job: StrategyJob) throws -> PreparedState? { try FilledStore.preparedWithScreen(job) }

    package func run(_ job: StrategyJob) throws -> StrategyCounters {
        try FilledStore.runBatchRequest(job, worker: "deleter") { worker, store in
            var request = BatchDeleteRequest(entityName: store.expense, predicate: store.target.predicate)
            request.resultType = .objectIDs
            return try worker.execute(request)
        } merge: { (updated: [], deleted: $0.objectIDs) }
    }
}
