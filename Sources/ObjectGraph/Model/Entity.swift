/// An entity as the engine uses it at run time: its columns resolved to indexes and its SQL
/// prepared as text once, so that no per-object or per-row work looks anything up by name.
///
/// One per entity per model, shared (immutable) by every context and coordinator.
package final class Entity: Sendable, CustomStringConvertible {
    /// A to-one relationship: a foreign-key column.
    package struct ToOne: Sendable {
        package let name: String
        package let column: String
        /// `Z_ENT` of the destination.
        package let destination: Int
        /// Index of the inverse to-many in the destination's `toMany`, when there is one.
        package let inverseToMany: Int?
        /// Index of the inverse to-one in the destination's `toOne` when the relationship is
        /// one-to-one: both rows keep a column, and setting one side sets the other.
        package let inverseToOne: Int?
        /// Core Data's `isOptional`: nil fails validation at save when false.
        package let isOptional: Bool
        /// `Z<n>_<NAME>`: the destination's `Z_ENT`, when the destination has sub-entities.
        package let entityKeyColumn: String?
        /// `Z_FOK_<NAME>`: the position in the destination's ordered to-many (the inverse).
        package let orderKeyColumn: String?
        /// What deleting this object does to the destination.
        package let deleteRule: RelationshipDescription.DeleteRule

        /// The rule of the inverse to-many or one-to-one (what deleting the destination does to
        /// this side), Nullify when there is no inverse.
        package func deleteRuleOfInverse(in model: ManagedObjectModel) -> RelationshipDescription.DeleteRule {
            let destination = model.runtime[self.destination - 1]
            if let i = inverseToMany { return destination.toMany[i].deleteRule }
            if let i = inverseToOne { return destination.toOne[i].deleteRule }
            return .noAction
        }
    }

    /// A to-many relationship: the inverse of a to-one in the destination, no column.
    package struct ToMany: Sendable {
        package let name: String
        package let destination: Int
        /// Index of the inverse to-one in the destination's `toOne`.
        package let inverseToOne: Int
        /// Core Data's `isOptional`, `minCount` and `maxCount`, checked at save: an optional to-many
        /// may be empty whatever its `minCount`; a required one needs `minCount` members (none
        /// when it has no `minCount`, as Xcode writes most).
        package let isOptional: Bool
        package let minCount: Int?
        package let maxCount: Int?
        /// What deleting this object does to the members.
        package let deleteRule: RelationshipDescription.DeleteRule
    }

    /// A many-to-many relationship: pairs in a join table, one column per side.
    package struct ManyToMany: Sendable {
        package let name: String
        package let destination: Int
        /// Index of the inverse in the destination's `manyToMany`.
        package let inverse: Int
        /// This side names the join table (`Z_<n><NAME>`): a pair is written from here, once.
        package let namesTable: Bool
        /// What deleting this object does to the members.
        package let deleteRule: RelationshipDescription.DeleteRule
        /// The join table and the column holding this side's key.
        package let table: String
        package let ownColumn: String
        /// `INSERT INTO <join> (<own>, <member>) VALUES (?, ?)`, its DELETE of one pair, its
        /// DELETE of every pair of one object, and the members' keys of one object.
        package let insertSQL: String
        package let deleteSQL: String
        package let deleteAllSQL: String
        package let membersSQL: String
    }

    /// `Z_ENT`.
    package let id: Int
    /// `Z_ENT` of the root entity, whose `Z_PRIMARYKEY` row hands out this entity's keys.
    package let rootID: Int
    /// `Z_ENT` of the last entity of this one's sub-hierarchy (`id` for a leaf).
    package let subentityMaxID: Int
    package let name: String
    /// The root's table, shared by the hierarchy.
    package let tableName: String
    /// What a query of this entity adds to its WHERE when its table holds other entities' rows
    /// (nil when it holds only this entity's): `Z_ENT = n`, or the range of its sub-hierarchy.
    package var entityFilter: String? { entityFilter(table: "") }

    /// The filter with its `Z_ENT` named through a table alias (`t0.`), for a query that joins.
    func entityFilter(table prefix: String) -> String? {
        guard rootID != id else { return nil }
        return subentityMaxID == id
            ? "\(prefix)Z_ENT = \(id)" : "\(prefix)Z_ENT >= \(id) AND \(prefix)Z_ENT <= \(subentityMaxID)"
    }
    /// Attributes in column order (by name).
    package let attributes: [AttributeDescription]
    /// Column names of `attributes`.
    package let attributeColumns: [String]
    package let toOne: [ToOne]
    package let toMany: [ToMany]
    /// Many-to-manys, after the to-manys in change masks (bit `toMany.count + i`).
    package let manyToMany: [ManyToMany]
    /// Each uniqueness constraint as attribute indexes.
    package let uniquenessConstraints: [[Int]]
    /// Default values of a newly inserted object.
    package let defaults: [Value]

    /// The position of to-one `index` in a change mask: after the attributes, which take
    /// positions `0 ..< attributes.count`.
    @inline(__always) package func toOnePosition(_ index: Int) -> Int { attributes.count + index }
    /// Attributes that allow external storage: their columns frame each value (`ExternalStorage`).
    package let externalAttributes: [Int]
    /// Some attribute does (a flag, read per saved object).
    package let hasExternalAttributes: Bool
    /// Some to-one's destination has sub-entities (an entity key column beside its key).
    package let hasEntityKeys: Bool

    /// `values` as the columns hold them: each external-storage attribute's value framed, and
    /// written to a file past the threshold. `values` itself for an entity without one.
    func columnValues(_ values: [Value], _ storage: ExternalStorage) throws -> [Value] {
        guard !externalAttributes.isEmpty else { return values }
        var out = values
        for i in externalAttributes { out[i] = try storage.encode(values[i]) }
        return out
    }

    /// Values read from the columns, each external-storage attribute's unframed (read from its
    /// file when it is in one).
    func decodeExternal(_ values: inout [Value], _ storage: ExternalStorage) {
        for i in externalAttributes where i < values.count { values[i] = storage.decode(values[i]) }
    }
    /// Every to-many's index: what an inserted object holds whole.
    package let allToManys: PropertyMask
    /// Every attribute's and to-one's position: the columns an overwriting merge writes.
    package let allColumnsMask: PropertyMask

    // MARK: SQL, built once

    /// `Z_PK, Z_OPT, <to-one columns>, <attribute columns>`, then the to-ones' entity keys when
    /// there are any, unaliased: what loadgen's own checks read of a row (the engine's fetches
    /// read `rowColumns`).
    package let selectColumns: String
    /// A row as the engine's fetches read it, in Core Data's form: `0, t0.Z_PK, t0.Z_OPT,
    /// t0.<column>…` (`t0.Z_ENT` first where the table is shared), positions as `RowColumn` says.
    package let rowColumns: String
    /// The entity of a fetched row: the constant `0` for an entity alone in its table, as Core
    /// Data writes it (`SELECT 0, t0.Z_PK, …`), `t0.Z_ENT` where a hierarchy shares the table
    /// (a fault of `Country`, a sub-entity: `SELECT t0.Z_ENT, t0.Z_PK, …`).
    package let entityColumn: String
    /// A keys-first or object-ID fetch's columns: `0, t0.Z_PK` (or `t0.Z_ENT, t0.Z_PK`).
    package var keyOnlyColumns: String { "\(entityColumn), t0.Z_PK" }
    /// The to-ones' entity-key and order-key columns: written after every other column of an
    /// INSERT (so an entity without them issues the same SQL as ever).
    package let keyColumns: [(toOne: Int, isOrder: Bool)]
    /// Some to-one has an ordered inverse (a `Z_FOK_` column).
    package let hasOrderKeys: Bool
    /// Where `rowColumns` puts each column.
    let rowLayout: RowLayout
    /// The entity has sub-entities: a fetch of it may return their rows, read with
    /// `hierarchySelectColumns` and told apart by `Z_ENT`.
    package let hasSubentities: Bool
    /// `t0.Z_ENT, t0.Z_PK, t0.Z_OPT` and every column of the table: a row of any entity of the
    /// hierarchy.
    let hierarchySelectColumns: String
    /// Where `hierarchySelectColumns` puts this entity's columns.
    let hierarchyLayout: RowLayout
    /// What a fetch of this entity reads.
    package var readColumns: String { hasSubentities ? hierarchySelectColumns : rowColumns }

    /// `SELECT <columns> FROM <table> t0 WHERE  t0.<column> <test>`: a fetch by one column (a
    /// fault by `Z_PK`, a to-many by its inverse's key) as Core Data's generator writes it, a
    /// space before each column it names (`WHERE  t0.ZPLAYLISTID = ?`, docs/ENGINE.md).
    package func selectRows(_ columns: String, where column: String, _ test: String) -> String {
        "SELECT \(columns) FROM \(tableName) t0 WHERE  t0.\(column) \(test)"
    }
    /// The single-row INSERT of every column, which a batch insert reuses (Core Data's batch
    /// insert writes constrained columns in the INSERT itself, with its conflict clause).
    package let insertSQL: String
    /// The INSERT a save reuses: without the constrained columns, which the save sets with
    /// `constrainedUpdateSQL` once every row is in, as Core Data's generator does
    /// (`prepareInsertStatementWithRow:includeConstraints:NO`). Equal to `insertSQL` for an
    /// entity without uniqueness constraints.
    package let saveInsertSQL: String
    /// Attribute indexes in some uniqueness constraint, in attribute order.
    package let constrainedAttributes: [Int]
    /// Their positions in a change mask.
    package let constrainedMask: PropertyMask
    /// `UPDATE OR FAIL T SET <constrained columns> = ? WHERE Z_PK = ?` (nil without constraints):
    /// Core Data's `updateConstrainedValuesForRow:`.
    package let constrainedUpdateSQL: String?
    /// The save's DELETE of one row, checking its version as every save write does.
    package let deleteSQL: String
    /// The DELETE a merge policy issues over someone else's change (no version to check).
    package let deleteOverwritingSQL: String

    /// `willSave`/`didSave`, sent per saved object (`ManagedObjectLifecycle`).
    package let lifecycle: any ManagedObjectLifecycle = NSManagedObjectLifecycle()

    private let attributeIndexByName: [String: Int]
    private let toOneIndexByName: [String: Int]
    private let toManyIndexByName: [String: Int]
    private let manyToManyIndexByName: [String: Int]

    /// `byName`: every entity of the model by name, built once for the model (a model of
    /// thousands of entities must not build it once per entity).
    init(_ d: EntityDescription, byName: Descriptions, all: [EntityDescription]) {
        id = d.entityID
        rootID = d.rootEntityID
        subentityMaxID = d.subentityMaxID
        name = d.name
        tableName = d.tableName
        attributes = Self.inheritanceOrder("attributes", d, byName) { $0.attributes.map { ($0.name, $0) } }
        attributeColumns = Self.columns(of: attributes, in: d)
        toOne = Self.runtimeToOnes(of: d, byName)
        toMany = Self.runtimeToManys(of: d, byName)
        manyToMany = Self.manyToManys(of: d, byName).map { Self.runtimeManyToMany($0, of: d, byName) }
        attributeIndexByName = Dictionary(uniqueKeysWithValues: attributes.enumerated().map { ($1.name, $0) })
        toOneIndexByName = Dictionary(uniqueKeysWithValues: toOne.enumerated().map { ($1.name, $0) })
        toManyIndexByName = Dictionary(uniqueKeysWithValues: toMany.enumerated().map { ($1.name, $0) })
        manyToManyIndexByName = Dictionary(uniqueKeysWithValues: manyToMany.enumerated().map { ($1.name, $0) })
        let attributeIndex = attributeIndexByName
        uniquenessConstraints = d.uniquenessConstraints.map { $0.map { attributeIndex[$0]! } }
        defaults = attributes.map(\.defaultValue)
        allToManys = PropertyMask.all(toMany.count)
        let attributes = attributes
        externalAttributes = attributes.indices.filter { attributes[$0].allowsExternalStorage }
        hasExternalAttributes = attributes.contains { $0.allowsExternalStorage }
        allColumnsMask = PropertyMask.all(attributes.count + toOne.count)
        let keyColumns = Self.keyColumns(of: toOne)
        self.keyColumns = keyColumns
        hasOrderKeys = keyColumns.contains { $0.isOrder }
        hasEntityKeys = keyColumns.contains { !$0.isOrder }
        let toOne = toOne
        let keyColumnNames = keyColumns.map {
            $0.isOrder ? toOne[$0.toOne].orderKeyColumn! : toOne[$0.toOne].entityKeyColumn!
        }
        let columns = toOne.map(\.column) + attributeColumns
        let entityKeys = toOne.compactMap(\.entityKeyColumn)
        selectColumns = (["Z_PK", "Z_OPT"] + columns + entityKeys).joined(separator: ", ")
        let tableColumns = all[d.rootEntityID - 1].tableColumns.map(\.name)
        hasSubentities = d.subentityMaxID > d.entityID
        entityColumn = hasSubentities || d.rootEntityID != d.entityID ? "t0.Z_ENT" : "0"
        rowColumns = Self.fetched(entityColumn, columns + entityKeys)
        rowLayout = RowLayout(
            toOne: toOne, attributeColumns: attributeColumns, in: columns + entityKeys, offset: RowColumn.first)
        hierarchySelectColumns = Self.fetched("t0.Z_ENT", tableColumns)
        hierarchyLayout = RowLayout(
            toOne: toOne, attributeColumns: attributeColumns, in: tableColumns, offset: RowColumn.first)
        let all = EntityDescription.fixedColumns + columns
        insertSQL = Self.insert(tableName, columns: all + keyColumnNames)
        let constrained = Set(uniquenessConstraints.joined())
        constrainedAttributes = attributes.indices.filter(constrained.contains)
        constrainedMask = PropertyMask(constrainedAttributes)
        let attributeColumns = attributeColumns
        (saveInsertSQL, constrainedUpdateSQL) = Self.constrainedSQL(
            tableName, columns: all, keys: keyColumnNames,
            constrained: constrainedAttributes.map { attributeColumns[$0] })
        deleteSQL = "DELETE FROM \(tableName) WHERE Z_PK = ? AND Z_OPT = ?"
        deleteOverwritingSQL = "DELETE FROM \(tableName) WHERE Z_PK = ?"
    }

    /// A fetch's columns as Core Data writes them: the entity (`0` or `t0.Z_ENT`), `t0.Z_PK`,
    /// `t0.Z_OPT`, then each column through `t0` (`RowColumn` places them).
    private static func fetched(_ entityColumn: String, _ columns: [String]) -> String {
        ([entityColumn, "t0.Z_PK", "t0.Z_OPT"] + columns.map { "t0." + $0 }).joined(separator: ", ")
    }

    /// Each attribute's column, through one lookup table, not a scan of the columns per attribute
    /// (`column(of:)`): a deep hierarchy's entities hold hundreds of each.
    private static func columns(of attributes: [AttributeDescription], in d: EntityDescription) -> [String] {
        let columnOf = Dictionary(
            d.columns.filter(\.isProperty).map { ($0.property, $0.name) }, uniquingKeysWith: { first, _ in first })
        return attributes.map { columnOf[$0.name] ?? EntityDescription.columnName($0.name) }
    }

    /// A save's INSERT leaves the constrained columns out; an UPDATE OR FAIL sets them after the
    /// inserts, as Core Data's `updateConstrainedValuesForRow:` does (docs/ENGINE.md, uniqueness).
    private static func constrainedSQL(
        _ table: String, columns: [String], keys: [String],
        constrained: [String]
    ) -> (insert: String, update: String?) {
        let insert = Self.insert(table, columns: columns.filter { !constrained.contains($0) } + keys)
        guard !constrained.isEmpty else { return (insert, nil) }
        return (
            insert,
            "UPDATE OR FAIL \(table) SET " + constrained.map { "\($0) = ?" }.joined(separator: ", ") + " WHERE Z_PK = ?"
        )
    }

    // MARK: Relationships at run time

    /// The to-ones' entity keys, then their order keys: written after every other column of an INSERT.
    private static func keyColumns(of toOne: [ToOne]) -> [(toOne: Int, isOrder: Bool)] {
        toOne.indices.filter { toOne[$0].entityKeyColumn != nil }.map { (toOne: $0, isOrder: false) }
            + toOne.indices.filter { toOne[$0].orderKeyColumn != nil }.map { (toOne: $0, isOrder: true) }
    }

    /// The to-ones in the entity's order, with their inverses' indexes and key columns.
    private static func runtimeToOnes(of d: EntityDescription, _ byName: Descriptions) -> [ToOne] {
        let keyColumn = { (name: String, order: Bool) in
            d.columns.first { c in
                c.property == name && c.kind == (order ? .orderKey(relationship: name) : .entityKey(relationship: name))
            }?.name
        }
        return toOnes(of: d, byName).map { r in
            let dest = byName[r.destination]!
            let inverse = r.inverse.flatMap { inv in oneToManys(of: dest, byName).firstIndex { $0.name == inv } }
            let inverseToOne = r.inverse.flatMap { inv in toOnes(of: dest, byName).firstIndex { $0.name == inv } }
            return ToOne(
                name: r.name, column: d.column(of: r.name), destination: dest.entityID,
                inverseToMany: inverse, inverseToOne: inverseToOne, isOptional: r.isOptional,
                entityKeyColumn: keyColumn(r.name, false), orderKeyColumn: keyColumn(r.name, true),
                deleteRule: r.deleteRule)
        }
    }

    /// The to-manys whose inverse is a to-one, with that to-one's index in the destination.
    private static func runtimeToManys(of d: EntityDescription, _ byName: Descriptions) -> [ToMany] {
        oneToManys(of: d, byName).map { r in
            let dest = byName[r.destination]!
            let inverse = toOnes(of: dest, byName).firstIndex { $0.name == r.inverse }
            precondition(inverse != nil, "to-many \(d.name).\(r.name) needs an inverse")
            return ToMany(
                name: r.name, destination: dest.entityID, inverseToOne: inverse!,
                isOptional: r.isOptional, minCount: r.minCount, maxCount: r.maxCount, deleteRule: r.deleteRule)
        }
    }

    /// A many-to-many with its join table's SQL. The table is named by one side; the other finds
    /// it on the destination (or on the ancestor that declares the relationship).
    private static func runtimeManyToMany(
        _ r: RelationshipDescription, of d: EntityDescription,
        _ byName: Descriptions
    ) -> ManyToMany {
        let dest = byName[r.destination]!
        let inverse = manyToManys(of: dest, byName).firstIndex { $0.name == r.inverse }!
        let own = joinTable(r.name, of: d, byName)
        let join = own ?? joinTable(r.inverse!, of: dest, byName)!
        let (mine, theirs) =
            own != nil ? (join.sourceColumn, join.destinationColumn) : (join.destinationColumn, join.sourceColumn)
        return ManyToMany(
            name: r.name, destination: dest.entityID, inverse: inverse, namesTable: own != nil,
            deleteRule: r.deleteRule,
            table: join.name, ownColumn: mine,
            insertSQL: "INSERT OR REPLACE INTO \(join.name)(\(mine), \(theirs)) VALUES (?, ?)",
            deleteSQL: "DELETE FROM \(join.name) WHERE \(mine) = ? AND \(theirs) = ?",
            deleteAllSQL: "DELETE FROM \(join.name) WHERE \(mine) = ?",
            // Keys alone, or with the member's Z_ENT from its table when the
            // destination has sub-entities (the key does not say which).
            membersSQL: dest.subentityMaxID > dest.entityID
                ? "SELECT t1.\(theirs), t0.Z_ENT FROM \(dest.tableName) t0 JOIN \(join.name) t1 ON t0.Z_PK = t1.\(theirs) WHERE t1.\(mine) = ?"
                : "SELECT \(theirs) FROM \(join.name) WHERE \(mine) = ?")
    }

    /// The to-manys whose inverse is a to-one (a many-to-many is kept apart: `manyToMany`).
    private static func oneToManys(of d: EntityDescription, _ byName: Descriptions) -> [RelationshipDescription] {
        inheritanceOrder("one-to-many", d, byName) { e in
            e.relationships.filter { r in
                r.isToMany && !(r.inverse.flatMap { byName[r.destination]?.relationship($0) }?.isToMany ?? false)
            }.map { ($0.name, $0) }
        }
    }

    private static func manyToManys(of d: EntityDescription, _ byName: Descriptions) -> [RelationshipDescription] {
        inheritanceOrder("many-to-many", d, byName) { e in
            e.relationships.filter { r in
                r.isToMany && (r.inverse.flatMap { byName[r.destination]?.relationship($0) }?.isToMany ?? false)
            }.map { ($0.name, $0) }
        }
    }

    /// The join table relationship `name` names, on `d` or the ancestor that declares it.
    private static func joinTable(_ name: String, of d: EntityDescription, _ byName: Descriptions) -> EntityDescription
        .JoinTable?
    {
        d.joinTables.first { $0.relationship == name }
            ?? d.parentEntity.flatMap { byName[$0] }.flatMap { joinTable(name, of: $0, byName) }
    }

    private static func toOnes(of d: EntityDescription, _ byName: Descriptions) -> [RelationshipDescription] {
        inheritanceOrder("to-one", d, byName) { $0.relationships.filter { !$0.isToMany }.map { ($0.name, $0) } }
    }

    /// Properties by name, except that a sub-entity keeps its parent's order first and adds its
    /// own after: an index valid for an entity is valid for every entity below it, so an object
    /// of a sub-entity can stand wherever its parent's index is used (a to-one's inverse, a
    /// to-many's member).
    /// The order of the names is the model's (`Descriptions.order`, once per entity and kind);
    /// the values are `d`'s own (a sub-entity's description holds what it inherits).
    private static func inheritanceOrder<T>(
        _ kind: String, _ d: EntityDescription, _ byName: Descriptions,
        _ items: (EntityDescription) -> [(String, T)]
    ) -> [T] {
        let names = byName.order(kind, d) { items($0).map(\.0) }
        let values = Dictionary(items(d), uniquingKeysWith: { first, _ in first })
        return names.compactMap { values[$0] }
    }

    private static func insert(_ table: String, columns: [String]) -> String {
        "INSERT INTO \(table)(\(columns.joined(separator: ", "))) VALUES("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
    }

    /// The index of attribute `name`, for the fast accessors.
    package func attributeIndex(_ name: String) -> Int? { attributeIndexByName[name] }
    /// The index of to-one relationship `name`.
    package func toOneIndex(_ name: String) -> Int? { toOneIndexByName[name] }
    /// The index of to-many relationship `name`.
    package func toManyIndex(_ name: String) -> Int? { toManyIndexByName[name] }
    /// The index of many-to-many relationship `name`.
    package func manyToManyIndex(_ name: String) -> Int? { manyToManyIndexByName[name] }

    /// The key path that means the object itself, as in `self IN %@` with object IDs.
    static let selfKey = "self"

    /// The column a key path names in a predicate or sort: an attribute, a to-one, or `self`
    /// (the row's `Z_PK`).
    func column(for key: String) -> String? {
        if key == Self.selfKey { return "Z_PK" }
        if let i = attributeIndexByName[key] { return attributeColumns[i] }
        if let i = toOneIndexByName[key] { return toOne[i].column }
        return nil
    }

    package var description: String { name }
}

