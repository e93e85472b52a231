import ObjectGraph
import Report

/// `NSBatchUpdateRequest` returning object IDs, merged into a screen that shows the records.
///
/// Models the update seed 004 recommends ("batch operations ~20× faster"): one `UPDATE … WHERE`
/// in the store, no objects, no did-save notification; a screen already showing the targets
/// learns of it only through `mergeChanges(fromRemoteContextSave:into:)`, which re-reads them.
/// The merge is in the measured time (`merge_ms_total`): it is the price of the speed.
package struct BatchUpdateStrategy: WriteStrategy {
    package init() {}
    package var name: String { "batch-update" }
    package var summary: String { "one BatchUpdateRequest (UPDATE … WHERE date < cutoff), IDs merged into the screen" }
    package var idiom: String { "NSBatchUpdateRequest + mergeChanges(fromRemoteContextSave:into:) (seed 004)" }
    /// A lopsided pair with its fetch-and-save sibling, said wherever the two stand side by side.
    package var caveat: String {
        "its time includes merging the updated objects' IDs into a screen, which the fetch-and-save idiom does not need "
            + "(its own context already has them)"
    }
    package var keyNeed: KeyNeed { .nothing }
    package var defaultBatchSize: Int? { nil }
    package var operation: Operation { .update }

    package func setUp(_ job: StrategyJob) throws -> PreparedState? { try FilledStore.preparedWithScreen(job) }

    package func run(_ job: StrategyJob) throws -> StrategyCounters {
        try FilledStore.runBatchRequest(job, worker: "updater") { worker, store in
            var request = BatchUpdateRequest(entityName: store.expense, predicate: store.target.predicate,
                                             propertiesToUpdate: [store.noteAttribute!: .string(OperationTarget.updatedNote)])
            request.resultType = .objectIDs
            return try worker.execute(request)
        } merge: { (updated: $0.objectIDs, deleted: []) }
    }
}
