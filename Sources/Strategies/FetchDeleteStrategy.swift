import ObjectGraph
import Report

/// Fetch and delete each object, saving every `--batch-size`: the delete through the context.
///
/// Each round fetches up to `--batch-size` targets, deletes them (the delete rule nullifies
/// their category's to-many, as Core Data's default), saves (a DELETE per object, checked by
/// Z_OPT) and resets, until no target is left.
package struct FetchDeleteStrategy: WriteStrategy {
    package init() {}
    package var name: String { "fetch-delete" }
    package var summary: String {
        "fetch --batch-size targets, delete each (nullify), save + reset, until none is left"
    }
    package var idiom: String { "context.delete per object, saved in batches (delete rule nullify)" }
    package var keyNeed: KeyNeed { .nothing }
    package var operation: Operation { .delete }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        let store = try FilledStore<Store>(job)
        let context = store.container.newBackgroundContext(name: "deleter")
        var clock = SaveClock()
        try context.performAndWait {
            var request = store.targets
            request.fetchLimit = job.batchSize(for: self)
            while true {
                let batch = try context.fetch(request)
                guard !batch.isEmpty else { break }
                for object in batch { context.delete(object) }
                try clock.save(context)
                context.reset()
                job.progress.add(batch.count)
            }
        }
        var counters = clock.counters(contexts: [context], stores: [store.container])
        FilledStore<Store>.reportScreen(job, into: &counters)
        return counters
    }
}
