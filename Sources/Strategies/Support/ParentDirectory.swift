import ObjectGraph
import Workload

/// Finds or creates the parent (category, album) a record names, the way the strategy's idiom
/// does it. Names are compared as bytes (`InlineText`), so looking one up allocates nothing.
final class ParentDirectory {
    enum Lookup {
        /// The seed's import: one `name IN (…)` fetch of every name seen so far, again after each
        /// reset (objects do not survive a reset).
        case refetchAfterReset
        /// Object IDs survive a reset: after one, `object(with:)` gives a fault for a known name
        /// (no SQL); only names never seen cost an `IN` query, once per batch.
        case keepIDs
        /// One fetch by name per record (the N+1 pattern).
        case fetchPerRecord
    }

    let lookup: Lookup
    let mapper: RecordMapper
    private var objects: [InlineText: ManagedObject] = [:]
    private var ids: [InlineText: ManagedObjectID] = [:]
    /// Every name seen, for the refetch after a reset.
    private var names = Set<InlineText>()

    init(lookup: Lookup, mapper: RecordMapper) {
        self.lookup = lookup
        self.mapper = mapper
    }

    /// Prepares for a batch of records (before any of them is resolved).
    func prepare(for batch: [Record], in context: ManagedObjectContext) throws {
        switch lookup {
        case .fetchPerRecord:
            objects.removeAll(keepingCapacity: true)
        case .refetchAfterReset:
            if objects.isEmpty, !names.isEmpty { try fetch(Array(names), into: context) }
        case .keepIDs:
            var unknown: [InlineText] = []
            var seen = Set<InlineText>()
            for r in batch where objects[r.parentName] == nil && seen.insert(r.parentName).inserted {
                if let id = ids[r.parentName] { objects[r.parentName] = context.object(with: id) } else { unknown.append(r.parentName) }
            }
            if !unknown.isEmpty { try fetch(unknown, into: context) }
        }
    }

    /// The parent object for `record` in `context`, fetched or created as the lookup says.
    func parent(for record: Record, in context: ManagedObjectContext) throws -> ManagedObject {
        if lookup == .fetchPerRecord {
            var request = FetchRequest(entityName: mapper.parentEntity.name, predicate: .equal("name", record.parentName.string))
            request.fetchLimit = 1
            if let found = try context.fetch(request).first { return found }
            return create(record.parentName, in: context)
        }
        if let object = objects[record.parentName] { return object }
        return create(record.parentName, in: context)
    }

    /// After a save: remember permanent IDs. After a reset: forget the objects.
    func didSave() {
        for (name, object) in objects where !object.objectID.isTemporaryID { ids[name] = object.objectID }
    }

    func didReset() { objects.removeAll(keepingCapacity: true) }

    private func create(_ name: InlineText, in context: ManagedObjectContext) -> ManagedObject {
        let object = context.insert(mapper.parentEntity)
        object.setValue(.string(name.string), at: mapper.parentName)
        objects[name] = object
        names.insert(name)
        return object
    }

    private func fetch(_ wanted: [InlineText], into context: ManagedObjectContext) throws {
        let request = FetchRequest(entityName: mapper.parentEntity.name, predicate: .in("name", wanted.map(\.string)))
        for object in try context.fetch(request) {
            guard case .string(let s) = object.value(at: mapper.parentName), let name = InlineText(s) else { continue }
            objects[name] = object
            ids[name] = object.objectID
            names.insert(name)
        }
    }
}
