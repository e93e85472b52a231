import ObjectGraph
import Report

/// One context per producer, each saving on its own: the buggy photo downloader.
///
/// Models seed 001's original code ("one context per download, so duplicates"): every producer
/// owns a context, finds-or-creates by key (a fetch index, no constraint) and saves every
/// `--batch-size`. "Check if it exists, then insert" cannot work across contexts saving at the
/// same time. With `--coordinators per-writer` each context has its own coordinator on the file,
/// so SQLite's lock is contended. Hypothesis: duplicates > 0 on repeated keys; lock contention.
package struct ManyWritersStrategy: WriteStrategy {
    package init() {}
    package var name: String { "many-writers" }
    package var summary: String { "one context per producer, each find-or-creates and saves: duplicates race in" }
    package var idiom: String { "the buggy downloader: one context per producer, each saving (seed 001)" }
    package var keyNeed: KeyNeed { .index }
    /// The buggy idiom: its duplicates are what it measures.
    package var expectations: StoreExpectations { StoreExpectations(uniqueKeys: false) }
    package var caveat: String { "the buggy idiom: its duplicates are what it measures" }
    package var usesWriters: Bool { true }
    /// Its duplicates are closed by the bug's own fix, said once.
    package func fix(for requirement: Requirement) -> String? {
        requirement == .unique ? demonstratedBug?.fix : StoreAdvice.fix(for: requirement)
    }
    package var demonstratedBug: DemonstratedBug? {
        DemonstratedBug(
            bug: "check-then-insert in contexts that save at once lets duplicates race in (seed 001)",
            fix: "one-writer (the producers feed ONE writer context), or many-writers-constrained (a uniqueness "
                + "constraint with a merge policy)")
    }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ManyWriters().run(job, on: engine, batchSize: job.batchSize(for: self))
    }
}
