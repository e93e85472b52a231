import ObjectGraph
import Report

/// Prefetches the batch's categories with one `IN` query into a dictionary that survives
/// resets as object IDs.
///
/// Models seed 000's prefetch ("a single IN query … a local Swift Dictionary") done so that a
/// reset does not cost a refetch: IDs outlive the objects, and `object(with:)` turns a known ID
/// into a fault without SQL. Only names not seen before cost a query. Hypothesis: about one
/// query per batch (the save's uniqueness check), whatever the number of records.
package struct PrefetchStrategy: WriteStrategy {
    package init() {}
    package var name: String { "prefetch" }
    package var summary: String { "categories prefetched with one IN query per batch, kept as IDs across resets" }
    package var idiom: String { "prefetch into a dictionary, rebuilt after reset (seed 000)" }
    package var keyNeed: KeyNeed { .uniqueness }
    package var resolvesRelatedObjects: Bool { true }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ContextImport(batchSize: job.batchSize(for: self), resetsAfterSave: true, lookup: .keepIDs).run(
            job, on: engine)
    }
}
