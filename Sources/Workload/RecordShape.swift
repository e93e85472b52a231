/// What a record holds, field by field, and how generated values are made: derived from a model
/// and its roles (see Strategies' `ImportModel`), so that generators and import files know fields,
/// never entities.
///
/// Fields are the record entity's stored attributes in column order, then the fields naming the
/// related object (its key's attributes). Roles point into that list.
package struct RecordShape: Sendable, Hashable, Codable {
    /// Every field, in order.
    package var fields: [FieldSpec]
    /// The fields that make up the record's key (one, or several constrained together).
    package var key: [Int]
    /// The fields that name the related object (its key's values); empty without a relationship.
    package var parentKey: [Int] = []
    /// The related entity's name, for generated names ("Category 51") and messages.
    package var parentEntity: String?
    /// The related entity's other attributes (column order): generated from the related object's
    /// index when it is created, as an app sets them from what it downloaded.
    package var parentFields: [FieldSpec] = []
    /// Each record has a related object of its own (a one-to-one): the related object's index is
    /// the record's key index, so `--parents` does not apply and a repeated key finds its own.
    package var parentPerRecord = false
    /// The objects each record relates to through a many-to-many (`--many-to-many`), nil
    /// without one: as an app writes each product's tags at every sync.
    package var members: Members?

    /// Objects of the many-to-many's destination, `perRecord` of them for each record out of
    /// `pool`, each found by its key (`key`, made from its index as a related object's is) and
    /// created with its other attributes (`fields`).
    package struct Members: Sendable, Hashable, Codable {
        package var relationship: String
        package var entity: String
        package var key: FieldSpec
        package var fields: [FieldSpec]
        package var perRecord: Int
        package var pool: Int
        package init(
            relationship: String, entity: String, key: FieldSpec, fields: [FieldSpec], perRecord: Int, pool: Int
        ) {
            self.relationship = relationship
            self.entity = entity
            self.key = key
            self.fields = fields
            self.perRecord = perRecord
            self.pool = pool
        }
    }
    /// The related entity's to-many back to the record entity (`StoreApp.versions`), nil when the
    /// inverse is a to-one or there is none: an import file may nest the records in an array of
    /// that name inside each related object (`--input-path /apps/*/versions`).
    package var parentCollection: String?
    /// The record entity's name, for messages and generated texts.
    package var entity: String
    /// The field an update or delete selects its targets by (an ordered value: a date or a number),
    /// nil when the record has none.
    package var targetField: Int?
    /// The text field an update writes, nil when the record has none.
    package var updateField: Int?
    /// The array's name in a JSON import file (`{"expenses": [ … ]}`).
    package var arrayName: String
    /// Why keys cannot be generated within the model's limits (nil when they can): records from
    /// a file are still read, generating them is refused with this.
    package var keyProblem: String?

    package init(entity: String, fields: [FieldSpec], key: [Int], arrayName: String) {
        self.entity = entity
        self.fields = fields
        self.key = key
        self.arrayName = arrayName
    }

    /// Attributes a feed fills from one member (the same `mappedKeyName`, as MagicalRecord fills
    /// each attribute mapped to a member): the field the reader reads (a key among them, else
    /// the first) and the fields that take its value. A writer writes the member once. Only
    /// members at the record's level; `ImportModel` refuses two fields of one member that could
    /// not share a value (other types, or a member inside an object).
    package var sharedMembers: [(read: Int, copies: [Int])] {
        var byMember: [String: [Int]] = [:]
        for (i, f) in fields.enumerated() where f.container == nil && !parentKey.contains(i) {
            byMember[f.fileName, default: []].append(i)
        }
        return byMember.values.filter { $0.count > 1 }.map { group in
            let read = group.first { key.contains($0) } ?? group[0]
            return (read, group.filter { $0 != read })
        }.sorted { $0.read < $1.read }
    }

    /// The largest generated binary value, for the payload pool.
    package var largestPayload: Int {
        (fields + parentFields + (members?.fields ?? [])).map {
            if case .payload(let n) = $0.generation { return n } else { return 0 }
        }.max() ?? 0
    }

    /// The field named `name`.
    package func field(named name: String) -> Int? { fields.firstIndex { $0.name == name } }

    /// The fields a repeat with new values changes, and the verifier compares with each key's
    /// last copy (`stale`): the record's own values, not its key, its related object's key, a
    /// value made from the key (a second constraint's), nor a binary payload (compared by the
    /// pool offset only, and kept in files beside large stores).
    package var changingFields: [Int] {
        fields.indices.filter { f in
            guard !key.contains(f), !parentKey.contains(f), !fields[f].isConstrained else { return false }
            switch fields[f].generation {
            case .key, .rangedKey, .parentKey, .payload: return false
            case .words, .text, .cents, .number, .integer, .pastYear, .share, .uuid, .uri: return true
            }
        }
    }
}

