import Foundation
import SQLiteKit

/// The store layout, derived from the model: the one definition every writer of a store uses,
/// the engine and `raw-sqlite` alike.
package enum StoreSchema {
    /// The statements that create an empty store for `model`, as Core Data writes them: a table
    /// per root entity in its column order, the join tables, then the indexes.
    package static func createStatements(for model: ManagedObjectModel) -> [String] {
        var sql: [String] = []
        for e in model.entities where e.entityID == e.rootEntityID {
            let columns =
                ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
                + e.tableColumns.map { "\($0.name) \(columnType($0))" }
            sql.append("CREATE TABLE \(e.tableName) ( \(columns.joined(separator: ", ")) )")
        }
        for e in model.entities {
            for join in e.joinTables {
                let columns =
                    [join.sourceColumn, join.destinationColumn]
                    + [join.sourceOrderColumn, join.destinationOrderColumn].compactMap { $0 }
                sql.append(
                    "CREATE TABLE \(join.name) ( " + columns.map { "\($0) INTEGER" }.joined(separator: ", ")
                        + ", PRIMARY KEY (\(join.sourceColumn), \(join.destinationColumn)) )")
            }
        }
        for e in model.entities {
            sql += indexStatements(e, parent: e.superEntityID == 0 ? nil : model.entity(id: e.superEntityID))
        }
        sql.append(
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        sql.append("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        // Core Data keeps the compiled model here (`saveCachedModel:`); the engine keeps the same
        // document as Z_METADATA's, so the table is there and holds the model.
        sql.append("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        return sql
    }

    /// The indexes of what `e` declares (its parent's are the parent's), named as Core Data names
    /// them (a store dump of a notes app: `ZSFNOTEFILE_ZNOTE_INDEX`, `ZSFNOTEFILE_Z_ENT_INDEX`,
    /// `Z_5TAGS_Z_13TAGS_INDEX ON Z_5TAGS (Z_13TAGS, Z_5NOTES)`; published `CREATE INDEX
    /// Z_Note_byTitle ON ZNOTE (ZTITLE COLLATE BINARY ASC)` and `CREATE UNIQUE INDEX
    /// Z_Movie_UNIQUE_color_colors ON ZMOVIE (ZCOLOR COLLATE BINARY ASC, …)`).
    private static func indexStatements(_ e: EntityDescription, parent: EntityDescription?) -> [String] {
        var sql: [String] = []
        let inherited = Set(parent?.columns.map(\.property) ?? [])
        let table = e.tableName
        func indexName(_ column: String) -> String { SQLIdentifier.quoted(bare(table) + "_" + bare(column) + "_INDEX") }
        for c in e.columns where !inherited.contains(c.property) {
            if case .toOne = c.kind { sql.append("CREATE INDEX \(indexName(c.name)) ON \(table) (\(c.name))") }
        }
        for a in e.attributes where a.isIndexed && !inherited.contains(a.name) {
            let column = e.column(of: a.name)
            sql.append("CREATE INDEX \(indexName(column)) ON \(table) (\(column))")
        }
        if e.entityID == e.rootEntityID && e.subentityMaxID > e.entityID {
            sql.append("CREATE INDEX \(indexName("Z_ENT")) ON \(table) (Z_ENT)")
        }
        for index in e.fetchIndexes {
            let cols = index.elements.map {
                e.column(of: $0.property) + " COLLATE BINARY " + ($0.ascending ? "ASC" : "DESC")
            }
            sql.append(
                "CREATE INDEX \(SQLIdentifier.quoted("Z_\(e.name)_\(index.name)")) ON \(table) (\(cols.joined(separator: ", ")))"
            )
        }
        for constraint in e.uniquenessConstraints.dropFirst(e.inheritedConstraintCount) {
            let cols = constraint.map { e.column(of: $0) + " COLLATE BINARY ASC" }
            sql.append(
                "CREATE UNIQUE INDEX \(SQLIdentifier.quoted("Z_\(e.name)_UNIQUE_\(constraint.joined(separator: "_"))")) "
                    + "ON \(table) (\(cols.joined(separator: ", ")))")
        }
        for join in e.joinTables {
            sql.append(
                "CREATE INDEX \(SQLIdentifier.quoted(bare(join.name) + "_" + bare(join.destinationColumn) + "_INDEX")) "
                    + "ON \(join.name) (\(join.destinationColumn), \(join.sourceColumn))")
        }
        return sql
    }

    /// A name as SQL text without its quotes (`SQLIdentifier.quoted` undone), to build another.
    private static func bare(_ name: String) -> String {
        guard name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 else { return name }
        return String(name.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
    }

    private static func columnType(_ column: EntityDescription.Column) -> String {
        switch column.kind {
        case .attribute(let type): return type.columnType
        case .toOne, .entityKey, .orderKey: return "INTEGER"
        }
    }

    /// Creates the layout in an empty database, registers every entity in `Z_PRIMARYKEY` and
    /// writes `Z_METADATA`. Returns the new store's UUID.
    @discardableResult
    package static func create(in db: Database, model: ManagedObjectModel, uuid: String = UUID().uuidString) throws
        -> String
    {
        try db.execute("BEGIN EXCLUSIVE")
        do {
            for statement in createStatements(for: model) { try db.execute(statement) }
            let pk = try db.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
            for e in model.entities {
                pk.bind(e.entityID, at: 1)
                pk.bind(e.name, at: 2)
                pk.bind(e.superEntityID, at: 3)
                try pk.run()
            }
            let meta = try db.prepare("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
            meta.bind(uuid, at: 1)
            let plist = StoreMetadata.plist(model)
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

    /// True for a store loadgen made: an SQLite file whose `Z_METADATA` property list carries
    /// loadgen's model hash key. A real app's Core Data store has Z_METADATA but not the key, and
    /// a plain database may hold the word anywhere: neither is loadgen's to replace.
    ///
    /// Read without a trace: a read-only connection to a WAL database leaves `-wal` and `-shm`
    /// files it cannot remove, so a file without a WAL beside it is opened immutable (no
    /// locks, no files); one with its WAL is read through it (its files are there already).
    package static func isLoadgenStore(at path: String) -> Bool {
        let hasWAL = FileManager.default.fileExists(atPath: path + "-wal")
        let uri =
            "file:" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
            + (hasWAL ? "?mode=ro" : "?immutable=1")
        guard let db = try? Database(path: uri, readOnly: true),
            let statement = try? db.prepare("SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1"),
            (try? statement.step()) == true, let metadata = statement.blob(at: 0)
        else { return false }
        return StoreMetadata.carries(StoreMetadata.modelHashKey, in: metadata)
    }

    /// Opens an existing store's layout: checks it was made for `model` and returns its UUID.
    /// Never changes the data; a mismatch is an error that says what differs.
    package static func check(_ db: Database, model: ManagedObjectModel) throws -> String {
        let hasMetadata = try db.scalarInt(
            "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='Z_METADATA'")
        guard hasMetadata == 1 else { throw StoreError.notAStore(db.path) }
        let statement = try db.prepare("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
        guard try statement.step(), let uuid = statement.text(at: 0) else { throw StoreError.notAStore(db.path) }
        let metadata = statement.blob(at: 1) ?? []
        guard StoreMetadata.carries(model.versionHash, in: metadata) else {
            let stored = StoreMetadata.modelHash(in: metadata)
            throw StoreError.modelMismatch(path: db.path, expected: model.versionHash, found: stored ?? "none")
        }
        return uuid
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
