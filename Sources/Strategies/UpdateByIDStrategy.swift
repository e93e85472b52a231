import ObjectGraph
import Report

/// Object IDs known up front, `object(with:)` per record: the N+1 of updates.
///
/// An app that kept the IDs of what it shows (or got them from a server's list) updates each
/// through `object(with:)`: a fault that costs one `SELECT … WHERE Z_PK = ?` when touched. Saves
/// and resets every `--batch-size`. The IDs are found before the measured window.
package struct UpdateByIDStrategy: WriteStrategy {
    package init() {}
    package var name: String { "update-by-id" }
    package var summary: String {
        "object(with:) per known ID, one fault query per row, save + reset every --batch-size"
    }
    package var idiom: String { "updating objects by ID: a fault fired per row (the N+1 of updates)" }
    package var keyNeed: KeyNeed { .nothing }
    package var operation: Operation { .update }

    package func setUp<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> PreparedState? {
        var job = job
        let state = try FilledStore<Store>.prepared(job)
        job.prepared = state   // the IDs are found on the container the window uses
        let store = try FilledStore<Store>(job)
        state.objectIDs = try store.targetIDs(in: store.container.newBackgroundContext(name: "ids"))
        return state
    }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        let store = try FilledStore<Store>(job)
        let ids = job.prepared?.objectIDs ?? []
        let context = store.container.newBackgroundContext(name: "updater")
        var clock = SaveClock()
        try context.performAndWait {
            for chunk in ids.chunks(of: job.batchSize(for: self)) {
                for id in chunk {
                    context.object(with: id).setValue(.string(OperationTarget.updatedNote), at: store.note!)
                }
                try clock.save(context)
                context.reset()
                job.progress.add(chunk.count)
            }
        }
        var counters = clock.counters(contexts: [context], stores: [store.container])
        FilledStore<Store>.reportScreen(job, into: &counters)
        return counters
    }
}
