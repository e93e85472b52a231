import SQLiteKit

/// Where each property of a model lives in the store, as Core Data lays it out: one table per
/// root entity, a column per attribute and to-one (a number after a name another entity of the
/// hierarchy took first), the foreign entity key and foreign order key beside a to-one that needs
/// them, and a join table per many-to-many. The one definition of names and column order that
/// the schema, the run-time entities, `raw-sqlite` and the verifier derive from.
struct StoreLayout {
    /// Per entity (by `Z_ENT` - 1): its columns, as `EntityDescription.columns`.
    private(set) var columns: [[EntityDescription.Column]]
    /// Per entity: its table in `CREATE TABLE` order (roots only; empty for a sub-entity).
    private(set) var tableColumns: [[EntityDescription.Column]]
    /// Per entity: the join tables its relationships name.
    private(set) var joinTables: [[EntityDescription.JoinTable]]

    /// `entities` numbered, in `Z_ENT` order, flattened (`Inheritance.flatten`).
    init(_ entities: [EntityDescription]) {
        columns = Array(repeating: [], count: entities.count)
        tableColumns = columns
        joinTables = Array(repeating: [], count: entities.count)
        let index = Dictionary(uniqueKeysWithValues: entities.enumerated().map { ($1.name, $0) })
        var start = 0
        while start < entities.count {
            let end = entities[start].subentityMaxID
            layOutTable(Array(entities[start..<end]), index: index, all: entities)
            start = end
        }
        nameJoinTables(entities, index: index)
    }

    // MARK: Tables

    /// A column as a table declares it: its kind's group and order within the group, the name
    /// it sorts by, and the column.
    private typealias Declared = (group: Int, order: Int, name: String, column: EntityDescription.Column)

    /// One root's table: names handed out in `Z_ENT` order, so the first entity to use a name
    /// keeps it and a later one gets `ZNAME1` (`NSSQLStoreMappingGenerator uniqueNameWithBase:`).
    private mutating func layOutTable(_ hierarchy: [EntityDescription], index: [String: Int], all: [EntityDescription])
    {
        var names = UniqueNames()
        var declared: [[Declared]] = []
        var inheritedColumns: [String: [EntityDescription.Column]] = [:]
        for e in hierarchy {
            let parentColumns = e.parentEntity.flatMap { inheritedColumns[$0] } ?? []
            let inherited = Set(parentColumns.map(\.property))
            var own: [Declared] = []
            for r in e.relationships.sorted(by: { $0.name < $1.name }) where !r.isToMany && !inherited.contains(r.name)
            {
                own += Self.toOneColumns(r, destination: all[index[r.destination]!], names: &names)
            }
            for a in e.attributes.sorted(by: { $0.name < $1.name }) where !inherited.contains(a.name) {
                let name = names.take(EntityDescription.storedName(a.name))
                own.append(
                    (Self.group(a.type), 0, a.name, .init(property: a.name, name: name, kind: .attribute(a.type))))
            }
            declared.append(own)
            let mine = parentColumns + own.map(\.column)
            inheritedColumns[e.name] = mine
            columns[e.entityID - 1] = Self.runtimeOrder(mine)
        }
        // Core Data's order (store dumps: a notes app's ZSFNOTEFILE, a reader's ZBKLIBRARYASSET):
        // by kind of value, then entity by entity, then by name; to-ones after the integers.
        tableColumns[hierarchy[0].entityID - 1] = (0..<Self.groups).flatMap { group in
            declared.flatMap { own in
                own.filter { $0.group == group }.sorted { ($0.order, $0.name) < ($1.order, $1.name) }.map(\.column)
            }
        }
    }

