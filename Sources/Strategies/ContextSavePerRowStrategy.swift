import ObjectGraph
import Report

/// Saves after every inserted record: "saving too frequently".
///
/// Every record pays a uniqueness check, a key-reservation transaction and a write transaction
/// of its own. It resets every `--batch-size` records like `context-reset`, so that the only
/// difference between the two is how often they save. Hypothesis: one transaction per row
/// makes it the slowest.
package struct ContextSavePerRowStrategy: WriteStrategy {
    package init() {}
    package var name: String { "context-save-per-row" }
    package var summary: String { "managed object per record, save() after every record" }
    package var idiom: String { "saving too frequently: one save (and transaction) per object" }
    package var keyNeed: KeyNeed { .uniqueness }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ContextImport(batchSize: job.batchSize(for: self), resetsAfterSave: true, saveEvery: 1, lookup: .keepIDs)
            .run(job, on: engine)
    }
}
