import ObjectGraph
import Report

/// The list screen fetched with `includesPropertyValues = false`: the keys alone, objects as
/// faults whose rows are not in the row cache, so every cell fires one query for its row (Apple:
/// "goes back to the store a second time for the data") — the switch's trap, measured.
package struct ReadWithoutValuesStrategy: ReadStrategy {
    package init() {}
    package var name: String { "read-without-values" }
    package var summary: String { "fetch every expense with includesPropertyValues = false: one query per cell" }
    package var idiom: String { "includesPropertyValues = false on a list that shows the values" }
    package var resolvesRelatedObjects: Bool { true }
    package var defaultBatchSize: Int? { nil }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ReadList(includesPropertyValues: false).run(job, on: engine)
    }
}
