import ObjectGraph
import Report

/// Apple's efficient find-or-create run by several writers at once, each in its own context
/// (`--writers`), with no uniqueness constraint: two imports running together (a sync and a
/// refresh, an app and its extension). Each finds its batch's keys with one `IN` fetch and
/// saves; a key two writers fetch before either saves is inserted by both.
/// Hypothesis: duplicates > 0 whenever keys repeat across writers; the batched fetch does not
/// close the race, only a constraint (or one writer) does.
package struct FindOrCreateWritersStrategy: WriteStrategy {
    package init() {}
    package var name: String { "find-or-create-writers" }
    package var summary: String {
        "the efficient find-or-create in a context per producer, each saving: duplicates race in"
    }
    package var idiom: String { "find-or-create by fetching, run by concurrent importers (no constraint)" }
    package var keyNeed: KeyNeed { .index }
    /// The race is what it measures.
    package var expectations: StoreExpectations { StoreExpectations(uniqueKeys: false) }
    package var caveat: String { "a demonstrated bug: its duplicates are what it measures" }
    package var usesWriters: Bool { true }
    package func fix(for requirement: Requirement) -> String? {
        requirement == .unique ? demonstratedBug?.fix : StoreAdvice.fix(for: requirement)
    }
    package var demonstratedBug: DemonstratedBug? {
        DemonstratedBug(
            bug: "find-or-create by fetching in contexts that save at once: a key two writers fetch before either "
                + "saves is inserted by both (no constraint stops it)",
            fix: "one importer (find-or-create in one context), or a uniqueness constraint on the key with a merge "
                + "policy (many-writers-constrained; --add-constraint measures it on your model)")
    }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try FindOrCreateWriters(batchSize: job.batchSize(for: self)).run(job, on: engine)
    }
}
