import ObjectGraph
import Report

/// The same import as `context-reset`, without the reset: every object stays registered.
///
/// Models the import that forgets `reset()` (seed 000 explains why it is needed). Each category
/// keeps every expense in its inverse to-many, so nothing can be freed. Hypothesis: memory grows
/// with rows.
public struct ContextNoResetStrategy: WriteStrategy {
    public init() {}
    public var name: String { "context-noreset" }
    public var summary: String { "as context-reset but never resets: every object stays registered" }
    public var idiom: String { "background context import that saves every N but never resets" }
    public var keyConstraint: KeyConstraint { .unique }

    public func run(_ job: StrategyJob) throws -> StrategyCounters {
        try ContextImport(batchSize: job.batchSize(for: self), resetsAfterSave: false, lookup: .refetchAfterReset).run(job)
    }
}
