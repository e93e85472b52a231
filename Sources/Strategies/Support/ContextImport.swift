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
    var lookup: ParentLookup

    func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        let mapping = try job.importModel()
        let container = try job.makeContainer(mapping.model, as: engine)
        let screen = try Screen(job: job, container: container, mapping: mapping)
        let context = container.newBackgroundContext(name: "importer")
        // As the seed's import: constraint conflicts (repeated keys) merge, in-memory values win.
        context.mergePolicy = .mergeByPropertyObjectTrump
        var clock = SaveClock()
        try context.performAndWait {
            let stream = try job.makeStream(mapping.shape)
            let mapper = try RecordMapper(model: mapping, context: context, pool: stream.pool, job: job)
            let parents = ParentDirectory<Store.Context>(lookup: lookup, mapper: mapper)
            let members = try MemberDirectory(shape: mapping.shape, spec: job.workload, context: context)
            // Records are taken a save's worth at a time, so a record waits for the records it
            // is saved with and no more: saving after every record commits each as it arrives
            // (in an open-loop run its latency is one save, not a reset interval of arrivals).
            let saveEvery = min(self.saveEvery ?? batchSize, batchSize)
            var sinceReset = 0
            try stream.forEachBatch(of: saveEvery, progress: job.progress) { group in
                try parents?.prepare(for: group, in: context)
                try members?.prepare(for: group, in: context)
                for r in group {
                    let object = mapper.insert(r, into: context)
                    if let parents, let relationship = mapper.parentRelationship {
                        try object.setObject(try parents.parent(for: r, in: context), at: relationship)
                    }
                    try members?.relate(r, to: object, in: context)
                }
                try clock.save(context)
                job.committed(group)
                parents?.didSave()
                members?.didSave()
                sinceReset += group.count
                if resetsAfterSave && sinceReset >= batchSize {
                    context.reset()
                    parents?.didReset()
                    members?.didReset()
                    sinceReset = 0
                }
            }
        }
        var counters = clock.counters(contexts: [context], stores: [container])
        screen?.report(into: &counters)
        return counters
    }
}
