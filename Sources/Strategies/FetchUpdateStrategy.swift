import ObjectGraph
import Report

/// Fetch, modify, save: the update through managed objects, a batch at a time.
///
/// The targets' IDs come first (one keys-only query, as a fetch with `fetchBatchSize` does);
/// then per `--batch-size` IDs one `self IN …` fetch of the rows, the note set on each, a save
/// (an UPDATE per object, checked by Z_OPT) and a reset, so memory holds one batch.
package struct FetchUpdateStrategy: WriteStrategy {
    package init() {}
    package var name: String { "fetch-update" }
    package var summary: String {
        "fetch targets a batch at a time (self IN …), set each, save + reset every --batch-size"
    }
    package var idiom: String { "fetch-modify-save with fetchBatchSize, save and reset per batch" }
    package var keyNeed: KeyNeed { .nothing }
    package var operation: Operation { .update }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        let store = try FilledStore<Store>(job)
        let context = store.container.newBackgroundContext(name: "updater")
        var clock = SaveClock()
        try context.performAndWait {
            let ids = try store.targetIDs(in: context)
            context.reset()
            for chunk in ids.chunks(of: job.batchSize(for: self)) {
                let request = FetchRequest(entityName: store.expense, predicate: .in("self", Array(chunk)))
                for object in try context.fetch(request) {
                    object.setValue(.string(OperationTarget.updatedNote), at: store.note!)
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
