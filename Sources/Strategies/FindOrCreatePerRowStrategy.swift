import ObjectGraph
import Report

/// Find-or-create with one fetch per record (`key == %@`, `fetchLimit = 1`): what most apps
/// write first, the N+1 of deduplication. Saves and resets every `--batch-size`.
/// Hypothesis: one query per record.
package struct FindOrCreatePerRowStrategy: WriteStrategy {
    package init() {}
    package var name: String { "find-or-create-per-row" }
    package var summary: String { "find-or-create with one key fetch per record (the N+1 of deduplication)" }
    package var idiom: String { "find-or-create by fetching each record's key (no constraint needed)" }
    package var keyNeed: KeyNeed { .index }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try FindOrCreateImport(batchSize: job.batchSize(for: self), lookup: .perRecord).run(job, on: engine)
    }
}
