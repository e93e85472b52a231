import Foundation
import SQLiteKit

/// Checks a store after a run, on its own connection, without trusting anything the strategy said.
///
/// It counts rows, duplicate keys, expected keys that are missing, rows linked to the wrong
/// parent, rows whose key the workload never produced (or none), runs `PRAGMA integrity_check`,
/// and measures the store's size. What is expected comes
/// from the workload (regenerated, or read back from the import file), never from the strategy.
package struct StoreVerifier: Sendable {
    /// Where the records live in the store.
    package struct Layout: Sendable {
        /// The records' table and unique-key column (`ZEXPENSE`, `ZEXTERNALID`).
        package var table: String
        package var keyColumn: String
        /// The foreign key to the parent and the parent's table and name column.
        package var parentColumn: String
        package var parentTable: String
        package var parentNameColumn: String
        /// Persistent history's change table (`ACHANGE`): its rows left are counted when the
        /// store has it.
        package var historyChangeTable: String?

        package init(table: String, keyColumn: String, parentColumn: String, parentTable: String, parentNameColumn: String) {
            self.table = table
            self.keyColumn = keyColumn
            self.parentColumn = parentColumn
            self.parentTable = parentTable
            self.parentNameColumn = parentNameColumn
        }
    }

    /// Receives expected (key, parent name) pairs as UTF-8 bytes. A key may be given twice
    /// (an import file with repeats); it counts once.
    package typealias ExpectedSink = (_ key: UnsafeRawBufferPointer, _ parent: UnsafeRawBufferPointer) throws -> Void

    package let path: String
    package let layout: Layout

    package init(path: String, layout: Layout) {
        self.path = path
        self.layout = layout
    }

    /// Verifies the store; `expected` is called once and feeds every expected record to the sink.
    package func verify(expected: (ExpectedSink) throws -> Void) throws -> Verification {
        let isMemory = path.contains("mode=memory")
        // Read-write, though it writes only temporary tables: a read-only connection cannot
        // rebuild a WAL store's shared-memory index, and then reports "database is locked".
        let db = try Database(path: path)
        db.setBusyTimeout(milliseconds: 10_000)
        let integrity = try integrityCheck(db)
        let t = layout
        let rows = try db.scalarInt("SELECT count(*) FROM \(t.table)")
        // count(key) skips NULL keys: a row without a key is not a second row of any key (it is
        // counted as unexpected below).
        let keyed = try db.scalarInt("SELECT count(\(t.keyColumn)) FROM \(t.table)")
        let distinct = try db.scalarInt("SELECT count(DISTINCT \(t.keyColumn)) FROM \(t.table)")

        try db.execute("CREATE TEMP TABLE loadgen_expected (key TEXT PRIMARY KEY, parent TEXT) WITHOUT ROWID")
        try db.execute("BEGIN")
        let insert = try db.prepare("INSERT OR IGNORE INTO temp.loadgen_expected (key, parent) VALUES (?, ?)")
        try expected { key, parent in
            insert.bindText(noCopy: key, at: 1)
            insert.bindText(noCopy: parent, at: 2)
            try insert.run()
        }
        try db.execute("COMMIT")

        let lost = try db.scalarInt("""
            SELECT count(*) FROM temp.loadgen_expected
            WHERE key NOT IN (SELECT \(t.keyColumn) FROM main.\(t.table) WHERE \(t.keyColumn) IS NOT NULL)
            """)
        let badLinks = try db.scalarInt("""
            SELECT count(*) FROM main.\(t.table) x
            JOIN temp.loadgen_expected e ON e.key = x.\(t.keyColumn)
            LEFT JOIN main.\(t.parentTable) p ON p.Z_PK = x.\(t.parentColumn)
            WHERE p.\(t.parentNameColumn) IS NOT e.parent
            """)
        let unexpected = try db.scalarInt("""
            SELECT count(*) FROM main.\(t.table) x
            WHERE x.\(t.keyColumn) IS NULL OR x.\(t.keyColumn) NOT IN (SELECT key FROM temp.loadgen_expected)
            """)
        let bytes = try storeBytes(db, isMemory: isMemory)
        try db.execute("DROP TABLE temp.loadgen_expected")
        var verification = Verification(storeRows: rows, duplicates: keyed - distinct, lost: lost, badLinks: badLinks,
                                        integrity: integrity, storeBytes: bytes)
        verification.unexpectedRows = unexpected
        if let history = t.historyChangeTable,
           try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(history)'") == 1 {
            verification.historyChanges = try db.scalarInt("SELECT count(*) FROM \(history)")
        }
        return verification
    }

    /// "ok", or up to three of the problems SQLite found, joined.
    func integrityCheck(_ db: Database) throws -> String {
        let statement = try db.prepare("PRAGMA integrity_check")
        var problems: [String] = []
        while try statement.step() {
            if let line = statement.text(at: 0), line != "ok", problems.count < 3 { problems.append(line) }
        }
        return problems.isEmpty ? "ok" : problems.joined(separator: "; ")
    }

    private func storeBytes(_ db: Database, isMemory: Bool) throws -> Int {
        if isMemory {
            return try db.scalarInt("PRAGMA page_count") * db.scalarInt("PRAGMA page_size")
        }
        var total = 0
        for suffix in ["", "-wal"] {
            if let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix),
               let size = attributes[.size] as? Int {
                total += size
            }
        }
        return total
    }
}
