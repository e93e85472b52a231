import ObjectGraph
import Report

/// Counting by fetching: every object made to learn how many there are.
package struct CountFetchStrategy: ReadStrategy {
    package init() {}
    package var name: String { "count-fetch" }
    package var summary: String { "fetch every expense and count the array" }
    package var idiom: String { "counting with fetch(…).count (seed 004's anti-pattern)" }
    /// A count, not a list: compared only with the other way of counting.
    package var purpose: String? { "a count" }
    package var defaultBatchSize: Int? { nil }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try FilledStore<Store>.count(job) { context, all in try context.fetch(all).count }
    }
}
