import ObjectGraph
import Report

/// Saves after every inserted record: "saving too frequently".
///
/// Every record pays a uniqueness check, a key-reservation transaction and a write transaction
/// of its own. Hypothesis: one transaction per row makes it the slowest. `--batch-size` does
/// not apply.
public struct ContextSavePerRowStrategy: WriteStrategy {
    public init() {}
    public var name: String { "context-save-per-row" }
    public var summary: String { "managed object per record, save() after every record" }
    public var idiom: String { "saving too frequently: one save (and transaction) per object" }
    public var keyConstraint: KeyConstraint { .unique }
    public var defaultBatchSize: Int? { nil }

    public func run(_ job: StrategyJob) throws -> StrategyCounters {
        try ContextImport(batchSize: 1, resetsAfterSave: false, lookup: .keepIDs).run(job)
    }
}
