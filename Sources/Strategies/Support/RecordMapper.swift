import ObjectGraph
import Workload

/// Turns records into managed objects and rows: which attribute each field fills, resolved to
/// indexes once so the per-record work is index stores, as generated accessors would be.
struct RecordMapper {
    let recordEntity: Entity
    let parentEntity: Entity?
    let shape: RecordShape
    /// (attribute index, field, its type) for every attribute a record fills: types read once here,
    /// not from the shape (whose fields hold Strings) per record.
    private let fields: [(attribute: Int, field: Int, type: FieldType)]
    /// Every field's type, likewise.
    private let types: [FieldType]
    /// The record entity's to-one to the related object, nil without one.
    let parentRelationship: Int?
    /// The related entity's key attribute (the first, for a key of several).
    let parentKey: Int?
    /// Every attribute of the related entity's key, and their names.
    let parentKeyIndexes: [Int]
    let parentKeyAttributes: [String]
    /// The record's key: attribute indexes and names, with the fields that hold them.
    let key: [Int]
    let keyAttributes: [String]
    let parentKeyAttribute: String?
    /// Where generated binary values point.
    let pool: PayloadPool?
    /// Makes a related object's other attributes, when its entity has any; with their indexes.
    private let parentValues: Generator?
    private let parentFields: [Int]
    /// What a nested feed says of the related objects, over the generated values.
    private let feedParents: FeedParents?

    init(model: ImportModel, context: some ObjectContext, pool: PayloadPool?, job: StrategyJob) throws {
        let spec = job.workload
        let record = try context.entity(named: model.recordEntity.name)
        let parent = try model.parentEntity.map { try context.entity(named: $0.name) }
        recordEntity = record
        parentEntity = parent
        shape = model.shape
        let parentKeyFields = Set(model.shape.parentKey)
        fields = model.shape.fields.indices.filter { !parentKeyFields.contains($0) }.map { f in
            (record.attributeIndex(model.shape.fields[f].name)!, f, model.shape.fields[f].type)
        }
        types = model.shape.fields.map(\.type)
        parentRelationship = model.roles.relationship.flatMap(record.toOneIndex)
        parentKeyAttribute = model.roles.parentKey
        parentKey = model.roles.parentKey.flatMap { parent?.attributeIndex($0) }
        parentKeyAttributes = model.roles.parentKeys
        parentKeyIndexes = parent.map { p in model.roles.parentKeys.map { p.attributeIndex($0)! } } ?? []
        key = model.roles.key.map { record.attributeIndex($0)! }
        keyAttributes = model.roles.key
        self.pool = pool
        parentValues = model.shape.parentFields.isEmpty ? nil : Generator(spec: spec, shape: model.shape)
        parentFields = model.shape.parentFields.map { f in parent!.attributeIndex(f.name)! }
        feedParents = try job.feedParents(model.shape)
    }

    /// Sets a new related object's other attributes, made from its index.
    /// A related object created from a nested feed gets what the feed says of it (a member it
    /// does not give keeps the default), else generated values.
    func applyParentValues(_ record: Record, to object: some StoredObject) {
        guard let parentValues else { return }
        if let feedParents {
            guard let values = feedParents.values(of: record.parentIndex) else { return }
            for (f, attribute) in parentFields.enumerated() where !values.isNull(f) {
                object.setValue(Self.value(values, f, type: shape.parentFields[f].type, pool: nil), at: attribute)
            }
            return
        }
        var values = RecordValues()
        parentValues.fillParent(record.parentIndex, into: &values)
        for (f, attribute) in parentFields.enumerated() {
            object.setValue(
                Self.value(values, f, type: shape.parentFields[f].type, pool: parentValues.pool), at: attribute)
        }
    }

    /// Sets every attribute of `object` a record gives (a null field keeps the default).
    @inline(__always)
    func apply(_ record: Record, to object: some StoredObject) {
        for (attribute, field, type) in fields where !record.values.isNull(field) {
            object.setValue(Self.value(record.values, field, type: type, pool: pool), at: attribute)
        }
    }

    /// The value field `f` stores, as the engine holds it.
    @inline(__always)
    func value(_ f: Int, of r: Record) -> Value { Self.value(r.values, f, type: types[f], pool: pool) }

