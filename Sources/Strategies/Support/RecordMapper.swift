import ObjectGraph
import Workload

/// Turns records into managed objects: which attribute each record field fills, resolved to
/// indexes once so the per-record work is index stores, as generated accessors would be.
struct RecordMapper {
    let recordEntity: Entity
    let parentEntity: Entity
    /// (attribute index, field) for every attribute the record fills.
    private let fields: [(Int, RecordField)]
    /// The record entity's to-one to its parent.
    let parentRelationship: Int
    /// The parent's `name` attribute.
    let parentName: Int
    /// The record entity's key attribute.
    let key: Int
    let keyAttribute: String
    private let payloads: PayloadPool?

    init(mapping: DatasetMapping, context: ManagedObjectContext, payloadBytes: Int, seed: UInt64) throws {
        recordEntity = try context.entity(named: mapping.dataset.entityName)
        parentEntity = try context.entity(named: mapping.dataset.parentEntityName)
        let dataset = mapping.dataset
        fields = recordEntity.attributes.enumerated().map { ($0.offset, RecordField(property: $0.element.name, dataset: dataset)) }
        parentRelationship = recordEntity.toOneIndex(dataset.parentRelationship)!
        parentName = parentEntity.attributeIndex("name")!
        key = recordEntity.attributeIndex(dataset.keyAttribute)!
        keyAttribute = dataset.keyAttribute
        payloads = dataset == .photos ? PayloadPool(payloadBytes: payloadBytes, seed: seed) : nil
    }

    /// Sets every attribute of `object` from `record` (not the relationship).
    @inline(__always)
    func apply(_ record: Record, to object: ManagedObject) {
        for (index, field) in fields { object.setValue(value(field, of: record), at: index) }
    }

    /// The value a record field stores.
    @inline(__always)
    func value(_ field: RecordField, of r: Record) -> Value {
        switch field {
        case .key: return .string(r.key.string)
        case .amount: return .double(r.amount)
        case .date: return .date(r.date)
        case .note: return .string(r.note.string)
        case .isSeen: return .bool(r.isSeen)
        case .imageData: return .data(r.payload ?? payloads.map { Array($0.payload(at: r.payloadOffset)) } ?? [])
        case .parent: return .null
        }
    }

    /// Fills a batch-insert row from `record`.
    @inline(__always)
    func fill(_ row: inout BatchInsertRow, from record: Record) {
        for (index, field) in fields { row[index] = value(field, of: record) }
    }

    /// Inserts a new object for `record` into `context` (attributes only).
    @inline(__always)
    func insert(_ record: Record, into context: ManagedObjectContext) -> ManagedObject {
        let object = context.insert(recordEntity)
        apply(record, to: object)
        return object
    }
}
