import ObjectGraph
import Report

/// Finds each record's category with a fetch of its own: the N+1 pattern.
///
/// Models seed 003's find-or-create (`fetchLimit = 1`, `name == %@`) applied to the related
/// object, the loop the seeds warn against ("avoid one fetch per row"). Saves and resets every
/// `--batch-size` like `context-reset`. Hypothesis: one query per record.
package struct NPlusOneStrategy: WriteStrategy {
    package init() {}
    package var name: String { "n-plus-one" }
    package var summary: String { "as context-reset, but fetches the category by name for every record" }
    package var idiom: String { "find-or-create of the related object with one fetch per row (seed 003)" }
    package var keyNeed: KeyNeed { .uniqueness }
    package var resolvesRelatedObjects: Bool { true }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ContextImport(batchSize: job.batchSize(for: self), resetsAfterSave: true, lookup: .fetchPerRecord).run(
            job, on: engine)
    }
}
