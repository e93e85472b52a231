import ObjectGraph
import Workload

/// Find-or-create by key in one context, as the seeds' writers do: fetch the record's key
/// (`fetchLimit = 1`; the fetch sees the context's unsaved inserts too), create the object when
/// none is found, then set its values and its category.
struct FindOrCreate<Context: ObjectContext> {
    let mapper: RecordMapper
    let parents: ParentDirectory<Context>?
    let members: MemberDirectory<Context>?

    /// A writer for `context`, its categories kept as IDs across resets; `pool` is where the
    /// stream's generated binary values point.
    init(mapping: ImportModel, context: Context, job: StrategyJob) throws {
        mapper = try RecordMapper(
            model: mapping, context: context, pool: PayloadPool(for: mapping.shape, seed: job.workload.seed),
            job: job)
        parents = ParentDirectory(lookup: .keepIDs, mapper: mapper)
        members = try MemberDirectory(shape: mapping.shape, spec: job.workload, context: context)
    }

    func upsert(_ record: Record, in context: Context) throws {
        var request = FetchRequest(entityName: mapper.recordEntity.name, predicate: mapper.keyPredicate(record))
        request.fetchLimit = 1
        let object = try context.fetch(request).first ?? context.insert(mapper.recordEntity)
        mapper.apply(record, to: object)
        if let parents, let relationship = mapper.parentRelationship {
            try object.setObject(try parents.parent(for: record, in: context), at: relationship)
        }
        try members?.relate(record, to: object, in: context)
    }

    /// Ends a writer's batch: saves (timed), notes the records durable, resets the context and
    /// reports the records done.
    func finishBatch(
        _ records: [Record], in context: Context, clock: inout SaveClock,
        job: StrategyJob
    ) throws {
        try clock.save(context)
        job.committed(records)
        parents?.didSave()
        members?.didSave()
        context.reset()
        parents?.didReset()
        members?.didReset()
        job.progress.add(records.count)
    }
}
