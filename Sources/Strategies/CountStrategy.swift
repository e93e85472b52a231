import ObjectGraph
import Report

/// Counting in the store: `count(for:)`, one `SELECT count(*)`, no objects.
package struct CountStrategy: ReadStrategy {
    package init() {}
    package var name: String { "count" }
    package var summary: String { "count(for:): one SELECT count(*), no objects" }
    package var idiom: String { "context.count(for:) (seed 004: ~100× faster than fetching)" }
    /// A count, not a list: compared only with the other way of counting.
    package var purpose: String? { "a count" }
    package var defaultBatchSize: Int? { nil }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try FilledStore<Store>.count(job) { context, all in try context.count(for: all) }
    }
}