/// One field of a record: what it holds, how it is generated and how an import file names it.
package struct FieldSpec: Sendable, Hashable, Codable {
    /// The attribute it fills (for a parent-key field: the related entity's attribute).
    package var name: String
    package var type: FieldType
    package var generation: Generation
    /// The member naming it in an import file (the attribute's name unless the model maps it).
    package var fileName: String
    /// An import file must give it: the model requires it and gives no default.
    package var isRequired = false
    /// For a date a feed gives as a number: its units per second (1000 for milliseconds, as
    /// `--map time=properties.time:ms` says); nil: seconds since 1970, refused when that would
    /// land past the year 3000 (a millisecond count read as seconds).
    package var unitsPerSecond: Double?
    /// A member of one of the entity's uniqueness constraints: a repeat with new values keeps it
    /// (a resent record is the same record under every constraint).
    package var isConstrained = false
    /// For the related object's key: the relationship's member, whose object holds the key under
    /// the destination attribute's name (`"source": {"identifier": …}`), as feeds nest related
    /// objects. Read there as well as under `fileName`.
    package var container: Container?

    /// A relationship's member holding an object, and the member inside it that fills the field
    /// (a key path's members below the first, dots between levels: `place.code` in
    /// `properties.place.code`).
    package struct Container: Sendable, Hashable, Codable {
        package var name: String
        package var member: String

        /// The members from the record down to the field's value (`properties`, `place`,
        /// `code`), as the reader reads them and the writer writes them.
        package var levels: [String] {
            [name] + member.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }
        /// `fileName` repeats an attribute's member (`sourceIdentifier` is both `source` +
        /// `identifier` and an attribute): the file gives the key only in the object, and the
        /// flat name belongs to the attribute.
        package var only: Bool
        package init(name: String, member: String, only: Bool) {
            self.name = name
            self.member = member
            self.only = only
        }
    }

    /// Whether `other` holds what this field holds when a feed gives both from one member: the
    /// same type, read the same way (cents, units of a numeric date), at the record's level.
    package func canShareMember(with other: FieldSpec) -> Bool {
        guard container == nil, other.container == nil, type == other.type, unitsPerSecond == other.unitsPerSecond
        else { return false }
        return isCents == other.isCents
    }

    private var isCents: Bool { if case .cents = generation { true } else { false } }

    /// The member a file names it by at the record's level (nil: only inside its container).
    package var flatName: String? { container?.only == true ? nil : fileName }
    /// How messages name it: the flat member, or the path into its container.
    package var memberPath: String { container.map { $0.only ? "\($0.name).\($0.member)" : fileName } ?? fileName }

    package init(_ name: String, _ type: FieldType, _ generation: Generation, fileName: String? = nil) {
        self.name = name
        self.type = type
        self.generation = generation
        self.fileName = fileName ?? name
    }
}

/// The kinds of value a field holds, as records carry them.
package enum FieldType: String, Sendable, Hashable, Codable {
    /// An integer that fits in `Int64`; `bits` narrows what is generated and read.
    case integer16, integer32, integer64
    /// A floating-point number.
    case real
    /// UTF-8 text (strings, URIs).
    case text
    case bool
    /// Seconds since 2001-01-01 00:00:00 UTC, Core Data's reference date.
    case date
    /// Bytes (binary data, transformables).
    case bytes
    /// A UUID's 16 bytes (written as its string in import files).
    case uuid

    /// The largest value of an integer type.
    package var integerMaximum: Int64? {
        switch self {
        case .integer16: return Int64(Int16.max)
        case .integer32: return Int64(Int32.max)
        case .integer64: return Int64.max
        default: return nil
        }
    }

    package var isInteger: Bool { integerMaximum != nil }

    /// The model's name for an integer type, as messages show it ("Integer 16").
    package var attributeTypeName: String {
        switch self {
        case .integer16: "Integer 16"
        case .integer32: "Integer 32"
        case .integer64: "Integer 64"
        default: rawValue
        }
    }
    /// Whether the value lives in the record's bytes (text, binary, UUID).
    package var isBytes: Bool { self == .text || self == .bytes || self == .uuid }
}

/// How a generated value is made. Every value is a hash of the seed, the key index (or the
/// related object's index) and the field, so a repeated key repeats its record exactly.
package enum Generation: Sendable, Hashable, Codable {
    /// The record's key: distinct for distinct key indexes (a bijection), ascending or in random
    /// order per `--key-order`; a text key is `prefix` + 12 hex digits + `suffix`.
    case key(prefix: String, suffix: String)
    /// An integer key within the model's Min and Max: `minimum` + a bijection of the key index on
    /// `0 ..< count` (ascending: `minimum + k`), so every key satisfies the model's limits.
    case rangedKey(minimum: Int64, count: UInt64)
    /// The related object's key, from its index: a name from `names` (then "<Entity> N"), or N.
    case parentKey(names: NameList?)
    /// "<adjective> <noun> #N": short free text, as notes are.
    case words
    /// Text of a length drawn from the range (in bytes), readable words.
    case text(minimum: Int, maximum: Int)
    /// An amount in whole cents from the range, as a real number of units.
    case cents(minimum: Int, maximum: Int)
    /// A real number from the range.
    case number(minimum: Double, maximum: Double)
    /// An integer from the range.
    case integer(minimum: Int64, maximum: Int64)
    /// A date within the year before 2026-01-01.
    case pastYear
    /// True for this share of records.
    case share(Double)
    /// `bytes` bytes from the shared payload pool (no copy per record).
    case payload(bytes: Int)
    /// A random-looking UUID.
    case uuid
    /// `prefix` + the field's hash in hex: a URL.
    case uri(prefix: String)
}

/// The word lists generated names come from.
package enum NameList: String, Sendable, Hashable, Codable, CaseIterable {
    case categories, albums
}
