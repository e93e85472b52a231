import Foundation
import SQLiteKit

/// The store layout, derived from the model: the one definition every writer of a store uses,
/// the engine and `raw-sqlite` alike.
package enum StoreSchema {
    /// The statements that create an empty store for `model`.
    package static func createStatements(for model: ManagedObjectModel) -> [String] {
        var sql: [String] = []
        for e in model.entities {
            let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                + e.columns.map { "\($0.name) \(columnType($0))" }
            sql.append("CREATE TABLE \(e.tableName) ( \(columns.joined(separator: ", ")) )")
            for c in e.columns {
                if case .toOne = c.kind {
                    sql.append("CREATE INDEX \(indexName(e, c.property)) ON \(e.tableName) (\(c.name))")
                }
            }
            for a in e.attributes where a.isIndexed {
                sql.append("CREATE INDEX \(indexName(e, a.name)) ON \(e.tableName) (\(EntityDescription.columnName(a.name)))")
            }
            // A fetch index from the model: named Z_<entity>_<index name>, as the constraint's
            // index below is (the engine's choice: the name Core Data gives one was not found).
            for index in e.fetchIndexes {
                let cols = index.elements.map { EntityDescription.columnName($0.property) + ($0.ascending ? "" : " DESC") }
                sql.append("CREATE INDEX \(SQLIdentifier.quoted("Z_\(e.name)_\(index.name)")) ON \(e.tableName) (\(cols.joined(separator: ", ")))")
            }
            // Named as Core Data names a constraint's index: Z_<entity>_UNIQUE_<attributes>
            // (its history store's Z_TRANSACTIONSTRING_UNIQUE_NAME).
            for constraint in e.uniquenessConstraints {
                let cols = constraint.map(EntityDescription.columnName)
                sql.append("CREATE UNIQUE INDEX \(SQLIdentifier.quoted("Z_\(e.name)_UNIQUE_\(constraint.joined(separator: "_"))")) "
                           + "ON \(e.tableName) (\(cols.joined(separator: ", ")))")
            }
        }
        sql.append("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        sql.append("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        // Core Data keeps the compiled model here (`saveCachedModel:`); the engine keeps the same
        // JSON document as Z_METADATA's, so the table is there and holds the model.
        sql.append("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        return sql
    }

    /// `Z<ENTITY>_Z<PROPERTY>_INDEX`: the index Core Data makes for a to-one's column or an
    /// indexed attribute.
    private static func indexName(_ e: EntityDescription, _ property: String) -> String {
        SQLIdentifier.quoted(EntityDescription.storedName(e.name) + "_" + EntityDescription.storedName(property) + "_INDEX")
    }

    private static func columnType(_ column: EntityDescription.Column) -> String {
        switch column.kind {
        case .attribute(let type): return type.columnType
        case .toOne: return "INTEGER"
        }
    }

    /// Creates the layout in an empty database, registers every entity in `Z_PRIMARYKEY` and
    /// writes `Z_METADATA`. Returns the new store's UUID.
    @discardableResult
    package static func create(in db: Database, model: ManagedObjectModel, uuid: String = UUID().uuidString) throws -> String {
        try db.execute("BEGIN EXCLUSIVE")
        do {
            for statement in createStatements(for: model) { try db.execute(statement) }
            let pk = try db.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)")
            for e in model.entities {
                pk.bind(e.entityID, at: 1)
                pk.bind(e.name, at: 2)
                try pk.run()
            }
            let meta = try db.prepare("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
            meta.bind(uuid, at: 1)
            let plist = Array(metadataPlist(model).utf8)
            plist.withUnsafeBytes { meta.bindBlob($0, at: 2) }
            try meta.run()
            let cache = try db.prepare("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)")
            plist.withUnsafeBytes { cache.bindBlob($0, at: 1) }
            try cache.run()
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
        return uuid
    }

    /// Opens an existing store's layout: checks it was made for `model` and returns its UUID.
    /// Never changes the data; a mismatch is an error that says what differs.
    package static func check(_ db: Database, model: ManagedObjectModel) throws -> String {
        let hasMetadata = try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='Z_METADATA'")
        guard hasMetadata == 1 else { throw StoreError.notAStore(db.path) }
        let statement = try db.prepare("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        guard try statement.step(), let uuid = statement.text(at: 0) else { throw StoreError.notAStore(db.path) }
        let plist = statement.blob(at: 1).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let stored = modelHash(in: plist)
        guard stored == model.versionHash else {
            throw StoreError.modelMismatch(path: db.path, expected: model.versionHash, found: stored ?? "none")
        }
        return uuid
    }

    /// A small JSON document in place of Core Data's binary plist: the model's hash (what
    /// `check` compares) and its entities, for someone reading the store by hand.
    static func metadataPlist(_ model: ManagedObjectModel) -> String {
        // Entity names are plain words (the model reader refuses others); escaped anyway.
        let entities = model.entities.map { "\"" + $0.name.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(separator: ",")
        return "{\"loadgenModelHash\":\"\(model.versionHash)\",\"entities\":[\(entities)]}"
    }

    static func modelHash(in plist: String) -> String? {
        guard let range = plist.range(of: "\"loadgenModelHash\":\"") else { return nil }
        let rest = plist[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}

/// A store that cannot be opened for this model.
package enum StoreError: Error, CustomStringConvertible, Equatable {
    case notAStore(String)
    case modelMismatch(path: String, expected: String, found: String)
    case readOnlyWithoutHistory(String)

    package var description: String {
        switch self {
        case .notAStore(let path):
            return "\(path) is not a loadgen store (no Z_METADATA)"
        case .modelMismatch(let path, let expected, let found):
            return "\(path) was made for another model (store model \(found), this model \(expected)); "
                + "use a new store path"
        case .readOnlyWithoutHistory(let path):
            return "\(path) has persistent history but was opened without history tracking: it is read-only, "
                + "as Core Data forces it; open it with --history, or use a new store path"
        }
    }
}
