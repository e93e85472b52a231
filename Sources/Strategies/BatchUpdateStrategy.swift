import ObjectGraph
import Report

/// `NSBatchUpdateRequest`, returning what the app asks for (`--result`).
///
/// Models the update seed 004 recommends ("batch operations ~20× faster"): one `UPDATE … WHERE`
/// in the store, no objects, no did-save notification. A screen (`--view-context`) learns of it
/// only through `mergeChanges(fromRemoteContextSave:into:)`, which needs the object IDs (a
/// capture table and triggers) and re-reads the objects it shows; both are in the measured time
/// (`merge_ms_total`) then, as the fetch-and-save idiom's merged saves are in its.
package struct BatchUpdateStrategy: WriteStrategy {
    package init() {}
    package var name: String { "batch-update" }
    package var summary: String {
        "one BatchUpdateRequest (UPDATE … WHERE date < cutoff); with a screen, its IDs merged into it"
    }
    package var idiom: String { "NSBatchUpdateRequest + mergeChanges(fromRemoteContextSave:into:) (seed 004)" }
    package var keyNeed: KeyNeed { .nothing }
    package var issuesBatchRequests: Bool { true }
    package var defaultBatchSize: Int? { nil }
    package var operation: Operation { .update }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try FilledStore<Store>.runBatchRequest(job, worker: "updater") { worker, store, resultType in
            var request = BatchUpdateRequest(
                entityName: store.expense, predicate: store.target.predicate,
                propertiesToUpdate: [store.noteAttribute!: .string(OperationTarget.updatedNote)])
            request.resultType = resultType
            return try worker.execute(request)
        } merge: {
            .init(updated: $0.objectIDs)
        }
    }
}
