import ObjectGraph
import Report

/// Seed 003's architecture: a batch-insert importer in the background (the `batch` strategy's
/// import, with persistent history on) while a list screen stays current through persistent
/// history alone: fetch after the stored token, merge each transaction into the view context,
/// store the token, purge what every consumer has seen.
///
/// Reports the consumer's lag from a transaction's commit to its merge (p50, p99), what the
/// history-fed screen misses at the end (must be 0: `view_missing`), what a screen fed by
/// `automaticallyMergesChangesFromParent` misses (every batch-inserted row), and the history
/// left. The importer's rate against `batch` with and without `--history` is the price.
package struct HistoryConsumerStrategy: WriteStrategy {
    package init() {}
    package var name: String { "history-consumer" }
    package var summary: String {
        "batch import with history on; a screen kept current by fetching, merging and purging history"
    }
    package var idiom: String { "NSPersistentHistoryChangeRequest consumer (seed 003) beside automatic merges" }
    package var keyNeed: KeyNeed { .uniqueness }
    package var issuesBatchRequests: Bool { true }
    /// The batch import's: the first copy stays.
    package var repeatedKey: RepeatedKey { .first }
    package var defaultBatchSize: Int? { 5_000 }
    package var requiresHistory: Bool { true }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        var job = job
        job.store.persistentHistoryTracking = true
        return try BatchImport(batchSize: job.batchSize(for: self), policy: .error, consumesHistory: true)
            .run(job, on: engine)
    }
}
