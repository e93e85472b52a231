import ObjectGraph
import Report

/// The list screen with nothing prefetched: each category is a fault fired when a cell first
/// shows it (one query per distinct category, since a fired category stays registered).
package struct ReadFaultingStrategy: ReadStrategy {
    package init() {}
    package var name: String { "read-faulting" }
    package var summary: String { "fetch every expense, touch category.name: one fault query per distinct category" }
    package var idiom: String { "a list fetched plainly, relationships faulted in as cells show them" }
    package var resolvesRelatedObjects: Bool { true }
    package var defaultBatchSize: Int? { nil }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ReadList().run(job, on: engine)
    }
}
