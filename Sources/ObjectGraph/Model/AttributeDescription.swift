/// The kinds of value an attribute stores: Core Data's attribute types, each with the SQLite
/// column type Core Data gives it and the kind of `Value` the engine keeps.
///
/// The raw values are the names Xcode writes in a model file's `attributeType`.
package enum AttributeType: String, Sendable, Codable, CaseIterable {
    case integer16 = "Integer 16", integer32 = "Integer 32", integer64 = "Integer 64"
    case decimal = "Decimal", double = "Double", float = "Float"
    case string = "String", boolean = "Boolean", date = "Date", binary = "Binary"
    case uuid = "UUID", uri = "URI", transformable = "Transformable"

    /// The case's name as Swift prints it (`integer16`), without reflection.
    var caseName: String {
        switch self {
        case .integer16: return "integer16"
        case .integer32: return "integer32"
        case .integer64: return "integer64"
        case .decimal: return "decimal"
        case .double: return "double"
        case .float: return "float"
        case .string: return "string"
        case .boolean: return "boolean"
        case .date: return "date"
        case .binary: return "binary"
        case .uuid: return "uuid"
        case .uri: return "uri"
        case .transformable: return "transformable"
        }
    }

    /// The declared column type in the store, as Core Data writes it: integers and booleans
    /// INTEGER, floating point FLOAT, decimals DECIMAL, strings and URIs VARCHAR, dates TIMESTAMP,
    /// and bytes (binary data, UUIDs as their 16 bytes, transformables as their archive) BLOB.
    var columnType: String {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .float: return "FLOAT"
        case .decimal: return "DECIMAL"
        case .string, .uri: return "VARCHAR"
        case .date: return "TIMESTAMP"
        case .binary, .uuid, .transformable: return "BLOB"
        }
    }

    /// How the engine holds a value of this type (and binds it).
    package var storage: Storage {
        switch self {
        case .integer16, .integer32, .integer64: return .integer
        case .decimal, .double, .float: return .real
        case .string, .uri: return .text
        case .boolean: return .bool
        case .date: return .date
        case .binary, .uuid, .transformable: return .bytes
        }
    }

    /// The `Value` case an attribute's values take.
    package enum Storage: Sendable, Equatable {
        case integer, real, text, bool, date, bytes
    }

    /// The largest magnitude an integer type holds (Core Data refuses a value that does not fit).
    package var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: return Int64(Int16.min)...Int64(Int16.max)
        case .integer32: return Int64(Int32.min)...Int64(Int32.max)
        case .integer64: return Int64.min...Int64.max
        default: return nil
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
    /// The model's user info (Xcode's "User Info" pane): loadgen reads how to generate or map the
    /// attribute from it (see ModelRoles), the engine nothing.
    package var userInfo: [String: String] = [:]
    /// Xcode's "Allows External Storage": a value past 128 KiB is kept in a file beside the store
    /// (`ExternalStorage`), and the column frames every value.
    package var allowsExternalStorage = false
    /// A Transformable's value transformer and the class of its values (Xcode's "Transformer"
    /// and "Custom Class": `NSSecureUnarchiveFromData`, `[Int64]`): what tells the size of the
    /// archive Core Data stores. The engine stores the bytes given and runs no transformer.
    package var valueTransformer: String?
    package var valueClass: String?

    package init(
        _ name: String, _ type: AttributeType, indexed: Bool = false, default defaultValue: Value = .null,
        optional: Bool = true, minimum: Double? = nil, maximum: Double? = nil
    ) {
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
/// a to-many whose inverse is a to-one has no column of its own; a to-many whose inverse is a
/// to-many (many-to-many) is a join table.
package struct RelationshipDescription: Sendable, Equatable, Codable {
    package var name: String
    package var destination: String
    package var inverse: String?
    package var isToMany: Bool
    /// Core Data's `isOptional`: a required to-one left nil fails a save.
    package var isOptional = true
    /// What deleting the source does to the destination: acted on by a context's delete and by a
    /// batch delete's triggers, as Core Data acts on it.
    package var deleteRule: DeleteRule = .nullify
    /// A to-many's `minCount` and `maxCount` (nil: no bound; Core Data's 0). A required to-many
    /// without a `minCount` may be empty: `-[NSRelationshipDescription _nonPredicateValidateValue:…]`
    /// compares the count with `minCount` only when it is not 0.
    package var minCount: Int?
    package var maxCount: Int?
    /// Xcode's "Ordered" (an `NSOrderedSet`): the members' positions are stored, in a
    /// `Z_FOK_<inverse>` column of the members' table (or of the join table of a many-to-many).
    package var isOrdered = false
    package var userInfo: [String: String] = [:]

    package init(_ name: String, to destination: String, inverse: String?, toMany: Bool = false) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = toMany
    }

    /// Core Data's deletion rules, as Xcode names them.
    package enum DeleteRule: String, Sendable, Codable {
        case noAction = "No Action", nullify = "Nullify", cascade = "Cascade", deny = "Deny"
    }
}

/// A fetch index (Xcode's "Fetch Indexes"): a named index over one or more properties.
package struct FetchIndexDescription: Sendable, Equatable, Codable {
    package var name: String
    /// The properties in index order, each ascending or not.
    package var elements: [(property: String, ascending: Bool)]

    package init(_ name: String, elements: [(property: String, ascending: Bool)]) {
        self.name = name
        self.elements = elements
    }

    package static func == (a: Self, b: Self) -> Bool {
        a.name == b.name
            && a.elements.elementsEqual(b.elements) { $0.property == $1.property && $0.ascending == $1.ascending }
    }

    private enum CodingKeys: String, CodingKey { case name, properties, ascending }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        let properties = try c.decode([String].self, forKey: .properties)
        let ascending = try c.decode([Bool].self, forKey: .ascending)
        elements = zip(properties, ascending).map { ($0, $1) }
    }
    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(elements.map(\.property), forKey: .properties)
        try c.encode(elements.map(\.ascending), forKey: .ascending)
    }
}