    /// A to-one's columns: its foreign key, its destination's entity key where the destination
    /// has sub-entities (`Z<n>_<NAME>`), and its order key where the inverse is an ordered
    /// to-many (`Z_FOK_<NAME>`).
    private static func toOneColumns(
        _ r: RelationshipDescription, destination: EntityDescription, names: inout UniqueNames
    ) -> [Declared] {
        var out: [Declared] = [
            (
                0, 1, r.name,
                .init(
                    property: r.name, name: names.take(EntityDescription.storedName(r.name)),
                    kind: .toOne(destination: r.destination))
            )
        ]
        if destination.subentityMaxID > destination.entityID {
            let name = names.take("Z\(destination.entityID)_\(r.name.uppercased())")
            out.append(
                (0, 1, r.name + "\u{1}", .init(property: r.name, name: name, kind: .entityKey(relationship: r.name))))
        }
        if let inverse = r.inverse.flatMap(destination.relationship), inverse.isToMany, inverse.isOrdered {
            let name = names.take("Z_FOK_" + r.name.uppercased())
            out.append(
                (0, 1, r.name + "\u{2}", .init(property: r.name, name: name, kind: .orderKey(relationship: r.name))))
        }
        return out
    }

    /// The run-time order: to-ones then attributes, each by name, then the to-ones' key columns.
    private static func runtimeOrder(_ columns: [EntityDescription.Column]) -> [EntityDescription.Column] {
        func rank(_ c: EntityDescription.Column) -> Int {
            switch c.kind {
            case .toOne: 0
            case .attribute: 1
            case .entityKey: 2
            case .orderKey: 3
            }
        }
        return columns.sorted { (rank($0), $0.property) < (rank($1), $1.property) }
    }

    private static let groups = 5

    /// The kind of value a column holds, in the order Core Data writes the groups: integers and
    /// Booleans (then the to-ones), dates and floating point together, decimals, text, bytes.
    private static func group(_ type: AttributeType) -> Int {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: 0
        case .date, .double, .float: 1
        case .decimal: 2
        case .string, .uri: 3
        case .binary, .uuid, .transformable: 4
        }
    }

    // MARK: Join tables

    /// A join table per many-to-many, named by one side `Z_<n><NAME>` with a column per side,
    /// `Z_<n><INVERSE>` holding entity n's key, and `Z_FOK_<n><INVERSE>` for an ordered inverse
    /// (`-[NSSQLManyToMany _setInverseManyToMany:]`, decompiled iOS 18.2). The relationship of
    /// the entity with the lower `Z_ENT` names it here (most store dumps read); Core Data names
    /// it after whichever side it reaches first.
    private mutating func nameJoinTables(_ entities: [EntityDescription], index: [String: Int]) {
        var named: Set<String> = []
        // Core Data uniques join columns per entity (its mapping generator is the entity's).
        var names = Array(repeating: UniqueNames(), count: entities.count)
        func unique(_ base: String, _ entity: Int) -> String { names[entity].take(base) }
        for e in entities {
            let inherited = e.parentEntity.map { p in Set(entities[index[p]!].relationships.map(\.name)) } ?? []
            for r in e.relationships.sorted(by: { $0.name < $1.name }) where r.isToMany && !inherited.contains(r.name) {
                guard let inverseName = r.inverse, let d = index[r.destination],
                    let inverse = entities[d].relationship(inverseName), inverse.isToMany,
                    !named.contains("\(r.destination).\(inverseName)")
                else { continue }
                named.insert("\(e.name).\(r.name)")
                let source = e.entityID - 1
                let destination = d
                joinTables[source].append(
                    .init(
                        relationship: r.name, name: SQLIdentifier.quoted("Z_\(e.entityID)\(r.name.uppercased())"),
                        sourceColumn: unique("Z_\(e.entityID)\(inverseName.uppercased())", source),
                        destinationColumn: unique("Z_\(d + 1)\(r.name.uppercased())", destination),
                        sourceOrderColumn: inverse.isOrdered
                            ? unique("Z_FOK_\(e.entityID)\(inverseName.uppercased())", source) : nil,
                        destinationOrderColumn: r.isOrdered
                            ? unique("Z_FOK_\(d + 1)\(r.name.uppercased())", destination) : nil))
            }
        }
    }
}

/// Names handed out in one namespace: the first to ask for a name keeps it, a later one gets a
/// number after it (`ZHEIGHT1`), as `NSSQLStoreMappingGenerator uniqueNameWithBase:` does.
private struct UniqueNames {
    private var used: Set<String> = []

    /// `base`, or `base` with the first number that makes it unused; as SQL text.
    mutating func take(_ base: String) -> String {
        var name = base
        var n = 0
        while used.contains(name) {
            n += 1
            name = base + String(n)
        }
        used.insert(name)
        return SQLIdentifier.quoted(name)
    }
}