/// Where a SELECT puts an entity's columns: the row's version, each to-one's key and entity key,
/// each attribute.
/// Where a row the engine fetches (`Entity.rowColumns`, `readColumns`, `keyOnlyColumns`) puts
/// its entity, key and version: first, as Core Data's fetches read them
/// (`SELECT 0, t0.Z_PK, t0.Z_OPT, …`), the properties' columns after.
package enum RowColumn {
    package static let entity: Int32 = 0
    package static let key: Int32 = 1
    package static let version: Int32 = 2
    /// The first property column.
    static let first = 3
}

struct RowLayout: Sendable {
    let toOne: [Int32]
    /// The position of to-one i's entity key (its destination's `Z_ENT`), or -1.
    let entityKey: [Int32]
    let attributes: [Int32]

    init(toOne: [Entity.ToOne], attributeColumns: [String], in columns: [String], offset: Int) {
        var position: [String: Int32] = [:]
        for (i, c) in columns.enumerated() where position[c] == nil { position[c] = Int32(offset + i) }
        self.toOne = toOne.map { position[$0.column]! }
        entityKey = toOne.map { $0.entityKeyColumn.flatMap { position[$0] } ?? -1 }
        attributes = attributeColumns.map { position[$0]! }
    }
}

/// Every entity description of a model by name, and the inheritance orders worked out so far:
/// an entity's order is its parent's followed by its own, so each is computed once per model.
/// Recomputing the parents' for every entity and property kind made a chain of inheritance
/// O(depth³): 400 levels took 27 s to load, 800 over 300 s (issue 55, item 10).
///
/// Used while a model is built, on one thread, and dropped with it: not shared.
final class Descriptions {
    private let byName: [String: EntityDescription]
    private var orders: [String: [String]] = [:]
    /// How many entities' property lists were read to work out the orders: at most one per
    /// entity and kind. A deterministic measure of the work, which a test holds linear.
    private(set) var listsRead = 0

    init(_ byName: [String: EntityDescription]) { self.byName = byName }

    subscript(name: String) -> EntityDescription? { byName[name] }

    /// `d`'s property names of `kind` (`names` lists an entity's, inherited ones included) in
    /// inheritance order: the parent's order, then `d`'s own by name.
    func order(_ kind: String, _ d: EntityDescription, names: (EntityDescription) -> [String]) -> [String] {
        let key = kind + "\u{0}" + d.name
        if let known = orders[key] { return known }
        listsRead += 1
        var result = names(d).sorted()
        if let parent = d.parentEntity.flatMap({ byName[$0] }) {
            let inherited = order(kind, parent, names: names)
            let theirs = Set(inherited)
            result = inherited + result.filter { !theirs.contains($0) }
        }
        orders[key] = result
        return result
    }
}
