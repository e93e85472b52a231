import ObjectGraph
import Report
import SQLiteKit
import Workload

/// A model ready for an import: the store's entities exactly as the model declares them (with
/// the run's what-ifs, `--add-constraint` and `--add-index`), the record and related entities,
/// and the record shape generators and import files follow. One place, so strategies,
/// generators and the verifier cannot disagree, and none of them knows an entity by name. Every
/// strategy of a run writes the same store layout (decision 0039).
package struct ImportModel: Sendable {
    /// The model's name (`Expenses`, or a team's model).
    package let name: String
    package let roles: ImportRoles
    package let model: ManagedObjectModel
    package let recordEntity: EntityDescription
    package let parentEntity: EntityDescription?
    package let shape: RecordShape
    /// The record entity's uniqueness constraints: what the verifier counts duplicates under.
    package let recordConstraints: [[String]]

    /// Builds the model of `source`.
    package init(_ source: ImportSource, options: ShapeOptions) throws {
        name = source.file.name
        roles = source.roles
        model = try ManagedObjectModel(source.file.entities)
        let model = self.model
        recordEntity = model.entity(named: source.roles.entity)!
        recordConstraints = recordEntity.uniquenessConstraints
        parentEntity = source.roles.parentEntity.flatMap { model.entity(named: $0) }
        shape = try source.shape(options)
    }

    /// The store refuses a second row for a repeated record: the record entity has a uniqueness
    /// constraint, and a repeated record repeats every constrained value (`RecordShape`'s
    /// secondary keys). A plain INSERT of the repeat would abort; SQLite's cheapest statement
    /// the store accepts is `INSERT OR IGNORE`.
    package var refusesRepeatedRecords: Bool { !recordConstraints.isEmpty }

    // MARK: The shape

    static func shape(
        _ record: EntityDescription, _ parent: EntityDescription?, members memberEntity: EntityDescription? = nil,
        _ roles: ImportRoles, _ options: ShapeOptions
    ) throws -> RecordShape {
        let attributes = record.attributes.sorted { $0.name < $1.name }   // column order
        let secondary = secondaryKeys(of: record, key: roles.key)
        var fields: [FieldSpec] = []
        var keyProblem: String?
        for a in attributes {
            let generation: Generation
            if a.name == roles.key.first {
                (generation, keyProblem) = try keyGeneration(a, in: record.name)
            } else if secondary.contains(a.name) {
                let (made, problem) = try keyGeneration(a, in: record.name, prefix: "\(a.name.lowercased())-")
                (generation, keyProblem) = (made, keyProblem ?? problem)
            } else {
                generation = try hinted(a, in: record.name, options)
            }
            var field = try FeedMember(
                options.member(a.name, of: record.name, userInfo: a.userInfo), of: a, in: record.name
            )
            .field(a.name, FieldType(a.type), generation)
            field.isRequired = !a.isOptional && a.defaultValue.isNull
            field.isConstrained = record.uniquenessConstraints.contains { $0.contains(a.name) }
            fields.append(field)
        }
        if options.usesFeed { try checkMembers(fields, of: record.name) }
        let key = roles.key.map { name in fields.firstIndex { $0.name == name }! }
        var shape = RecordShape(
            entity: record.name, fields: fields, key: key,
            arrayName: record.userInfo[GenerationHints.arrayName] ?? record.name.lowercased() + "s")
        shape.keyProblem = keyProblem
        if let parent, let relationship = roles.relationship.flatMap(record.relationship), !roles.parentKeys.isEmpty {
            try addRelated(parent, through: relationship, roles, options, to: &shape)
        }
        shape.members = try memberEntity.flatMap { try members(of: roles, in: $0, options) }
        let keySet = Set(roles.key)
        let constrained = Set(record.uniquenessConstraints.joined())
        let others = attributes.filter { !keySet.contains($0.name) }
        let target =
            others.first { $0.type == .date }
            ?? others.first { $0.type.storage == .real || $0.type.storage == .integer }
        shape.targetField = target.flatMap { t in fields.firstIndex { $0.name == t.name } }
        shape.updateField = others.first { $0.type == .string && !constrained.contains($0.name) }
            .flatMap { u in fields.firstIndex { $0.name == u.name } }
        return shape
    }

    /// The objects records relate to through `--many-to-many`: the destination's key made from
    /// each member's index, its other attributes generated (its other constraints kept).
    private static func members(of roles: ImportRoles, in entity: EntityDescription, _ options: ShapeOptions) throws
        -> RecordShape.Members?
    {
        guard let relationship = roles.manyToMany, let keyName = roles.memberKey, let a = entity.attribute(keyName)
        else { return nil }
        let entityName = entity.name
        let secondary = secondaryKeys(of: entity, key: [keyName])
        let fields = try entity.attributes.sorted { $0.name < $1.name }.filter { $0.name != keyName }.map { a in
            FieldSpec(
                a.name, FieldType(a.type),
                secondary.contains(a.name) ? .parentKey(names: nil) : try hinted(a, in: entityName, options))
        }
        return RecordShape.Members(
            relationship: relationship, entity: entityName,
            key: FieldSpec(keyName, FieldType(a.type), .parentKey(names: nil)), fields: fields,
            perRecord: options.membersPerRecord, pool: options.memberPool)
    }

    /// One member of each uniqueness constraint the key is not part of, made from the key index
    /// like the key (distinct for distinct keys, the same for a repeated record): an entity kept
    /// unique by `[uuid]` and `[syncIdentifier]`, or by `[uuid]` and `[timestamp, host]`, gets
    /// records distinct under every constraint, as an app's records are. A Boolean cannot be
    /// distinct: a constraint of Booleans only keeps its generated values.
    static func secondaryKeys(of entity: EntityDescription, key: [String]) -> Set<String> {
        var chosen = Set(key)
        var made: Set<String> = []
        for constraint in entity.uniquenessConstraints where chosen.isDisjoint(with: constraint) {
            guard let member = constraint.first(where: { entity.attribute($0).map(Self.canBeKeyed) ?? false }) else {
                continue
            }
            chosen.insert(member)
            made.insert(member)
        }
        return made
    }

    /// Types a value can be made distinct in, from a key index.
    static func canBeKeyed(_ a: AttributeDescription) -> Bool { a.type != .boolean && a.type != .transformable }

    /// Two attributes a feed fills from one member (the same `mappedKeyName`, or a `--map` that
    /// gives one attribute's member to another): MagicalRecord fills both, and so does the reader
    /// (`RecordShape.sharedMembers`) when they hold the same type at the record's level. Two of
    /// other types (or a member inside an object) would need the member read twice, which the
    /// reader does not: a run that reads or writes a feed refuses them naming both, their lines
    /// (`ImportSource` adds them) and the way out; generated records need no member.
    private static func checkMembers(_ fields: [FieldSpec], of entity: String) throws(SharedMember) {
        var byMember: [String: FieldSpec] = [:]
        for f in fields {
            let member = f.memberPath
            if let other = byMember[member], !other.canShareMember(with: f) {
                throw SharedMember(entity: entity, first: other.name, second: f.name, member: member)
            }
            byMember[member] = byMember[member] ?? f
        }
    }

    /// Two attributes of `entity` read from one member of the feed.
    struct SharedMember: Error {
        let entity: String
        let first: String
        let second: String
        let member: String

        /// The refusal at the model's lines when they are known: `path:line` of the first in the
        /// file, and the other's line.
        func refusal(in file: ModelFile) -> ImportModelError {
            let both = [first, second].map { (name: $0, line: file.line(ofAttribute: $0, in: entity)) }
                .sorted { ($0.line ?? .max) < ($1.line ?? .max) }
            let place = both[0].line.map { "\(file.path):\($0): " } ?? ""
            let otherLine = both[1].line.map { " (line \($0))" } ?? ""
            return ImportModelError(
                "model: \(place)\(entity).\(both[0].name) and \(entity).\(both[1].name)\(otherLine) are both read from "
                    + "the member \"\(member)\" (their mappedKeyName or --map) but hold different types or sit in an "
                    + "object, so one value cannot fill both: give one of them its own member (--map \(both[1].name)=MEMBER)",
                kind: .malformed)
        }
    }

    /// The related object's key fields (named `<relationship><Key>`, or the relationship's
    /// mappedKeyName, and read from a nested object too), and its other attributes, generated
    /// when it is created.
    private static func addRelated(
        _ parent: EntityDescription, through relationship: RelationshipDescription, _ roles: ImportRoles,
        _ options: ShapeOptions, to shape: inout RecordShape
    ) throws {
        for parentKey in roles.parentKeys {
            let a = parent.attribute(parentKey)!
            let names: NameList? = a.userInfo[GenerationHints.generate].flatMap {
                if case .parentKey(let list)? = GenerationHints.parse($0, payloadBytes: 0) {
                    return list
                } else {
                    return nil
                }
            }
            // The relationship's member (`--map`, mappedKeyName) names a key of one attribute.
            let relationshipMember = options.member(
                relationship.name, of: shape.entity, userInfo: relationship.userInfo)
            let mapped =
                roles.parentKeys.count == 1 && relationshipMember != relationship.name ? relationshipMember : nil
            let fileName = mapped ?? relationship.name + parentKey.prefix(1).uppercased() + parentKey.dropFirst()
            var keyField = FieldSpec(parentKey, FieldType(a.type), .parentKey(names: names), fileName: fileName)
            let taken = shape.fields.contains { $0.fileName == fileName }
            // Inside the related object (a nested object under the relationship's member, or the
            // element holding the records) the key is under the destination attribute's own member.
            keyField.container = .init(
                name: relationshipMember, member: options.member(parentKey, of: parent.name, userInfo: a.userInfo),
                only: taken)
            shape.fields.append(keyField)
            shape.parentKey.append(shape.fields.count - 1)
        }
        shape.parentEntity = parent.name
        shape.parentPerRecord = roles.parentInverse != nil
        shape.parentCollection = roles.parentCollection.map { inverse in
            options.member(inverse, of: parent.name, userInfo: parent.relationship(inverse)?.userInfo ?? [:])
        }
        let parentKeys = Set(roles.parentKeys)
        // The related object's other constraints are kept by values made from its index, as its key.
        let secondary = secondaryKeys(of: parent, key: roles.parentKeys)
        shape.parentFields = try parent.attributes.sorted { $0.name < $1.name }.filter { !parentKeys.contains($0.name) }
            .map { a in
                let generation =
                    secondary.contains(a.name) ? .parentKey(names: nil) : try hinted(a, in: parent.name, options)
                var field = FieldSpec(
                    a.name, FieldType(a.type), generation,
                    fileName: options.member(a.name, of: parent.name, userInfo: a.userInfo))
                field.isRequired = !a.isOptional && a.defaultValue.isNull
                return field
            }
    }

    /// The key's generation, within the model's limits on it: a text key's prefix shortened (or
    /// padded) to fit its Min and Max Length, an integer key drawn from its Min … Max. Keys the
    /// limits cannot hold are refused here, so that no strategy is blamed for the generator's
    /// values (issue 27).
    private static func keyGeneration(
        _ a: AttributeDescription, in entity: String,
        prefix defaultPrefix: String? = nil
    ) throws -> (Generation, problem: String?) {
        let what = "\(entity).\(a.name)"
        if let range = a.type.integerRange {
            guard a.minimum != nil || a.maximum != nil else { return (.key(prefix: "", suffix: ""), nil) }
            let low = Int64(max(Double(range.lowerBound), (a.minimum ?? 0).rounded(.up)))
            let high = a.maximum.map { Int64(min(Double(range.upperBound), $0.rounded(.down))) } ?? range.upperBound
            guard low <= high else {
                throw ImportModelError("model: \(what): its Min and Max hold no integer key", kind: .malformed)
            }
            let span = UInt64(bitPattern: high &- low)
            return (.rangedKey(minimum: low, count: min(span, UInt64(1) << 48) + 1), nil)
        }
        guard a.type.storage == .text else { return (.key(prefix: "", suffix: ""), nil) }
        let hinted = a.userInfo[GenerationHints.keyPrefix]
        var prefix = hinted ?? defaultPrefix ?? "\(entity.lowercased())-"
        let suffix = a.userInfo[GenerationHints.keySuffix] ?? ""
        let digits = Generator.keyDigits
        var length: Int { prefix.utf8.count + digits + suffix.utf8.count }
        if let maximum = a.maximum.map(Int.init), length > maximum {
            guard hinted == nil, digits + suffix.utf8.count <= maximum else {
                // Keys from a file may fit; only generating them is refused (`RecordShape.keyProblem`).
                let problem =
                    "model: \(what) holds at most \(maximum) characters; a generated key is \(prefix.isEmpty ? "" : "\"\(prefix)\" + ")"
                    + "\(digits) hex digits\(suffix.isEmpty ? "" : " + \"\(suffix)\"") (\(length)): raise its Max Length, "
                    + "shorten \(GenerationHints.keyPrefix)/\(GenerationHints.keySuffix), or import your keys with --input"
                return (.key(prefix: prefix, suffix: suffix), problem)
            }
            prefix = String(decoding: prefix.utf8.prefix(maximum - digits - suffix.utf8.count), as: UTF8.self)
        }
        if let minimum = a.minimum.map(Int.init), length < minimum {
            prefix += String(repeating: "0", count: minimum - length)
        }
        return (.key(prefix: prefix, suffix: suffix), nil)
    }

    /// The generation the attribute's `loadgen.generate` names, or the default for its type.
    private static func hinted(_ a: AttributeDescription, in entity: String, _ options: ShapeOptions) throws
        -> Generation
    {
        if let bytes = options.attributeBytes["\(entity).\(a.name)"], a.type == .binary || a.type == .transformable {
            return .payload(bytes: max(Int(a.minimum ?? 0), a.maximum.map { min(Int($0), bytes) } ?? bytes))
        }
        guard let hint = a.userInfo[GenerationHints.generate] else {
            return GenerationHints.byType(a, entity: entity, options: options)
        }
        guard let generation = GenerationHints.parse(hint, payloadBytes: options.payloadBytes) else {
            throw ImportModelError(
                "model: \(entity).\(a.name): \(GenerationHints.generate) \"\(hint)\" is not one of: \(GenerationHints.accepted)",
                kind: .malformed)
        }
        return generation
    }

    // MARK: What the verifier reads

    /// Where the records live, for the verifier.
    package var verifierLayout: StoreVerifier.Layout {
        var layout = StoreVerifier.Layout(
            table: recordEntity.ownRows,
            keyColumns: roles.key.map { recordEntity.column(of: $0) })
        if let relationship = roles.relationship, let parentEntity, !roles.parentKeys.isEmpty {
            layout.parent = .init(
                column: recordEntity.column(of: relationship), table: parentEntity.ownRows,
                keyColumns: roles.parentKeys.map { parentEntity.column(of: $0) })
            layout.parent?.inverseColumn = roles.parentInverse.map { parentEntity.column(of: $0) }
        }
        layout.historyChangeTable = HistorySchema.changeTable
        layout.valueColumns = shape.changingFields.map { recordEntity.column(of: shape.fields[$0].name) }
        let key = Set(roles.key)
        layout.otherConstraints = recordConstraints.filter { Set($0) != key }.map {
            $0.map { recordEntity.column(of: $0) }
        }
        layout.join = shape.members.flatMap { m in
            model.entity(named: m.entity).flatMap { destination in
                Self.joinColumns(recordEntity, m, destination).map {
                    StoreVerifier.Layout.Join(
                        table: $0.table, recordColumn: $0.record, memberColumn: $0.member,
                        memberTable: destination.ownRows, memberKeyColumn: destination.column(of: m.key.name))
                }
            }
        }
        layout.externalColumns = [recordEntity, parentEntity].compactMap { $0 }.flatMap { e in
            e.attributes.filter(\.allowsExternalStorage).map { (table: e.tableName, column: e.column(of: $0.name)) }
        }
        layout.abstractEntities = model.entities.filter(\.isAbstract).map {
            .init(table: $0.tableName, entityID: $0.entityID, name: $0.name)
        }
        return layout
    }

    /// The join table of the records' many-to-many and each side's column, from whichever entity
    /// names the table.
    static func joinColumns(
        _ record: EntityDescription, _ m: RecordShape.Members,
        _ destination: EntityDescription
    ) -> (table: String, record: String, member: String)? {
        if let j = record.joinTables.first(where: { $0.relationship == m.relationship }) {
            return (j.name, j.sourceColumn, j.destinationColumn)
        }
        guard let inverse = record.relationship(m.relationship)?.inverse,
            let j = destination.joinTables.first(where: { $0.relationship == inverse })
        else { return nil }
        return (j.name, j.destinationColumn, j.sourceColumn)
    }

    /// The most unique keys the key's type can hold distinct (an Integer 16 key holds 32767).
    package var keyCapacity: Int {
        guard let key = shape.key.first else { return 1 << 47 }
        let first = shape.fields[key]
        if case .rangedKey(_, let count) = first.generation { return Int(min(count, UInt64(1) << 47)) }
        return first.type.integerMaximum.map { Int(min($0, Int64(1) << 47)) } ?? (1 << 47)
    }
}
