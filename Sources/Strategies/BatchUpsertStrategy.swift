import ObjectGraph
import Report

/// A batch insert that upserts: the uniqueness constraint with the object-trump policy.
///
/// `INSERT … ON CONFLICT(key) DO UPDATE SET Z_OPT = Z_OPT + 1, <attributes> = excluded…`:
/// a repeated key updates its row in place (its relationship untouched) instead of being
/// ignored. Models `NSBatchInsertRequest` with a constrained entity and
/// `NSMergeByPropertyObjectTrumpMergePolicy`. Hypothesis: zero duplicates on duplicate-heavy
/// input, at the cost of the updates.
public struct BatchUpsertStrategy: WriteStrategy {
    public init() {}
    public var name: String { "batch-upsert" }
    public var summary: String { "as batch, but repeated keys update their row (ON CONFLICT … DO UPDATE)" }
    public var idiom: String { "batch insert + uniqueness constraint + object-trump merge policy" }
    public var keyConstraint: KeyConstraint { .unique }
    public var defaultBatchSize: Int? { 5_000 }

    public func run(_ job: StrategyJob) throws -> StrategyCounters {
        try BatchImport(batchSize: job.batchSize(for: self), policy: .mergeByPropertyObjectTrump).run(job)
    }
}
