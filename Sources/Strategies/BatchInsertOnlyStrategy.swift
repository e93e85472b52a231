import ObjectGraph
import Report
import Workload

/// The batch insert alone: no relationship fix-up, no deduplication of its own.
///
/// What the claim "batch inserts run close to raw SQLite" measures: `BatchInsertRequest`s of
/// `--batch-size` records on the model's store, as `raw-sqlite` writes it, so `vs_limit` is the
/// engine's own cost on that path. It leaves what a batch insert can leave: repeated keys become
/// rows (unless the model's constraint ignores them), and no record is related to its category
/// (the verifier counts every row as a bad link). Compare with `batch`, which pays for both.
package struct BatchInsertOnlyStrategy: WriteStrategy {
    package init() {}
    package var screenAdvice: String? { BatchImport.screenAdvice }
    package var name: String { "batch-insert-only" }
    package var summary: String {
        "BatchInsertRequests alone: no dedup beyond the store's constraint, no relationships"
    }
    package var idiom: String { "NSBatchInsertRequest as benchmarks show it (nothing related, nothing deduplicated)" }
    package var keyNeed: KeyNeed { .nothing }
    package var issuesBatchRequests: Bool { true }
    /// No deduplication: every copy is a row of its own.
    package var repeatedKey: RepeatedKey { .any }
    /// Neither deduplicated nor related: what the bare batch insert leaves.
    package var expectations: StoreExpectations { StoreExpectations(uniqueKeys: false, linked: false) }
    package var caveat: String {
        "the batch insert alone: nothing related, nothing deduplicated but what the store's constraint ignores (its "
            + "duplicates and bad links are by design), so it may beat the limit"
    }
    package var defaultBatchSize: Int? { 5_000 }
    package func fix(for requirement: Requirement) -> String? {
        // One fix closes both gaps: said once when both are missing.
        requirement == .screen
            ? screenAdvice
            : "batch: the batch insert on a uniqueness constraint (INSERT OR IGNORE) followed by the relationship fix-up it "
                + "needs, or batch-upsert (ON CONFLICT DO UPDATE)"
    }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        let mapping = try job.importModel()
        let container = try job.makeContainer(mapping.model, as: engine)
        let screen = try Screen(job: job, container: container, mapping: mapping)
        let context = container.newBackgroundContext(name: "batch-importer")
        let batchSize = job.batchSize(for: self)
        try context.performAndWait {
            let stream = try job.makeStream(mapping.shape)
            let mapper = try RecordMapper(model: mapping, context: context, pool: stream.pool, job: job)
            var record = Record()
            var more = true
            var arrivals: [UInt64] = []
            while more {
                var inChunk = 0
                var failure: Error?
                let request = BatchInsertRequest(entityName: mapper.recordEntity.name) { row in
                    do {
                        guard inChunk < batchSize, try stream.next(into: &record) else { return true }
                    } catch {
                        failure = error
                        return true
                    }
                    mapper.fill(&row, from: record)
                    if job.rate != nil { arrivals.append(record.arrival) }
                    inChunk += 1
                    return false
                }
                request.resultType = job.batchResultType()
                let result = try context.execute(request)
                if let failure { throw failure }
                screen?.merge(.init(inserted: result.objectIDs))
                job.latency.committed(arrivals)
                arrivals.removeAll(keepingCapacity: true)
                job.progress.add(inChunk)
                more = inChunk == batchSize
            }
        }
        var counters = StrategyCounters()
        screen?.report(into: &counters)
        return counters
    }
}
