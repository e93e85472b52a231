import ObjectGraph
import Report

/// `many-writers` with a uniqueness constraint on the key and the object-trump merge policy.
///
/// The store refuses a second row per key; each save's uniqueness check finds rows other
/// writers saved and merges into them, and an INSERT that still collides (two writers between
/// check and insert) is retried. Models many writers + constraint + merge policy (seed 003:
/// "A uniqueness constraint can protect identity"). Hypothesis: zero duplicates, conflicts counted.
package struct ManyWritersConstrainedStrategy: WriteStrategy {
    package init() {}
    package var name: String { "many-writers-constrained" }
    package var summary: String { "as many-writers, with a UNIQUE key resolved by the object-trump merge policy" }
    package var idiom: String { "many writers + uniqueness constraint + merge policy" }
    package var keyNeed: KeyNeed { .uniqueness }
    package var usesWriters: Bool { true }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ManyWriters().run(job, on: engine, batchSize: job.batchSize(for: self))
    }
}
