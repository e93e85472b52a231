import SQLiteKit

/// A finished model: entities numbered and laid out, relationships checked.
///
/// Immutable once built, so one model is shared by every coordinator and context in a process.
package final class ManagedObjectModel: Sendable {
    /// Entities in `Z_ENT` order (roots by name, each followed by its sub-entities), so
    /// `entities[entityID - 1]` is the entity with that `Z_ENT`.
    package let entities: [EntityDescription]
    /// The run-time form of `entities`, same order: `runtime[entityID - 1]`.
    package let runtime: [Entity]
    /// Some entity keeps positions in an ordered to-many: saves assign them.
    package let hasOrderKeys: Bool
    /// Entities' property lists read while the inheritance orders were worked out: at most one
    /// per entity and kind of property, so a deep hierarchy loads in linear work.
    package let inheritanceListsRead: Int
    /// A fingerprint of the layout, stored in `Z_METADATA`: opening a store with a different
    /// model fails instead of reading columns that mean something else. Computed once here, with
    /// the model: every container checks it when it opens its store, inside the measured window.
    package let versionHash: String
    private let byName: [String: Int]

    /// Builds a model; fails when a relationship names a missing entity or inverse, or a
    /// constraint names a missing attribute.
    package init(_ entities: [EntityDescription]) throws {
        var sorted = try Inheritance.flatten(entities)
        var byName: [String: Int] = [:]
        for (i, e) in sorted.enumerated() { byName[e.name] = i }
        for i in sorted.indices.reversed() {
            sorted[i].entityID = i + 1
            let parent = sorted[i].parentEntity.flatMap { byName[$0] }
            sorted[i].superEntityID = parent.map { $0 + 1 } ?? 0
            sorted[i].subentityMaxID = max(sorted[i].subentityMaxID, i + 1)
            if let parent {
                sorted[parent].subentityMaxID = max(sorted[parent].subentityMaxID, sorted[i].subentityMaxID)
            }
        }
        for i in sorted.indices {
            // Roots come before their sub-entities, so the root's ID is set when a child reads it.
            sorted[i].rootEntityID = i + 1
            if let parent = sorted[i].parentEntity.flatMap({ byName[$0] }) {
                sorted[i].rootEntityID = sorted[parent].rootEntityID
                sorted[i].inheritedConstraintCount = sorted[parent].uniquenessConstraints.count
            }
            sorted[i].tableName = SQLIdentifier.quoted(
                EntityDescription.storedName(sorted[sorted[i].rootEntityID - 1].name))
            try Self.check(sorted[i], byName: byName, all: sorted)
        }
        let layout = StoreLayout(sorted)
        try Self.checkTableWidths(layout, sorted)
        for i in sorted.indices {
            sorted[i].columns = layout.columns[i]
            sorted[i].tableColumns = layout.tableColumns[i]
            sorted[i].joinTables = layout.joinTables[i]
        }
        self.entities = sorted
        self.byName = byName
        let descriptions = Descriptions(Dictionary(uniqueKeysWithValues: sorted.map { ($0.name, $0) }))
        self.runtime = sorted.map { Entity($0, byName: descriptions, all: sorted) }
        hasOrderKeys = runtime.contains(where: \.hasOrderKeys)
        inheritanceListsRead = descriptions.listsRead
        versionHash = Self.versionHash(of: sorted)
    }

    /// A root's table holds the columns of every entity of its hierarchy: past SQLite's limit
    /// (`SQLITE_MAX_COLUMN`) its `CREATE TABLE` fails, for Core Data as here, so the model is
    /// refused before any store is made.
    private static func checkTableWidths(_ layout: StoreLayout, _ entities: [EntityDescription]) throws {
        let limit = SQLIdentifier.maximumColumns
        for (i, table) in layout.tableColumns.enumerated()
        where table.count + EntityDescription.fixedColumns.count > limit {
            throw ModelError.tooManyColumns(
                root: entities[i].name, hierarchy: entities[i].subentityMaxID > entities[i].entityID,
                columns: table.count + EntityDescription.fixedColumns.count, limit: limit)
        }
    }

    /// What the layout needs of an entity: destinations and inverses that exist, constraints and
    /// indexes on its properties, no more properties than the change masks track.
    private static func check(_ entity: EntityDescription, byName: [String: Int], all: [EntityDescription]) throws {
        for r in entity.relationships {
            guard let d = byName[r.destination] else {
                throw ModelError.unknownEntity(r.destination, in: "\(entity.name).\(r.name)")
            }
            if let inverse = r.inverse, all[d].relationship(inverse) == nil {
                throw ModelError.unknownInverse(inverse, in: "\(entity.name).\(r.name)")
            }
        }
        for constraint in entity.uniquenessConstraints {
            for name in constraint where entity.attribute(name) == nil {
                throw ModelError.unknownAttribute(name, in: "\(entity.name) uniqueness constraint")
            }
        }
        for index in entity.fetchIndexes {
            for element in index.elements
            where entity.attribute(element.property) == nil
                && entity.relationship(element.property).map({ $0.isToMany }) != false
            {
                throw ModelError.unknownAttribute(element.property, in: "\(entity.name) fetch index \(index.name)")
            }
        }
        for r in entity.relationships where r.isToMany && r.inverse == nil {
            throw ModelError.toManyWithoutInverse("\(entity.name).\(r.name)")
        }
    }

    /// The entity named `name`.
    package func entity(named name: String) -> EntityDescription? {
        byName[name].map { entities[$0] }
    }

    /// The run-time entity named `name`.
    package func runtimeEntity(named name: String) -> Entity? {
        byName[name].map { runtime[$0] }
    }

    /// The entity with `Z_ENT` = `entityID`.
    package func entity(id entityID: Int) -> EntityDescription {
        entities[entityID - 1]
    }

    /// `versionHash` of `entities`, laid out.
    private static func versionHash(of entities: [EntityDescription]) -> String {
        var text = ""
        for e in entities {
            text += "\(e.entityID):\(e.tableName)("
            text += e.columns.map { $0.name + " " + $0.kind.fingerprint }.joined(separator: ",")
            text += ") idx[" + e.attributes.filter(\.isIndexed).map(\.name).joined(separator: ",")
            text += "] uniq[" + e.uniquenessConstraints.map { $0.joined(separator: "+") }.joined(separator: ";") + "]"
            // Only when there are some, so the models without them keep the hash their stores carry.
            if e.superEntityID != 0 { text += " super\(e.superEntityID)" }
            if !e.joinTables.isEmpty { text += " join[" + e.joinTables.map(\.name).joined(separator: ",") + "]" }
            // Only when there are some, so the bundled models keep the hash their stores carry.
            if !e.fetchIndexes.isEmpty {
                text +=
                    " fetch["
                    + e.fetchIndexes.map { index in
                        index.name + ":"
                            + index.elements.map { $0.property + ($0.ascending ? "+" : "-") }.joined(separator: ",")
                    }.joined(separator: ";") + "]"
            }
            text += ";"
        }
        // FNV-1a 64: stable across runs and machines (Swift's Hasher is seeded per process).
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// A model that cannot be built.
package enum ModelError: Error, CustomStringConvertible, Equatable {
    case unknownEntity(String, in: String)
    case unknownInverse(String, in: String)
    case unknownAttribute(String, in: String)
    case toManyWithoutInverse(String)
    case inheritanceCycle([String])
    /// The table of the hierarchy rooted at `root` needs more columns than SQLite allows.
    case tooManyColumns(root: String, hierarchy: Bool, columns: Int, limit: Int)

    /// The entity the error is about, to say where it is declared.
    package var entity: String? {
        switch self {
        case .unknownEntity(_, let w), .unknownInverse(_, let w), .unknownAttribute(_, let w),
            .toManyWithoutInverse(let w):
            return String(w.prefix { $0 != "." && $0 != " " })
        case .inheritanceCycle(let names): return names.first
        case .tooManyColumns(let root, _, _, _): return root
        }
    }

    package var description: String {
        switch self {
        case .unknownEntity(let n, let w): return "model: \(w) names unknown entity '\(n)'"
        case .unknownInverse(let n, let w): return "model: \(w) names unknown inverse '\(n)'"
        case .unknownAttribute(let n, let w): return "model: \(w) names unknown attribute '\(n)'"
        case .toManyWithoutInverse(let w):
            return "model: \(w) is a to-many without an inverse (one-way to-manys are not supported)"
        case .inheritanceCycle(let names):
            return "model: the parent entities of \(names.joined(separator: ", ")) form a cycle"
        case .tooManyColumns(let root, let hierarchy, let columns, let limit):
            let table =
                hierarchy
                ? "the table of \(root) and its sub-entities (one table for the whole hierarchy, as Core Data lays it out)"
                : "the table of \(root) (a column per attribute and to-one, with Z_PK, Z_ENT and Z_OPT)"
            return
                "model: \(table) needs \(columns) columns, and SQLite allows at most \(limit) in a table (SQLITE_MAX_COLUMN): "
                + "Core Data's CREATE TABLE would fail too; " + (hierarchy ? "split the hierarchy" : "split the entity")
        }
    }
}
