import ObjectGraph
import Workload

/// Finds or creates the related object (a category, an album) a record names by its key, the way
/// the strategy's idiom does it. Keys are compared as bytes (`InlineText`), so looking one up
/// allocates nothing.
final class ParentDirectory<Context: ObjectContext> {
    typealias Lookup = ParentLookup

    let lookup: Lookup
    let mapper: RecordMapper
    private var objects: [InlineText: Context.Object] = [:]
    private var ids: [InlineText: ManagedObjectID] = [:]
    /// Every key seen (with its values), for the refetch after a reset.
    private var keys: [InlineText: [Value]] = [:]
    private let parentEntity: Entity
    /// The attributes of the related object's key (one, or a constraint of several).
    private let keyAttributes: [String]
    private let keyIndexes: [Int]

    /// A directory for `mapper`'s related entity; nil when records relate to nothing.
    init?(lookup: Lookup, mapper: RecordMapper) {
        guard let parentEntity = mapper.parentEntity, !mapper.parentKeyIndexes.isEmpty else { return nil }
        self.lookup = lookup
        self.mapper = mapper
        self.parentEntity = parentEntity
        self.keyAttributes = mapper.parentKeyAttributes
        self.keyIndexes = mapper.parentKeyIndexes
    }

    /// Prepares for a batch of records (before any of them is resolved).
    func prepare(for batch: [Record], in context: Context) throws {
        switch lookup {
        case .fetchPerRecord:
            objects.removeAll(keepingCapacity: true)
        case .refetchAfterReset:
            if objects.isEmpty, !keys.isEmpty { try fetch(Array(keys.values), into: context) }
        case .keepIDs:
            var unknown: [InlineText] = []
            var seen = Set<InlineText>()
            var values: [[Value]] = []
            for r in batch {
                let name = mapper.parentName(of: r)
                guard objects[name] == nil, seen.insert(name).inserted else { continue }
                if let id = ids[name] {
                    objects[name] = context.object(with: id)
                } else {
                    unknown.append(name)
                    values.append(mapper.parentKeyValues(of: r))
                }
            }
            if !unknown.isEmpty { try fetch(values, into: context) }
        }
    }

    /// The parent object for `record` in `context`, fetched or created as the lookup says.
    func parent(for record: Record, in context: Context) throws -> Context.Object {
        if lookup == .fetchPerRecord {
            let values = mapper.parentKeyValues(of: record)
            let parts = keyAttributes.indices.map { Predicate.equal(keyAttributes[$0], values[$0]) }
            var request = FetchRequest(
                entityName: parentEntity.name, predicate: parts.count == 1 ? parts[0] : .and(parts))
            request.fetchLimit = 1
            if let found = try context.fetch(request).first { return found }
            return create(record, in: context)
        }
        if let object = objects[mapper.parentName(of: record)] { return object }
        return create(record, in: context)
    }

    /// After a save: remember permanent IDs. After a reset: forget the objects.
    func didSave() {
        for (name, object) in objects where !object.objectID.isTemporaryID { ids[name] = object.objectID }
    }

    func didReset() { objects.removeAll(keepingCapacity: true) }

    private func create(_ record: Record, in context: Context) -> Context.Object {
        let object = context.insert(parentEntity)
        let values = mapper.parentKeyValues(of: record)
        for (i, index) in keyIndexes.enumerated() { object.setValue(values[i], at: index) }
        mapper.applyParentValues(record, to: object)
        let name = mapper.parentName(of: record)
        objects[name] = object
        keys[name] = values
        return object
    }

    /// Fetches the related objects of `wanted` keys: `key IN (…)`, or for a key of several
    /// attributes an IN per attribute (a superset, as an app would write it; the objects are
    /// then told apart by their whole key).
    private func fetch(_ wanted: [[Value]], into context: Context) throws {
        let several = keyAttributes.count > 1
        let parts = keyAttributes.indices.map { i in
            Predicate.in(keyAttributes[i], several ? Self.distinct(wanted.map { $0[i] }) : wanted.map { $0[i] })
        }
        let request = FetchRequest(entityName: parentEntity.name, predicate: parts.count == 1 ? parts[0] : .and(parts))
        for object in try context.fetch(request) {
            guard let name = mapper.parentName(of: object) else { continue }
            objects[name] = object
            ids[name] = object.objectID
            keys[name] = keyIndexes.map { object.value(at: $0) }
        }
    }

    /// `values` without repeats, in order (a key of one attribute is already distinct).
    private static func distinct(_ values: [Value]) -> [Value] {
        var seen = Set<Value>()
        return values.filter { seen.insert($0).inserted }
    }
}

/// How a `ParentDirectory` finds the related objects, as the strategy's idiom does.
enum ParentLookup {
    /// The seed's import: one `name IN (…)` fetch of every name seen so far, again after each
    /// reset (objects do not survive a reset).
    case refetchAfterReset
    /// Object IDs survive a reset: after one, `object(with:)` gives a fault for a known name
    /// (no SQL); only names never seen cost an `IN` query, once per batch.
    case keepIDs
    /// One fetch by name per record (the N+1 pattern).
    case fetchPerRecord
}
