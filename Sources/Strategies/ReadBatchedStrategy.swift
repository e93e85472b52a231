import ObjectGraph
import Report

/// The list screen with `fetchBatchSize = --batch-size`, walked from top to bottom: keys first,
/// then rows one batch (one `Z_PK IN …` query) at a time; a batch left behind goes back to
/// faults, so what the walk holds stays about one batch (seed 004: "fetchBatchSize saves memory").
package struct ReadBatchedStrategy: ReadStrategy {
    package init() {}
    package var name: String { "read-batched" }
    package var summary: String { "fetchBatchSize = --batch-size over every expense, walked to the end" }
    package var idiom: String { "fetchBatchSize: keys first, rows a batch at a time (seed 004)" }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ReadList(batchSize: job.batchSize(for: self)).run(job, on: engine)
    }
}
