/// The kinds of value an attribute stores, with the SQLite column type Core Data gives each.
package enum AttributeType: String, Sendable, Codable {
    case integer64, double, string, date, boolean, binary

    /// The declared column type in the store, as Core Data writes it.
    var columnType: String {
        switch self {
        case .integer64, .boolean: return "INTEGER"
        case .double: return "FLOAT"
        case .string: return "VARCHAR"
        case .date: return "TIMESTAMP"
        case .binary: return "BLOB"
        }
    }
}

/// An attribute of an entity: a named, typed column.
package struct AttributeDescription: Sendable, Equatable, Codable {
    package var name: String
    package var type: AttributeType
    /// A plain (non-unique) index on the column, Core Data's "fetch index": what a find-or-create
    /// by this attribute needs to avoid scanning the table.
    package var isIndexed: Bool
    /// The value a newly inserted object starts with.
    package var defaultValue: Value
    /// Core Data's `isOptional` (Xcode's default for a new attribute): a required attribute left
    /// nil fails validation when the object is saved.
    package var isOptional: Bool
    /// The model's minimum and maximum (Xcode's "Min" and "Max"): a number's value, a string's
    /// length in characters, a binary's length in bytes. Checked at save.
    package var minimum: Double?
    package var maximum: Double?

    package init(_ name: String, _ type: AttributeType, indexed: Bool = false, default defaultValue: Value = .null,
                 optional: Bool = true, minimum: Double? = nil, maximum: Double? = nil) {
        self.name = name
        self.type = type
        self.isIndexed = indexed
        self.defaultValue = defaultValue
        self.isOptional = optional
        self.minimum = minimum
        self.maximum = maximum
    }
}

/// A relationship from one entity to another. To-one relationships are a foreign-key column;
/// to-many relationships are the inverse of a to-one and have no column of their own.
package struct RelationshipDescription: Sendable, Equatable, Codable {
    package var name: String
    package var destination: String
    package var inverse: String?
    package var isToMany: Bool

    package init(_ name: String, to destination: String, inverse: String?, toMany: Bool = false) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = toMany
    }
}
