import ObjectGraph
import Report
import Workload

/// The batch insert alone: no uniqueness constraint, no relationship fix-up.
///
/// What the claim "batch inserts run close to raw SQLite" measures: `BatchInsertRequest`s of
/// `--batch-size` records on the plain layout `raw-sqlite` writes, so `vs_limit` is the engine's
/// own cost on that path. It leaves what a batch insert can leave: repeated keys become rows,
/// and no record is related to its category (the verifier counts every row as a bad link).
/// Compare with `batch`, which pays for both.
public struct BatchInsertOnlyStrategy: WriteStrategy {
    public init() {}
    public var name: String { "batch-insert-only" }
    public var summary: String { "BatchInsertRequests alone on raw-sqlite's layout: no dedup, no relationships" }
    public var idiom: String { "NSBatchInsertRequest as benchmarks show it (nothing related, nothing deduplicated)" }
    public var keyConstraint: KeyConstraint { .none }
    public var defaultBatchSize: Int? { 5_000 }

    public func run(_ job: StrategyJob) throws -> StrategyCounters {
        let mapping = DatasetMapping(dataset: job.workload.dataset, key: keyConstraint)
        let container = try job.makeContainer(mapping.model)
        let context = container.newBackgroundContext(name: "batch-importer")
        let batchSize = job.batchSize(for: self)
        try context.performAndWait {
            let mapper = try RecordMapper(mapping: mapping, context: context, payloadBytes: job.workload.payloadBytes,
                                          seed: job.workload.seed)
            var source = job.makeSource()
            var record = Record()
            var more = true
            while more {
                var inChunk = 0
                let request = BatchInsertRequest(entityName: mapper.recordEntity.name) { row in
                    guard inChunk < batchSize, source.next(into: &record) else {
                        more = more && inChunk == batchSize
                        return true
                    }
                    mapper.fill(&row, from: record)
                    inChunk += 1
                    return false
                }
                _ = try context.execute(request)
                job.progress.add(inChunk)
                if inChunk < batchSize { more = false }
            }
        }
        return StrategyCounters()
    }
}
