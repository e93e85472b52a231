import ObjectGraph
import Report
import Workload

/// The import of an app that deduplicates by fetching (no uniqueness constraint): each record's
/// object found by its key or created, its values set, its related object found as the idioms do,
/// a save and a `reset()` every `--batch-size` records. What differs is how the objects are found:
///
/// - `batched`: Apple's "Implementing Find-or-Create Efficiently" (Core Data Programming Guide,
///   "Efficiently Importing Data"): the batch's keys sorted, one fetch `key IN %@` sorted by key,
///   both lists walked together; found objects are updated, the others inserted.
/// - `perRecord`: one fetch per record (`key == %@`, `fetchLimit = 1`): the N+1 of deduplication.
/// - `cached`: every stored key and its object ID fetched once up front (a dictionary result of
///   the key and the evaluated object), kept in a dictionary across resets; a found object is a
///   fault by its ID, fired when its values are set.
///
/// A key repeated inside a batch finds the object its first copy made (the walk meets it next to
/// it; a fetch sees the context's unsaved inserts; the cache remembers the batch's new objects),
/// so the last copy's values win: `RepeatedKey.last`.
struct FindOrCreateImport {
    enum Lookup { case batched, perRecord, cached }
    var batchSize: Int
    var lookup: Lookup

    func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        let mapping = try job.importModel()
        let container = try job.makeContainer(mapping.model, as: engine)
        let screen = try Screen(job: job, container: container, mapping: mapping)
        let context = container.newBackgroundContext(name: "importer")
        var clock = SaveClock()
        try context.performAndWait {
            let stream = try job.makeStream(mapping.shape)
            var importer = try Importer<Store.Context>(
                lookup: lookup, mapping: mapping, context: context, pool: stream.pool, job: job)
            try stream.forEachBatch(of: batchSize, progress: job.progress) { group in
                try importer.find(group)
                try importer.save(group, clock: &clock)
            }
        }
        var counters = clock.counters(contexts: [context], stores: [container])
        screen?.report(into: &counters)
        return counters
    }

    /// One context's find-or-create, a batch at a time: `find` gives each record its object
    /// (found or inserted) and its values and relationships; `save` saves and resets. Apart so
    /// that concurrent writers can all have found before any saves (`FindOrCreateWriters`).
    struct Importer<Context: ObjectContext> {
        let lookup: Lookup
        let context: Context
        let job: StrategyJob
        let mapper: RecordMapper
        let parents: ParentDirectory<Context>?
        let members: MemberDirectory<Context>?
        /// Every stored key's object ID (`cached`), kept across resets.
        private var cache: [Value: ManagedObjectID] = [:]
        private var objects: [Context.Object] = []

        init(lookup: Lookup, mapping: ImportModel, context: Context, pool: PayloadPool?, job: StrategyJob)
            throws
        {
            self.lookup = lookup
            self.context = context
            self.job = job
            mapper = try RecordMapper(model: mapping, context: context, pool: pool, job: job)
            parents = ParentDirectory<Context>(
                lookup: lookup == .perRecord ? .fetchPerRecord : .keepIDs, mapper: mapper)
            members = try MemberDirectory(shape: mapping.shape, spec: job.workload, context: context)
            if lookup == .cached { cache = try FindOrCreateImport.storedKeys(mapper, context) }
        }

        /// Finds or creates each record's object and sets it from the record.
        mutating func find(_ group: [Record]) throws {
            try parents?.prepare(for: group, in: context)
            try members?.prepare(for: group, in: context)
            switch lookup {
            case .batched: objects = try FindOrCreateImport.findBatched(group, mapper, context)
            case .cached: objects = FindOrCreateImport.findCached(group, mapper, context, cache)
            case .perRecord: objects = []
            }
            for (i, r) in group.enumerated() {
                // Per record, each object gets its values before the next fetch, which then
                // finds it (a fetch sees the context's unsaved inserts by their values).
                let object = lookup == .perRecord ? try FindOrCreateImport.findOne(r, mapper, context) : objects[i]
                mapper.apply(r, to: object)
                if let parents, let relationship = mapper.parentRelationship {
                    try object.setObject(try parents.parent(for: r, in: context), at: relationship)
                }
                try members?.relate(r, to: object, in: context)
                if lookup == .perRecord { objects.append(object) }
            }
        }

        /// Saves what `find` changed and resets the context, the cache learning the new IDs.
        mutating func save(_ group: [Record], clock: inout SaveClock) throws {
            try clock.save(context)
            job.committed(group)
            if lookup == .cached { for object in objects { cache[mapper.keyLookup(of: object)] = object.objectID } }
            objects = []
            parents?.didSave()
            members?.didSave()
            context.reset()
            parents?.didReset()
            members?.didReset()
        }
    }

    // MARK: Finding

    /// The guide's walk: keys sorted, one `IN` fetch sorted the same way, the two lists walked
    /// together. A key of several attributes has no one order: one fetch with an `IN` per
    /// attribute (a superset), matched by the whole key.
    static func findBatched<Context: ObjectContext>(_ group: [Record], _ mapper: RecordMapper, _ context: Context)
        throws -> [Context.Object]
    {
        let keys = group.map { mapper.keyLookup(of: $0) }
        guard mapper.key.count == 1 else { return try findByKeys(group, keys, mapper, context) }
        let order = group.indices.sorted { keys[$0].sortsBefore(keys[$1]) || (keys[$0] == keys[$1] && $0 < $1) }
        var distinct: [Value] = []
        for i in order where distinct.last != keys[i] { distinct.append(keys[i]) }
        var request = FetchRequest(
            entityName: mapper.recordEntity.name, predicate: .in(mapper.keyAttributes[0], distinct))
        request.sortDescriptors = [SortDescriptor(key: mapper.keyAttributes[0])]
        let found = try context.fetch(request)
        var objects = [Context.Object?](repeating: nil, count: group.count)
        var j = 0
        var last: (key: Value, object: Context.Object)?
        for i in order {
            while j < found.count, mapper.keyLookup(of: found[j]).sortsBefore(keys[i]) { j += 1 }
            if let last, last.key == keys[i] {
                objects[i] = last.object
            } else {
                let object =
                    j < found.count && mapper.keyLookup(of: found[j]) == keys[i]
                    ? found[j] : context.insert(mapper.recordEntity)
                objects[i] = object
                last = (keys[i], object)
            }
        }
        return objects.map { $0! }
    }

    private static func findByKeys<Context: ObjectContext>(
        _ group: [Record], _ keys: [Value], _ mapper: RecordMapper,
        _ context: Context
    ) throws -> [Context.Object] {
        let parts = mapper.keyAttributes.indices.map { a in
            Predicate.in(mapper.keyAttributes[a], Array(Set(group.map { mapper.value(mapper.shape.key[a], of: $0) })))
        }
        var byKey: [Value: Context.Object] = [:]
        for object in try context.fetch(FetchRequest(entityName: mapper.recordEntity.name, predicate: .and(parts))) {
            byKey[mapper.keyLookup(of: object)] = object
        }
        return keys.map { key in
            if let object = byKey[key] { return object }
            let object = context.insert(mapper.recordEntity)
            byKey[key] = object
            return object
        }
    }

    /// One fetch per record; it sees the context's unsaved inserts, so a repeat finds its first copy.
    static func findOne<Context: ObjectContext>(_ r: Record, _ mapper: RecordMapper, _ context: Context) throws
        -> Context.Object
    {
        var request = FetchRequest(entityName: mapper.recordEntity.name, predicate: mapper.keyPredicate(r))
        request.fetchLimit = 1
        return try context.fetch(request).first ?? context.insert(mapper.recordEntity)
    }

    /// Every stored key and its object ID, one dictionary fetch.
    static func storedKeys(_ mapper: RecordMapper, _ context: some ObjectContext) throws -> [Value: ManagedObjectID] {
        var request = FetchRequest(entityName: mapper.recordEntity.name)
        request.propertiesToFetch = mapper.keyAttributes
        var cache: [Value: ManagedObjectID] = [:]
        for row in try context.fetchObjectIDsAndValues(request) {
            cache[
                row.values.count == 1
                    ? row.values[0] : .string(row.values.map(\.description).joined(separator: "\u{1F}"))] = row.id
        }
        return cache
    }

    /// Found by the cache (a fault by its ID), by the batch's own new objects, or inserted.
    static func findCached<Context: ObjectContext>(
        _ group: [Record], _ mapper: RecordMapper, _ context: Context,
        _ cache: [Value: ManagedObjectID]
    ) -> [Context.Object] {
        var batch: [Value: Context.Object] = [:]
        return group.map { r in
            let key = mapper.keyLookup(of: r)
            if let object = batch[key] { return object }
            let object = cache[key].map { context.object(with: $0) } ?? context.insert(mapper.recordEntity)
            batch[key] = object
            return object
        }
    }
}

extension Value {
    /// The order SQLite's `ORDER BY` gives a column of one type (BINARY collation: texts and
    /// bytes by their bytes): the guide's walk needs the keys in the fetch's order.
    func sortsBefore(_ other: Value) -> Bool {
        switch (self, other) {
        case (.integer(let a), .integer(let b)): return a < b
        case (.double(let a), .double(let b)), (.date(let a), .date(let b)): return a < b
        case (.string(let a), .string(let b)): return a.utf8.lexicographicallyPrecedes(b.utf8)
        case (.data(let a), .data(let b)): return a.lexicographicallyPrecedes(b)
        case (.bool(let a), .bool(let b)): return !a && b
        default: return false
        }
    }
}
