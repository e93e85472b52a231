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
    /// The model's user info for the entity (loadgen reads roles from it; the engine nothing).
    package var userInfo: [String: String] = [:]

    // MARK: Layout, filled in by the model

    /// `Z_ENT`: the entity's number in the store, 1-based, entities ordered by name.
    package internal(set) var entityID: Int = 0
    /// The entity's table, `Z` + the upper-cased name.
    package internal(set) var tableName: String = ""
    /// The columns after `Z_PK, Z_ENT, Z_OPT`: to-one relationships, then attributes, each by name.
    package internal(set) var columns: [Column] = []

    package init(_ name: String, attributes: [AttributeDescription], relationships: [RelationshipDescription] = [],
                uniquenessConstraints: [[String]] = []) {
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
        }
        package var property: String
        package var name: String
        package var kind: Kind

        /// The attribute's type, nil for a relationship.
        package var attributeType: AttributeType? {
            if case .attribute(let type) = kind { return type } else { return nil }
        }
    }

    // MARK: Lookups

    /// The column index (into `columns`) of a property, nil when it is not stored in a column.
    package func columnIndex(of property: String) -> Int? {
        columns.firstIndex { $0.property == property }
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
