import ObjectGraph
import Report
import Workload

/// The background-context import every context strategy shares: managed objects per record,
/// a save every `batchSize`, and (or not) a reset after each save. What differs between the
/// strategies is the batch size, the reset, and how the related object is found.
struct ContextImport {
    var batchSize: Int
    var resetsAfterSave: Bool
    /// Records between saves (1 saves after every record); resets still follow `batchSize`.
    var saveEvery: Int? = nil
    var lookup: ParentDirectory.Lookup
    var keyConstraint: KeyConstraint = .unique

    func run(_ job: StrategyJob) throws -> StrategyCounters {
        let mapping = DatasetMapping(dataset: job.workload.dataset, key: keyConstraint)
        let container = try job.makeContainer(mapping.model)
        let screen = try Screen(job: job, container: container, mapping: mapping)
        let context = container.newBackgroundContext(name: "importer")
        // As the seed's import: constraint conflicts (repeated keys) merge, in-memory values win.
        context.mergePolicy = .mergeByPropertyObjectTrump
        var clock = SaveClock()
        try context.performAndWait {
            let mapper = try RecordMapper(mapping: mapping, context: context, payloadBytes: job.workload.payloadBytes,
                                          seed: job.workload.seed)
            let parents = ParentDirectory(lookup: lookup, mapper: mapper)
            let saveEvery = self.saveEvery ?? batchSize
            try job.makeStream().forEachBatch(of: batchSize, progress: job.progress) { batch in
                try parents.prepare(for: batch, in: context)
                for (i, r) in batch.enumerated() {
                    let object = mapper.insert(r, into: context)
                    try object.setObject(try parents.parent(for: r, in: context), at: mapper.parentRelationship)
                    if (i + 1) % saveEvery == 0 && i + 1 < batch.count {
                        try clock.save(context)
                        parents.didSave()
                        job.committed(batch[(i + 1 - saveEvery)...i])
                    }
                }
                try clock.save(context)
                job.committed(batch[((batch.count - 1) / saveEvery * saveEvery)...])
                parents.didSave()
                if resetsAfterSave {
                    context.reset()
                    parents.didReset()
                }
            }
        }
        var counters = clock.counters(contexts: [context], coordinators: [container.persistentStoreCoordinator])
        screen?.report(into: &counters)
        return counters
    }
}
