import ObjectGraph
import Report
import Workload

/// The batch-insert import both batch strategies share, per `--batch-size` records:
///
/// 1. find or create the chunk's categories in a context (batch inserts cannot relate objects,
///    so the categories must exist as objects to be related later) and save them;
/// 2. one `BatchInsertRequest` for the chunk's records (no managed objects, no notification);
/// 3. the relationship fix-up Core Data users must do afterwards: fetch the rows the insert
///    reports (its result as object IDs; `self IN %@`, one query), point each at its category,
///    save (an UPDATE per row), reset. Repeated keys the insert ignored report no ID.
/// 4. with a screen, the inserted IDs merged into it (`mergeChanges(fromRemoteContextSave:into:)`).
///
/// The request asks for object IDs where the fix-up or the screen needs them, else for what
/// `--result` says (`BatchResultNeed`).
///
/// The fix-up is part of the measured time: it is the price of the batch insert's speed.
struct BatchImport {
    /// A batch insert writes past every context, so no screen sees its rows until told: what a
    /// Core Data team does about it (`NSPersistentHistoryChangeRequest`, or the returned object
    /// IDs merged with `mergeChanges(fromRemoteContextSave:into:)`).
    static let screenAdvice =
        "a batch insert bypasses every context: merge its rows into the screen through persistent "
        + "history (--history on; see history-consumer) or merge the object IDs it returns into the view context"
    var batchSize: Int
    var policy: MergePolicy
    /// Whether a history consumer watches the import from another queue (`HistoryConsumer`,
    /// on the import's container before the first chunk; told after each chunk commits).
    var consumesHistory = false

    func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        let mapping = try job.importModel()
        let container = try job.makeContainer(mapping.model, as: engine)
        let screen = try Screen(job: job, container: container, mapping: mapping)
        let watcher: (any ImportWatcher)? =
            consumesHistory ? try HistoryConsumer(container: container, mapping: mapping) : nil
        defer { watcher?.stop() }   // its thread is joined even when the import throws
        let context = container.newBackgroundContext(name: "batch-importer")
        context.mergePolicy = policy
        context.transactionAuthor = "importer"
        var clock = SaveClock()
        try context.performAndWait {
            let stream = try job.makeStream(mapping.shape)
            let mapper = try RecordMapper(model: mapping, context: context, pool: stream.pool, job: job)
            let parents = ParentDirectory<Store.Context>(lookup: .keepIDs, mapper: mapper)
            let members = try MemberDirectory(shape: mapping.shape, spec: job.workload, context: context)
            let resultType = job.batchResultType(fixUpNeedsIDs: mapper.parentRelationship != nil || members != nil)
            try stream.forEachBatch(of: batchSize, progress: job.progress) { chunk in
                let inserted = try importChunk(
                    chunk, context: context, mapper: mapper, parents: parents, members: members,
                    resultType: resultType, clock: &clock)
                // The rows bypassed every context: the screen learns of them by their IDs.
                screen?.merge(.init(inserted: inserted))
                job.committed(chunk)
                watcher?.chunkCommitted()
            }
        }
        var counters = clock.counters(contexts: [context], stores: [container])
        screen?.report(into: &counters)
        try watcher?.finish(into: &counters)
        return counters
    }

    /// Imports one chunk; returns the IDs of the rows inserted (empty unless `resultType` asks for them).
    private func importChunk<Context: ObjectContext>(
        _ chunk: [Record], context: Context, mapper: RecordMapper, parents: ParentDirectory<Context>?,
        members: MemberDirectory<Context>?, resultType: BatchResultType, clock: inout SaveClock
    ) throws -> [ManagedObjectID] {
        // 1. Categories, as objects with permanent IDs.
        var parentOf: [Value: (index: Int, object: Context.Object)] = [:]
        if let parents {
            try parents.prepare(for: chunk, in: context)
            for r in chunk {
                let key = mapper.keyLookup(of: r)
                // A batch insert keeps a key's first row; an upsert's later row overwrites it,
                // and the row's related object is the one that row names (looked up again only
                // when it names another one than the earlier copy).
                if let kept = parentOf[key], policy == .error || kept.index == r.parentIndex { continue }
                parentOf[key] = (r.parentIndex, try parents.parent(for: r, in: context))
            }
            try clock.save(context)
            parents.didSave()
        }

        // 2. The rows, straight into the store.
        var next = 0
        let request = BatchInsertRequest(entityName: mapper.recordEntity.name) { row in
            guard next < chunk.count else { return true }
            mapper.fill(&row, from: chunk[next])
            next += 1
            return false
        }
        request.resultType = resultType
        let inserted = try context.execute(request).objectIDs

        // 3. Relationships, through the context: the to-one, and the many-to-many's pairs (a
        // batch insert sets neither).
        if mapper.parentRelationship != nil || members != nil {
            try fixUp(inserted, chunk, parentOf, context: context, mapper: mapper, members: members)
            try clock.save(context)
            members?.didSave()
        }
        context.reset()
        parents?.didReset()
        members?.didReset()
        return inserted
    }

    /// Points every inserted (or upserted) row's object at its related object and members.
    private func fixUp<Context: ObjectContext>(
        _ inserted: [ManagedObjectID], _ chunk: [Record], _ parentOf: [Value: (index: Int, object: Context.Object)],
        context: Context, mapper: RecordMapper, members: MemberDirectory<Context>?
    ) throws {
        guard !inserted.isEmpty else { return }
        var recordOf: [Value: Record] = [:]
        if members != nil {
            try members?.prepare(for: chunk, in: context)
            // The copy the store kept: the first under INSERT OR IGNORE, the last under an upsert.
            for r in chunk where policy != .error || recordOf[mapper.keyLookup(of: r)] == nil {
                recordOf[mapper.keyLookup(of: r)] = r
            }
        }
        let fetch = FetchRequest(entityName: mapper.recordEntity.name, predicate: .in("self", inserted))
        for object in try context.fetch(fetch) {
            let key = mapper.keyLookup(of: object)
            if let relationship = mapper.parentRelationship, let parent = parentOf[key]?.object {
                try object.setObject(parent, at: relationship)
            }
            if let members, let r = recordOf[key] { try members.relate(r, to: object, in: context) }
        }
    }
}
