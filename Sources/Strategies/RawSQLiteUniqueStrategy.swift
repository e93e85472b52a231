import ObjectGraph
import Report

/// The physical limit for a store that refuses duplicate keys: `raw-sqlite` on the layout with
/// a UNIQUE index on the key, repeated keys skipped with `INSERT OR IGNORE`.
///
/// Not an idiom: a second yardstick. Every deduplicating strategy writes this layout, so what
/// separates it from `raw-sqlite` is the price of the uniqueness constraint itself, and what
/// separates a strategy from it is the price of the strategy.
package struct RawSQLiteUniqueStrategy: WriteStrategy {
    package init() {}
    package var name: String { "raw-sqlite-unique" }
    package var summary: String { "raw-sqlite on the layout with a UNIQUE key (INSERT OR IGNORE); no engine" }
    package var idiom: String { "the limit for deduplicating strategies: what the uniqueness constraint alone costs" }
    package var isLimit: Bool { true }
    package var keyNeed: KeyNeed { .uniqueness }
    /// `INSERT OR IGNORE`: the first copy stays.
    package var repeatedKey: RepeatedKey { .first }
    package var defaultBatchSize: Int? { nil }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try RawImport(batchSize: job.batchSize(for: self)).run(job)
    }
}