    /// Field `f` of `v`, of `type`, as the engine holds it.
    @inline(__always)
    static func value(_ v: RecordValues, _ f: Int, type: FieldType, pool: PayloadPool?) -> Value {
        if v.isNull(f) { return .null }
        switch type {
        case .text: return .string(v.withBytes(f, pool: pool) { String(decoding: $0, as: UTF8.self) })
        case .integer16, .integer32, .integer64: return .integer(v.integer(f))
        case .real: return .double(v.double(f))
        case .date: return .date(v.double(f))
        case .bool: return .bool(v.bool(f))
        case .bytes, .uuid: return .data(v.withBytes(f, pool: pool) { Array($0) })
        }
    }

    /// Fills a batch-insert row from `record`.
    @inline(__always)
    func fill(_ row: inout BatchInsertRow, from record: Record) {
        for (attribute, field, type) in fields where !record.values.isNull(field) {
            row[attribute] = Self.value(record.values, field, type: type, pool: pool)
        }
    }

    /// Inserts a new object for `record` into `context` (attributes only).
    @inline(__always)
    func insert<Context: ObjectContext>(_ record: Record, into context: Context) -> Context.Object {
        let object = context.insert(recordEntity)
        apply(record, to: object)
        return object
    }

    // MARK: Keys

    /// The predicate that finds `record`'s object by its key (`key == value`, joined with AND for a
    /// key of several attributes).
    func keyPredicate(_ record: Record) -> Predicate {
        // One attribute: no array of parts (a find-or-create asks once per record).
        if shape.key.count == 1 { return .equal(keyAttributes[0], value(shape.key[0], of: record)) }
        let parts = zip(keyAttributes, shape.key).map { Predicate.equal($0, value($1, of: record)) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// The record's key as one value to look it up by: its key attribute's value, or for a key of
    /// several attributes their values' descriptions joined (the same for the stored object).
    func keyLookup(of record: Record) -> Value {
        shape.key.count == 1
            ? value(shape.key[0], of: record)
            : .string(shape.key.map { value($0, of: record).description }.joined(separator: "\u{1F}"))
    }

    /// The same for a stored object.
    func keyLookup(of object: some StoredObject) -> Value {
        key.count == 1
            ? object.value(at: key[0])
            : .string(key.map { object.value(at: $0).description }.joined(separator: "\u{1F}"))
    }

    /// The related object's key in `record`, as the engine holds it.
    func parentKeyValue(of record: Record) -> Value { shape.parentKey.first.map { value($0, of: record) } ?? .null }

    /// Every value of the related object's key in `record`, in `parentKeyAttributes` order.
    func parentKeyValues(of record: Record) -> [Value] { shape.parentKey.map { value($0, of: record) } }

    /// The related object's key in `record` as bytes (texts as they are, numbers by their bits):
    /// what the directory of related objects is looked up by, allocation-free.
    /// A key of several attributes is their bytes, each followed by 0x1F.
    @inline(__always)
    func parentName(of record: Record) -> InlineText {
        var name = InlineText()
        let several = shape.parentKey.count > 1
        for f in shape.parentKey {
            if types[f].isBytes {
                record.values.withBytes(f, pool: pool) { name.append($0) }
            } else {
                withUnsafeBytes(of: record.values.integer(f)) { name.append($0) }
            }
            if several { name.append(byte: 0x1F) }
        }
        return name
    }

    /// The same bytes for a related object's stored key (nil when a part of it is missing).
    func parentName(of object: some StoredObject) -> InlineText? {
        guard parentKeyIndexes.count > 1 else { return parentKey.flatMap { parentName(of: object.value(at: $0)) } }
        var name = InlineText()
        for index in parentKeyIndexes {
            guard let part = parentName(of: object.value(at: index)) else { return nil }
            part.withBytes { name.append($0) }
            name.append(byte: 0x1F)
        }
        return name
    }

    /// The same bytes for a related object's stored key.
    func parentName(of value: Value) -> InlineText? {
        switch value {
        case .string(let s): return InlineText(s)
        case .data(let d): return d.withUnsafeBytes { InlineText(bytes: $0) }
        case .integer(let i): return withUnsafeBytes(of: i) { InlineText(bytes: $0) }
        case .double(let d), .date(let d): return withUnsafeBytes(of: d.bitPattern) { InlineText(bytes: $0) }
        case .bool(let b): return withUnsafeBytes(of: Int64(b ? 1 : 0)) { InlineText(bytes: $0) }
        case .null: return nil
        }
    }
}
