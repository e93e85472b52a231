import ObjectGraph
import Report

/// Apple's "Implementing Find-or-Create Efficiently" (Core Data Programming Guide, "Efficiently
/// Importing Data"): per batch, the incoming keys sorted, one fetch `key IN %@` sorted by key,
/// both lists walked together; found objects updated, missing ones inserted. No uniqueness
/// constraint: the key is an index, what apps that deduplicate by fetching ship.
/// Hypothesis: one query per batch, whatever the number of existing objects.
package struct FindOrCreateStrategy: WriteStrategy {
    package init() {}
    package var name: String { "find-or-create" }
    package var summary: String {
        "per batch one key IN fetch sorted by key, walked with the sorted records: found updated, missing inserted"
    }
    package var idiom: String {
        "find-or-create by fetching, efficiently (Core Data Programming Guide): no constraint needed"
    }
    package var keyNeed: KeyNeed { .index }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try FindOrCreateImport(batchSize: job.batchSize(for: self), lookup: .batched).run(job, on: engine)
    }
}
