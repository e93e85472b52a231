import ObjectGraph
import Report

/// Find-or-create against a key cache: every stored key and its object ID fetched once up front
/// (a dictionary result of the key and the evaluated object) and kept across resets; a found
/// object is a fault by its ID, fired when its values are set. Hypothesis: one query up front,
/// then one per found object (its fault), none for new ones; memory grows with the stored keys.
package struct FindOrCreateCachedStrategy: WriteStrategy {
    package init() {}
    package var name: String { "find-or-create-cached" }
    package var summary: String {
        "every stored key and object ID fetched once into a dictionary kept across resets; found objects faulted by ID"
    }
    package var idiom: String { "find-or-create through a key cache fetched up front (no constraint needed)" }
    package var keyNeed: KeyNeed { .key }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try FindOrCreateImport(batchSize: job.batchSize(for: self), lookup: .cached).run(job, on: engine)
    }
}
