import SQLiteKit

/// An entity as written in code: its attributes, relationships and uniqueness constraints.
///
/// Entities are finished by `ManagedObjectModel`, which numbers them (`Z_ENT`) and lays out
/// their columns; an `EntityDescription` read from a model carries that layout.
package struct EntityDescription: Sendable, Codable {
    package var name: String
    package var attributes: [AttributeDescription]
    package var relationships: [RelationshipDescription]
    /// Each constraint is a list of attribute names that must be unique together
    /// (a real `CREATE UNIQUE INDEX` in the store).
    package var uniquenessConstraints: [[String]]
    /// Named indexes over one or more properties (Xcode's "Fetch Indexes"), each a real index.
    package var fetchIndexes: [FetchIndexDescription] = []
    /// An abstract entity has no instances of its own (Xcode's "Abstract Entity").
    package var isAbstract = false
    /// The entity this one inherits from (Xcode's "Parent Entity"): its properties and
    /// constraints are this one's too, and its rows live in the root entity's table, told apart
    /// by `Z_ENT`.
    package var parentEntity: String?
    /// The model's user info for the entity (loadgen reads roles from it; the engine nothing).
    package var userInfo: [String: String] = [:]

    // MARK: Layout, filled in by the model

    /// `Z_ENT`: the entity's number in the store, 1-based: root entities by name, each followed
    /// by its sub-entities (depth first, by name), as Core Data numbers them.
    package internal(set) var entityID: Int = 0
    /// `Z_SUPER`: the parent entity's number, 0 for a root.
    package internal(set) var superEntityID: Int = 0
    /// The root entity's number: the `Z_PRIMARYKEY` row whose `Z_MAX` hands out this entity's
    /// keys (one key space per table).
    package internal(set) var rootEntityID: Int = 0
    /// The highest `Z_ENT` among this entity and its sub-entities (equal to `entityID` for a
    /// leaf): the hierarchy below an entity is the range `entityID...subentityMaxID`.
    package internal(set) var subentityMaxID: Int = 0
    /// The root entity's table, `Z` + its upper-cased name: every entity of a hierarchy shares it.
    package internal(set) var tableName: String = ""
    /// This entity's columns after `Z_PK, Z_ENT, Z_OPT` (its own and the inherited ones): to-one
    /// relationships, then attributes, each by name; then the entity-key and order-key columns of
    /// its to-ones (`Z<n>_<NAME>`, `Z_FOK_<NAME>`), when they have them.
    package internal(set) var columns: [Column] = []
    /// The root's table in Core Data's column order (`CREATE TABLE`), every entity of the
    /// hierarchy included; empty for a sub-entity.
    package internal(set) var tableColumns: [Column] = []
    /// How many of `uniquenessConstraints` come from the parent entity (first in the list): their
    /// unique index is the parent's.
    package internal(set) var inheritedConstraintCount = 0
    /// The many-to-many relationships whose join table this entity's relationship names.
    package internal(set) var joinTables: [JoinTable] = []

    /// A many-to-many relationship's join table, `Z_<n><RELATIONSHIP>`, with one column per side
    /// (`Z_<n><INVERSE>` holding the `Z_PK` of entity n), as Core Data's `NSSQLManyToMany`
    /// names them, and an order column per ordered side.
    package struct JoinTable: Sendable, Codable, Equatable {
        /// The relationship of this entity that names the table; its inverse shares it.
        package var relationship: String
        package var name: String
        /// The column holding the source's key (this entity's) and the destination's.
        package var sourceColumn: String
        package var destinationColumn: String
        /// `Z_FOK_<n><NAME>`: the position of the source within the destination's ordered
        /// to-many (the inverse is ordered), and of the destination within the source's.
        package var sourceOrderColumn: String?
        package var destinationOrderColumn: String?
    }

    package init(
        _ name: String, attributes: [AttributeDescription], relationships: [RelationshipDescription] = [],
        uniquenessConstraints: [[String]] = []
    ) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
    }

    /// One stored column of an entity.
    package struct Column: Sendable, Codable, Equatable {
        package enum Kind: Sendable, Codable, Equatable {
            case attribute(AttributeType)
            /// A to-one relationship: the destination's `Z_PK`.
            case toOne(destination: String)
            /// The destination's `Z_ENT`, beside a to-one whose destination has sub-entities
            /// (`Z<n>_<NAME>`, n the destination's number: Core Data's foreign entity key).
            case entityKey(relationship: String)
            /// The record's position in the destination's ordered to-many (`Z_FOK_<NAME>`:
            /// Core Data's foreign order key).
            case orderKey(relationship: String)
        }
        package var property: String
        package var name: String
        package var kind: Kind

        /// An attribute's or a to-one's own column (not one of a to-one's key columns).
        package var isProperty: Bool {
            switch kind {
            case .attribute, .toOne: return true
            case .entityKey, .orderKey: return false
            }
        }

        /// The attribute's type, nil for a relationship.
        package var attributeType: AttributeType? {
            if case .attribute(let type) = kind { return type } else { return nil }
        }
    }

    // MARK: Lookups

    /// The entity's own rows as a source of a SELECT: its table, or, when the table holds other
    /// entities of its hierarchy, `(SELECT * FROM <table> WHERE Z_ENT = <n>)`. What the verifier
    /// and the operations' checks read.
    package var ownRows: String {
        superEntityID == 0 && subentityMaxID <= entityID
            ? tableName : "(SELECT * FROM main.\(tableName) WHERE Z_ENT = \(entityID))"
    }

    /// The column index (into `columns`) of a property, nil when it is not stored in a column.
    package func columnIndex(of property: String) -> Int? {
        columns.firstIndex { $0.property == property && $0.isProperty }
    }

    /// The SQL name of a property's column in the store: `Z` + its upper-cased name, with a
    /// number after it when another entity of the hierarchy took that name first (`ZHEIGHT1`).
    /// Falls back to the plain name for a property without a column.
    package func column(of property: String) -> String {
        columns.first { $0.property == property && $0.isProperty }?.name ?? Self.columnName(property)
    }

    /// The relationship named `name`.
    package func relationship(_ name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }

    /// The attribute named `name`.
    package func attribute(_ name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    /// The columns every entity's table begins with: the row's key, its entity and its version.
    package static let fixedColumns = ["Z_PK", "Z_ENT", "Z_OPT"]

    /// The column name Core Data gives a property, `Z` + upper-cased name, as SQL text (quoted
    /// when it is not a plain word: see `SQLIdentifier`).
    package static func columnName(_ property: String) -> String { SQLIdentifier.quoted(storedName(property)) }

    /// `Z` + the upper-cased name: what Core Data calls the table of an entity or the column of a
    /// property, before any quoting. Two names that give the same stored name collide in the store.
    package static func storedName(_ name: String) -> String { "Z" + name.uppercased() }
}

extension EntityDescription.Column.Kind {
    /// The kind as the model's fingerprint (`ManagedObjectModel.versionHash`) spells it: what
    /// `"\(kind)"` printed when the fingerprint was defined, written out, since printing an
    /// enum reflects on it (four conformance look-ups per value: a quarter of a million
    /// instructions each time a container opened its store). `StoreSchemaTests` holds the two
    /// spellings equal, so stores made before keep opening.
    package var fingerprint: String {
        switch self {
        case .attribute(let type): return "attribute(ObjectGraph.AttributeType.\(type.caseName))"
        case .toOne(let destination): return "toOne(destination: \(destination.debugDescription))"
        case .entityKey(let relationship): return "entityKey(relationship: \(relationship.debugDescription))"
        case .orderKey(let relationship): return "orderKey(relationship: \(relationship.debugDescription))"
        }
    }
}
