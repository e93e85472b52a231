import SQLiteKit

/// A row as the store holds it, read without registering an object: what conflict resolution
/// compares the context's objects with.
struct StoredRow {
    let primaryKey: Int64
    let version: Int64
    let values: [Value]
    let toOne: [Int64?]
    /// Each to-one target's `Z_ENT` where the destination has sub-entities (its `Z<n>_` column),
    /// else nil: the target is then of the declared destination. One row is one object ID, so a
    /// folder stays a `Folder` however its bookmark's row is read.
    let toOneEntity: [Int?]

    /// Decodes the row `s` is on (columns as `entity.rowColumns`).
    init(_ s: Statement, entity e: Entity, storage: ExternalStorage) {
        let layout = e.rowLayout
        primaryKey = Int64(s.int(at: RowColumn.key))
        version = Int64(s.int(at: RowColumn.version))
        toOne = layout.toOne.map { s.isNull(at: $0) ? nil : Int64(s.int(at: $0)) }
        toOneEntity = e.hasEntityKeys ? layout.entityKey.map { $0 < 0 || s.isNull(at: $0) ? nil : s.int(at: $0) } : []
        var values = e.attributes.enumerated().map { s.value(at: layout.attributes[$0], as: $1.type) }
        if !e.externalAttributes.isEmpty { e.decodeExternal(&values, storage) }
        self.values = values
    }

    /// The row an object's last fetched or saved state stands for: what a save hands the row
    /// cache for each inserted and updated object (Core Data's `NSSQLRow`, `_populateRow:`).
    init(committed o: ManagedObject) {
        primaryKey = o.objectID.primaryKey ?? 0
        version = o.version
        values = o.committed ?? o.values
        toOne = (o.committedToOne ?? []).map { $0?.primaryKey }
        // Only where some destination has sub-entities: no array per saved row otherwise.
        toOneEntity = o.entity.hasEntityKeys ? (o.committedToOne ?? []).map { $0?.entityID } : []
    }

    /// The row a save writes for `o` (`-[NSSQLSavePlan _populateRow:fromObject:timestamp:inserted:
    /// shouldAddToRowCache:]`): each column read from the object and stored by a switch on its
    /// type (Core Data's on the row slot's type character: `snapshot_set_int64`, `…_double`,
    /// `…_object`, `…_null`), the foreign keys from the targets. The save binds from it, and after
    /// the commit the row cache gets it, at the version the write gives the row.
    init(populating o: ManagedObject, primaryKey: Int64, version: Int64, key: (ManagedObject) -> Int64?) {
        let e = o.entity
        self.primaryKey = primaryKey
        self.version = version
        var values: [Value] = []
        values.reserveCapacity(o.values.count)
        for (i, a) in e.attributes.enumerated() {
            let v = o.values[i]
            switch (a.type, v) {
            case (_, .null): values.append(.null)
            case (.integer16, .integer(let n)), (.integer32, .integer(let n)), (.integer64, .integer(let n)):
                values.append(.integer(n))
            case (.boolean, .bool(let b)): values.append(.bool(b))
            case (.double, .double(let d)), (.float, .double(let d)), (.decimal, .double(let d)):
                values.append(.double(d))
            case (.date, .date(let d)): values.append(.date(d))
            case (.string, .string(let s)), (.uri, .string(let s)): values.append(.string(s))
            default: values.append(v)   // bytes, and a value of another kind than the column's: as it is
            }
        }
        self.values = values
        toOne = o.toOne.map { $0.flatMap(key) }
        toOneEntity = e.hasEntityKeys ? o.toOne.map { $0?.entity.id } : []
    }

    /// The entity of to-one `i`'s target in `o`'s model.
    func targetEntity(_ i: Int, of o: ManagedObject, _ context: ManagedObjectContext) -> Entity {
        let id = toOneEntity.indices.contains(i) ? toOneEntity[i] : nil
        return context.persistentStoreCoordinator.model.runtime[(id ?? o.entity.toOne[i].destination) - 1]
    }

    static func read(_ e: Entity, primaryKey: Int64, _ connection: Connection, storage: ExternalStorage) throws
        -> StoredRow?
    {
        let s = try connection.statement(e.selectRows(e.rowColumns, where: "Z_PK", "= ?"))
        s.bind(primaryKey, at: 1)
        defer { s.reset() }
        return try s.step() ? StoredRow(s, entity: e, storage: storage) : nil
    }

    /// Bits of the properties whose stored value is no longer what `o` last saw: what the other
    /// side changed.
    func differences(from o: ManagedObject) -> PropertyMask {
        guard let committed = o.committed, let committedToOne = o.committedToOne else { return PropertyMask() }
        var mask = PropertyMask()
        for i in values.indices where values[i] != committed[i] { mask.insert(i) }
        for i in toOne.indices where toOne[i] != committedToOne[i]?.primaryKey {
            mask.insert(o.entity.toOnePosition(i))
        }
        return mask
    }

    /// Gives `o` the stored values, except the properties in `keeping` (ours, just written).
    func apply(to o: ManagedObject, keeping: PropertyMask, context: ManagedObjectContext) {
        for i in values.indices where !keeping.contains(i) { o.values[i] = values[i] }
        for (i, rel) in o.entity.toOne.enumerated() where !keeping.contains(o.entity.toOnePosition(i)) {
            let target = toOne[i].map { context.object(primaryKey: $0, entity: targetEntity(i, of: o, context)) }
            guard o.toOne[i] !== target else { continue }
            if let inverse = rel.inverseToMany {
                o.toOne[i]?.removeMember(o, toMany: inverse)
                target?.addMember(o, toMany: inverse)
            }
            o.toOne[i] = target
        }
    }
}
