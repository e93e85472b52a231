import ObjectGraph
import Report

/// The same import as `context-reset`, without the reset: every object stays registered.
///
/// Models the import that forgets `reset()` (seed 000 explains why it is needed). Each category
/// keeps every expense in its inverse to-many, so nothing can be freed. Hypothesis: memory grows
/// with rows.
package struct ContextNoResetStrategy: WriteStrategy {
    package init() {}
    package var name: String { "context-noreset" }
    package var summary: String { "as context-reset but never resets: every object stays registered" }
    package var idiom: String { "background context import that saves every N but never resets" }
    package var keyNeed: KeyNeed { .uniqueness }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ContextImport(batchSize: job.batchSize(for: self), resetsAfterSave: false, lookup: .refetchAfterReset).run(
            job, on: engine)
    }
}
