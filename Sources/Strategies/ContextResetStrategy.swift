import ObjectGraph
import Report

/// A background context import that saves and `reset()`s every `--batch-size` records.
///
/// Models the import of seed 000 ("Threading & Background Contexts"): managed objects per
/// record, `NSMergeByPropertyObjectTrumpMergePolicy` with a uniqueness constraint for repeated
/// keys, save every 1,000, `reset()` to drop memory, and the category dictionary fetched again
/// with one `name IN (…)` query after each reset, because reset invalidates the objects it held.
/// Hypothesis: flat memory.
package struct ContextResetStrategy: WriteStrategy {
    package init() {}
    package var name: String { "context-reset" }
    package var summary: String { "managed object per record, save + reset() every --batch-size, categories refetched" }
    package var idiom: String { "background context import, save + reset() every N (seed 000)" }
    package var keyNeed: KeyNeed { .uniqueness }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ContextImport(batchSize: job.batchSize(for: self), resetsAfterSave: true, lookup: .refetchAfterReset).run(
            job, on: engine)
    }
}
