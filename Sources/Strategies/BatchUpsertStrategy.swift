import ObjectGraph
import Report

/// A batch insert that upserts: the uniqueness constraint with the object-trump policy.
///
/// `INSERT … ON CONFLICT(key) DO UPDATE SET Z_OPT = Z_OPT + 1, <attributes> = excluded…`:
/// a repeated key updates its row in place (its relationship untouched) instead of being
/// ignored. Models `NSBatchInsertRequest` with a constrained entity and
/// `NSMergeByPropertyObjectTrumpMergePolicy`. Hypothesis: zero duplicates on duplicate-heavy
/// input, at the cost of the updates.
package struct BatchUpsertStrategy: WriteStrategy {
    package init() {}
    package var screenAdvice: String? { BatchImport.screenAdvice }
    package var name: String { "batch-upsert" }
    package var summary: String { "as batch, but repeated keys update their row (ON CONFLICT … DO UPDATE)" }
    package var idiom: String { "batch insert + uniqueness constraint + object-trump merge policy" }
    package var keyNeed: KeyNeed { .uniqueness }
    package var issuesBatchRequests: Bool { true }
    /// The object-trump upsert overwrites: the last copy wins, its related object too.
    package var repeatedKey: RepeatedKey { .last }
    package var defaultBatchSize: Int? { 5_000 }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try BatchImport(batchSize: job.batchSize(for: self), policy: .mergeByPropertyObjectTrump).run(job, on: engine)
    }
}
