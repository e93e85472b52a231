import ObjectGraph
import Report

/// The list screen with `relationshipKeyPathsForPrefetching = ["category"]`: the expenses and
/// their categories in two queries.
package struct ReadPrefetchStrategy: ReadStrategy {
    package init() {}
    package var name: String { "read-prefetch" }
    package var summary: String { "fetch every expense with relationshipKeyPathsForPrefetching = [\"category\"]" }
    package var idiom: String { "relationshipKeyPathsForPrefetching: one extra query for all related objects" }
    package var resolvesRelatedObjects: Bool { true }
    package var defaultBatchSize: Int? { nil }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ReadList(prefetchesCategories: true).run(job, on: engine)
    }
}
