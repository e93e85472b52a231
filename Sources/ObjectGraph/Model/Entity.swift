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
    }

    /// `Z_ENT`.
    package let id: Int
    package let name: String
    package let tableName: String
    /// Attributes in column order (by name).
    package let attributes: [AttributeDescription]
    /// Column names of `attributes`.
    package let attributeColumns: [String]
    package let toOne: [ToOne]
    package let toMany: [ToMany]
    /// Each uniqueness constraint as attribute indexes.
    package let uniquenessConstraints: [[Int]]
    /// Default values of a newly inserted object.
    package let defaults: [Value]

    // MARK: SQL, built once

    /// `Z_PK, Z_OPT, <to-one columns>, <attribute columns>`: what every fetch of a row reads.
    package let selectColumns: String
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
    /// Their bits in a change mask.
    package let constrainedMask: UInt64
    /// `UPDATE OR FAIL T SET <constrained columns> = ? WHERE Z_PK = ?` (nil without constraints):
    /// Core Data's `updateConstrainedValuesForRow:`.
    package let constrainedUpdateSQL: String?
    /// The save's DELETE of one row, checking its version as every save write does.
    package let deleteSQL: String
    /// The DELETE a merge policy issues over someone else's change (no version to check).
    package let deleteOverwritingSQL: String

    private let attributeIndexByName: [String: Int]
    private let toOneIndexByName: [String: Int]
    private let toManyIndexByName: [String: Int]

    /// `byName`: every entity of the model by name, built once for the model (a model of
    /// thousands of entities must not build it once per entity).
    init(_ d: EntityDescription, byName: [String: EntityDescription]) {
        id = d.entityID
        name = d.name
        tableName = d.tableName
        attributes = d.attributes.sorted { $0.name < $1.name }
        attributeColumns = attributes.map { EntityDescription.columnName($0.name) }
        toOne = d.relationships.filter { !$0.isToMany }.sorted { $0.name < $1.name }.map { r in
            let dest = byName[r.destination]!
            let inverse = r.inverse.flatMap { inv in
                dest.relationships.filter(\.isToMany).sorted { $0.name < $1.name }.firstIndex { $0.name == inv }
            }
            let inverseToOne = r.inverse.flatMap { inv in
                dest.relationships.filter { !$0.isToMany }.sorted { $0.name < $1.name }.firstIndex { $0.name == inv }
            }
            return ToOne(name: r.name, column: EntityDescription.columnName(r.name), destination: byName[r.destination]!.entityID,
                         inverseToMany: inverse, inverseToOne: inverseToOne, isOptional: r.isOptional)
        }
        toMany = d.relationships.filter(\.isToMany).sorted { $0.name < $1.name }.map { r in
            let dest = byName[r.destination]!
            let inverse = dest.relationships.filter { !$0.isToMany }.sorted { $0.name < $1.name }
                .firstIndex { $0.name == r.inverse }
            precondition(inverse != nil, "to-many \(d.name).\(r.name) needs a to-one inverse (many-to-many is not supported)")
            return ToMany(name: r.name, destination: byName[r.destination]!.entityID, inverseToOne: inverse!,
                          isOptional: r.isOptional, minCount: r.minCount, maxCount: r.maxCount)
        }
        attributeIndexByName = Dictionary(uniqueKeysWithValues: attributes.enumerated().map { ($1.name, $0) })
        toOneIndexByName = Dictionary(uniqueKeysWithValues: toOne.enumerated().map { ($1.name, $0) })
        toManyIndexByName = Dictionary(uniqueKeysWithValues: toMany.enumerated().map { ($1.name, $0) })
        let attributeIndex = attributeIndexByName
        uniquenessConstraints = d.uniquenessConstraints.map { $0.map { attributeIndex[$0]! } }
        defaults = attributes.map(\.defaultValue)
        let columns = toOne.map(\.column) + attributeColumns
        selectColumns = (["Z_PK", "Z_OPT"] + columns).joined(separator: ", ")
        let all = EntityDescription.fixedColumns + columns
        insertSQL = Self.insert(tableName, columns: all)
        let constrained = Set(uniquenessConstraints.joined())
        constrainedAttributes = attributes.indices.filter(constrained.contains)
        constrainedMask = constrainedAttributes.reduce(0) { $0 | (1 << UInt64($1)) }
        let attributeColumns = attributeColumns
        let constrainedColumns = constrainedAttributes.map { attributeColumns[$0] }
        saveInsertSQL = Self.insert(tableName, columns: all.filter { !constrainedColumns.contains($0) })
        constrainedUpdateSQL = constrainedColumns.isEmpty ? nil
            : "UPDATE OR FAIL \(tableName) SET " + constrainedColumns.map { "\($0) = ?" }.joined(separator: ", ")
                + " WHERE Z_PK = ?"
        deleteSQL = "DELETE FROM \(tableName) WHERE Z_PK = ? AND Z_OPT = ?"
        deleteOverwritingSQL = "DELETE FROM \(tableName) WHERE Z_PK = ?"
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
