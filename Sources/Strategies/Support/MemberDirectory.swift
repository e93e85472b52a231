import ObjectGraph
import Workload

/// Finds or creates the objects each record relates to through its many-to-many
/// (`--many-to-many`, `--members`), and relates them, as an app sets a product's tags at a sync.
///
/// Members are found as `prefetch` finds related objects: per batch one `key IN (…)` query for
/// the members not seen before, IDs kept across resets (a known member is a fault by its ID, no
/// SQL), the others created with their generated attributes. A record that was already stored
/// (a find-or-create's update) has its members read first (the to-many fault fires, one query, as
/// Core Data's does when a set is assigned) and only the missing ones are added.
final class MemberDirectory<Context: ObjectContext> {
    let relationship: String
    private let entity: Entity
    private let generator: Generator
    private let shape: RecordShape.Members
    private let keyAttribute: Int
    private let fieldAttributes: [Int]
    private var objects: [Int: Context.Object] = [:]
    private var ids: [Int: ManagedObjectID] = [:]

    /// Nil when the records relate to nothing through a many-to-many.
    init?(shape recordShape: RecordShape, spec: WorkloadSpec, context: Context) throws {
        guard let shape = recordShape.members, shape.perRecord > 0 else { return nil }
        self.shape = shape
        relationship = shape.relationship
        let entity = try context.entity(named: shape.entity)
        self.entity = entity
        generator = Generator(spec: spec, shape: recordShape)
        keyAttribute = entity.attributeIndex(shape.key.name)!
        fieldAttributes = shape.fields.map { entity.attributeIndex($0.name)! }
    }

    /// Before a batch's records are related: the members they name that this context has no
    /// object or ID for are fetched (one query), the known ones turned into faults.
    func prepare(for batch: [Record], in context: Context) throws {
        var unknown: [Int] = []
        for r in batch {
            for i in generator.members(ofKey: r.keyIndex) where objects[i] == nil {
                if let id = ids[i] {
                    objects[i] = context.object(with: id)
                } else if !unknown.contains(i) {
                    unknown.append(i)
                }
            }
        }
        guard !unknown.isEmpty else { return }
        let byKey = Dictionary(uniqueKeysWithValues: unknown.map { (key(of: $0), $0) })
        let request = FetchRequest(entityName: entity.name, predicate: .in(shape.key.name, Array(byKey.keys)))
        for object in try context.fetch(request) {
            guard let i = byKey[object.value(at: keyAttribute)] else { continue }
            objects[i] = object
            ids[i] = object.objectID
        }
    }

    /// Relates `object` (the record's) to each of its members, creating the ones not found.
    func relate(_ record: Record, to object: Context.Object, in context: Context) throws {
        let wanted = generator.members(ofKey: record.keyIndex).map { member($0, in: context) }
        let present = object.isInserted ? [] : object.objects(forKey: relationship)
        for m in wanted where !present.contains(m) { try object.addObject(m, forKey: relationship) }
    }

    func didSave() { for (i, o) in objects where !o.objectID.isTemporaryID { ids[i] = o.objectID } }
    func didReset() { objects.removeAll(keepingCapacity: true) }

    private func member(_ i: Int, in context: Context) -> Context.Object {
        if let o = objects[i] { return o }
        let o = context.insert(entity)
        var values = RecordValues()
        generator.fillMember(i, into: &values)
        o.setValue(RecordMapper.value(values, 0, type: shape.key.type, pool: generator.pool), at: keyAttribute)
        for (f, attribute) in fieldAttributes.enumerated() {
            o.setValue(
                RecordMapper.value(values, f + 1, type: shape.fields[f].type, pool: generator.pool), at: attribute)
        }
        objects[i] = o
        return o
    }

    /// Member `i`'s key, as the engine holds it.
    private func key(of i: Int) -> Value {
        var values = RecordValues()
        generator.fillMember(i, into: &values)
        return RecordMapper.value(values, 0, type: shape.key.type, pool: generator.pool)
    }
}
