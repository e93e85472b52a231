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
        /// The records' table and the columns of its key (`ZEXPENSE`, `ZEXTERNALID`; several for a
        /// key constrained together).
        package var table: String
        package var keyColumns: [String]
        /// The related object each record points at, when records relate to one.
        package var parent: Parent?
        /// Persistent history's change table (`ACHANGE`): its rows left are counted when the
        /// store has it.
        package var historyChangeTable: String?
        /// The many-to-many records relate members through: its join table and each side's
        /// column, the members' table and key column (the records' key is `keyColumns`).
        package var join: Join?
        package struct Join: Sendable {
            package var table: String
            package var recordColumn: String
            package var memberColumn: String
            package var memberTable: String
            package var memberKeyColumn: String
            package init(
                table: String, recordColumn: String, memberColumn: String, memberTable: String, memberKeyColumn: String
            ) {
                (self.table, self.recordColumn, self.memberColumn) = (table, recordColumn, memberColumn)
                (self.memberTable, self.memberKeyColumn) = (memberTable, memberKeyColumn)
            }
        }
        /// Columns of attributes that allow external storage (table, column), and the folder of
        /// the store's external values: the files count in the store's size, and a column naming
        /// a file that is not there is a broken store.
        package var externalColumns: [(table: String, column: String)] = []
        package var externalDirectory: String?
        /// The record entity's other uniqueness constraints, as columns: each is counted for
        /// duplicates as the key is (an entity kept unique by `[uuid]` and `[syncIdentifier]`).
        package var otherConstraints: [[String]] = []
        /// The columns of the record's values a repeat may change, in the order `current` binds
        /// them after the key: each key's rows are compared with its last copy (`stale`).
        package var valueColumns: [String] = []
        /// The model's abstract entities: a row of one (its `Z_ENT`) is an object Core Data
        /// could never have written, whatever else the store holds.
        package var abstractEntities: [AbstractEntity] = []

        /// An abstract entity's number and the table its hierarchy shares.
        package struct AbstractEntity: Sendable {
            package var table: String
            package var entityID: Int
            package var name: String
            package init(table: String, entityID: Int, name: String) {
                self.table = table
                self.entityID = entityID
                self.name = name
            }
        }

        /// The foreign key to the related object, its table and its key columns (one, or a
        /// constraint of several).
        package struct Parent: Sendable {
            package var column: String
            package var table: String
            package var keyColumns: [String]
            /// A one-to-one's column on the related row, pointing back at the record: each record
            /// pointing at a related object must be the one that object points at, and the other
            /// way round (a related object shared by two records fails one of them).
            package var inverseColumn: String?
            package init(column: String, table: String, keyColumns: [String]) {
                self.column = column
                self.table = table
                self.keyColumns = keyColumns
            }

            package init(column: String, table: String, keyColumn: String) {
                self.init(column: column, table: table, keyColumns: [keyColumn])
            }
        }

        package init(table: String, keyColumns: [String]) {
            self.table = table
            self.keyColumns = keyColumns
        }

        /// Parameters of one expected row: the key's values, then the related object's key.
        package var expectedColumns: Int { keyColumns.count + (parent?.keyColumns.count ?? 0) }
    }

    /// Receives expected rows: each call binds, on the statement it is given, the key's values at
    /// 1…k and (with a parent) the related object's key at k + 1, with their stored types. A key
    /// may be given twice (an import file with repeats); it counts once.
    package typealias ExpectedSink = (_ bind: (Statement) -> Void) throws -> Void

    package let path: String
    package let layout: Layout

    package init(path: String, layout: Layout) {
        self.path = path
        self.layout = layout
    }

    /// Verifies the store; `expected` is called once and feeds every expected record to the sink.
    /// `repeated` says which record of a key given more than once the store must relate (the
    /// strategy's merge semantics).
    /// `current` feeds each key's records in feed order, binding the key and then `valueColumns`'
    /// values: the last given for a key is what its rows must hold.
    package func verify(
        repeated: RepeatedKey = .first, expected: (ExpectedSink) throws -> Void,
        pairs: ((ExpectedSink) throws -> Void)? = nil,
        current: ((ExpectedSink) throws -> Void)? = nil
    ) throws -> Verification {
        let isMemory = path.contains("mode=memory")
        // Read-write, though it writes only temporary tables: a read-only connection cannot
        // rebuild a WAL store's shared-memory index, and then reports "database is locked".
        let counters = StatementCounters()
        let db = try Database(path: path, counters: counters)
        db.setBusyTimeout(milliseconds: 10_000)
        var verification = try check(
            db, isMemory: isMemory, repeated: repeated, expected: expected, pairs: pairs, current: current)
        verification.steps = counters.snapshot().vmSteps
        return verification
    }

    private func check(
        _ db: Database, isMemory: Bool, repeated: RepeatedKey, expected: (ExpectedSink) throws -> Void,
        pairs: ((ExpectedSink) throws -> Void)?, current: ((ExpectedSink) throws -> Void)?
    ) throws -> Verification {
        let integrity = try integrityCheck(db)
        let t = layout
        if t.keyColumns.isEmpty {
            return try verifyKeyless(db, integrity: integrity, isMemory: isMemory, expected: expected)
        }
        let keys = t.keyColumns.joined(separator: ", ")
        let keyed = "(" + t.keyColumns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ") + ")"
        let rows = try db.scalarInt("SELECT count(*) FROM \(t.table)")
        // Rows without a key are not second rows of any key (they count as unexpected below).
        let withKey = try db.scalarInt("SELECT count(*) FROM \(t.table) WHERE \(keyed)")
        let distinct = try db.scalarInt("SELECT count(*) FROM (SELECT DISTINCT \(keys) FROM \(t.table) WHERE \(keyed))")

        let e = try fillExpected(db, repeated: repeated, expected)
        let expectedKeys = e.keys
        let anyCopy = e.anyCopy
        let tuple = Self.tuple
        let lost = try db.scalarInt(
            """
            SELECT count(*) FROM \(anyCopy ? "(SELECT DISTINCT \(expectedKeys.joined(separator: ", ")) FROM temp.loadgen_expected)"
                                             : "temp.loadgen_expected")
            WHERE \(tuple(expectedKeys, "")) NOT IN (SELECT \(keys) FROM \(mainTable(t.table)) WHERE \(keyed))
            """)
        let badLinks = try countBadLinks(db, e)
        let unexpected = try db.scalarInt(
            """
            SELECT count(*) FROM \(mainTable(t.table)) x
            WHERE NOT (\(t.keyColumns.map { "x.\($0) IS NOT NULL" }.joined(separator: " AND "))) OR \(tuple(t.keyColumns, "x.")) NOT IN (SELECT \(expectedKeys.joined(separator: ", ")) FROM temp.loadgen_expected)
            """)
        let bytes = try storeBytes(db, isMemory: isMemory)
        try db.execute("DROP TABLE temp.loadgen_expected")
        var verification = Verification(
            storeRows: rows, duplicates: withKey - distinct, lost: lost, badLinks: badLinks,
            integrity: integrity, storeBytes: bytes)
        verification.unexpectedRows = unexpected
        verification.abstractRows = try abstractRows(db)
        verification.constraintDuplicates = try otherConstraintDuplicates(db)
        verification.parentDuplicates = try parentDuplicates(db)
        try countExternal(db, into: &verification)
        if let pairs { try countPairs(db, pairs, into: &verification) }
        if let current, !t.valueColumns.isEmpty { verification.stale = try countStale(db, current) }
        if let history = t.historyChangeTable,
            try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(history)'") == 1
        {
            verification.historyChanges = try db.scalarInt("SELECT count(*) FROM \(history)")
        }
        return verification
    }

    /// The expected records' keys (and related objects' keys) as `temp.loadgen_expected`: one row
    /// per key, the copy `repeated` says the store keeps, or every copy when any may be kept.
    private func fillExpected(
        _ db: Database, repeated: RepeatedKey,
        _ expected: (ExpectedSink) throws -> Void
    ) throws -> (keys: [String], parent: [String], anyCopy: Bool) {
        let t = layout
        let expectedKeys = t.keyColumns.indices.map { "k\($0)" }
        let expectedParent = (t.parent?.keyColumns ?? []).indices.map { "parent\($0)" }
        let columns = expectedKeys + expectedParent
        // Typed as the store's columns: values convert as they do there, and every lookup of a
        // stored key in this table can use its primary key (linear, not rows × records).
        let typed =
            try Self.typed(db, expectedKeys, as: t.keyColumns, of: t.table)
            + (t.parent.map { try Self.typed(db, expectedParent, as: $0.keyColumns, of: $0.table) } ?? [])
        // Every copy's related object is a right one when any copy may be the one kept.
        let anyCopy = repeated == .any && t.parent != nil
        let primary = anyCopy ? columns : expectedKeys
        try db.execute(
            "CREATE TEMP TABLE loadgen_expected (\(typed.joined(separator: ", ")), "
                + "PRIMARY KEY (\(primary.joined(separator: ", ")))) WITHOUT ROWID")
        try db.execute("BEGIN")
        // The last copy wins by updating its parent in place (cheaper than REPLACE's delete and insert).
        let last = repeated == .last && t.parent != nil
        let insert = try db.prepare(
            (last ? "INSERT" : "INSERT OR IGNORE") + " INTO temp.loadgen_expected VALUES ("
                + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
                + (last
                    ? " ON CONFLICT DO UPDATE SET "
                        + expectedParent.map { "\($0) = excluded.\($0)" }.joined(separator: ", ") : ""))
        try expected { bind in
            bind(insert)
            try insert.run()
        }
        try db.execute("COMMIT")
        return (expectedKeys, expectedParent, anyCopy)
    }

    /// Records related to another object than the expected one (or to none), and one-to-ones whose
    /// other side does not point back.
    private func countBadLinks(_ db: Database, _ e: (keys: [String], parent: [String], anyCopy: Bool)) throws -> Int {
        let t = layout
        guard let p = t.parent else { return 0 }
        let join = zip(t.keyColumns, e.keys).map { "e.\($1) = x.\($0)" }.joined(separator: " AND ")
        // The related object is the expected one when every column of its key is.
        let sameParent = zip(p.keyColumns, e.parent).map { "e.\($1) IS p.\($0)" }.joined(separator: " AND ")
        var badLinks = try db.scalarInt(
            e.anyCopy
                ? """
                SELECT count(*) FROM \(mainTable(t.table)) x
                LEFT JOIN \(mainTable(p.table)) p ON p.Z_PK = x.\(p.column)
                WHERE \(Self.tuple(t.keyColumns, "x.")) IN (SELECT \(e.keys.joined(separator: ", ")) FROM temp.loadgen_expected)
                AND NOT EXISTS (SELECT 1 FROM temp.loadgen_expected e WHERE \(join) AND \(sameParent))
                """
                : """
                SELECT count(*) FROM \(mainTable(t.table)) x
                JOIN temp.loadgen_expected e ON \(join)
                LEFT JOIN \(mainTable(p.table)) p ON p.Z_PK = x.\(p.column)
                WHERE NOT (\(sameParent))
                """)
        if let inverse = p.inverseColumn {
            badLinks += try unpaired(db, t, p, inverse: inverse, copiesShare: e.anyCopy)
        }
        return badLinks
    }

    /// Rows whose values are not their key's last copy's: one join with the last copies, kept in a
    /// temporary table as they are fed (a later copy of a key replaces an earlier one).
    private func countStale(_ db: Database, _ current: (ExpectedSink) throws -> Void) throws -> Int {
        let t = layout
        let keys = t.keyColumns.indices.map { "k\($0)" }
        let values = t.valueColumns.indices.map { "v\($0)" }
        let typedKeys = try Self.typed(db, keys, as: t.keyColumns, of: t.table)
        try db.execute(
            "CREATE TEMP TABLE loadgen_current (\((typedKeys + values).joined(separator: ", ")), "
                + "PRIMARY KEY (\(keys.joined(separator: ", ")))) WITHOUT ROWID")
        try db.execute("BEGIN")
        let insert = try db.prepare(
            "INSERT OR REPLACE INTO temp.loadgen_current VALUES ("
                + Array(repeating: "?", count: keys.count + values.count).joined(separator: ", ") + ")")
        try current { bind in
            bind(insert)
            try insert.run()
        }
        try db.execute("COMMIT")
        let join = zip(t.keyColumns, keys).map { "x.\($0) = c.\($1)" }.joined(separator: " AND ")
        let same = zip(t.valueColumns, values).map { "x.\($0) IS c.\($1)" }.joined(separator: " AND ")
        let stale = try db.scalarInt(
            "SELECT count(*) FROM \(mainTable(t.table)) x JOIN temp.loadgen_current c ON \(join) WHERE NOT (\(same))")
        try db.execute("DROP TABLE temp.loadgen_current")
        return stale
    }

    /// `name AFFINITY` for each of `names`, with the affinity SQLite gives the column of `table`
    /// at the same place (its declared type's, by SQLite's rules): named by affinity, not by the
    /// declared type, so nothing from the store's schema is pasted into SQL.
    private static func typed(_ db: Database, _ names: [String], as columns: [String], of table: String) throws
        -> [String]
    {
        let statement = try db.prepare("SELECT \(columns.joined(separator: ", ")) FROM \(mainTable(table)) LIMIT 0")
        return names.enumerated().map { i, name in
            "\(name) \(ColumnAffinity(declaredType: statement.declaredType(at: Int32(i))).sql)"
        }
    }

    /// `x` or `(x, y)`, each name prefixed: a key of one or several columns in SQL.
    private static func tuple(_ names: [String], _ prefix: String) -> String {
        names.count == 1 ? prefix + names[0] : "(" + names.map { prefix + $0 }.joined(separator: ", ") + ")"
    }

    /// Records told apart by nothing (an entity without a key): the expected store is a count of
    /// rows and, with a related object, a bag of related objects' keys. A row missing is lost, a
    /// row too many unexpected, and a row whose related object is not one the records name as
    /// often (or that points at none) a bad link. Duplicates cannot be told from records.
    private func verifyKeyless(
        _ db: Database, integrity: String, isMemory: Bool,
        expected: (ExpectedSink) throws -> Void
    ) throws -> Verification {
        let t = layout
        let rows = try db.scalarInt("SELECT count(*) FROM \(t.table)")
        let keys = t.parent?.keyColumns ?? []
        let columns = keys.indices.map { "parent\($0)" }
        try db.execute(
            "CREATE TEMP TABLE loadgen_expected (n INTEGER PRIMARY KEY" + columns.map { ", \($0)" }.joined() + ")")
        try db.execute("BEGIN")
        let insert = try db.prepare(
            columns.isEmpty
                ? "INSERT INTO temp.loadgen_expected DEFAULT VALUES"
                : "INSERT INTO temp.loadgen_expected (\(columns.joined(separator: ", "))) VALUES ("
                    + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")")
        try expected { bind in
            bind(insert)
            try insert.run()
        }
        try db.execute("COMMIT")
        let wanted = try db.scalarInt("SELECT count(*) FROM temp.loadgen_expected")
        var badLinks = 0
        if let p = t.parent {
            let stored = keys.enumerated().map { "p.\($1) AS k\($0)" }.joined(separator: ", ")
            let groups = keys.indices.map { "k\($0)" }.joined(separator: ", ")
            let same = keys.indices.map { "e.parent\($0) IS s.k\($0)" }.joined(separator: " AND ")
            badLinks = try db.scalarInt(
                """
                SELECT coalesce(sum(max(0, s.n - coalesce(e.n, 0))), 0) FROM
                (SELECT \(stored), count(*) AS n FROM \(mainTable(t.table)) x LEFT JOIN \(mainTable(p.table)) p ON p.Z_PK = x.\(p.column) GROUP BY \(groups)) s
                LEFT JOIN (SELECT \(columns.joined(separator: ", ")), count(*) AS n FROM temp.loadgen_expected GROUP BY \(columns.joined(separator: ", "))) e
                ON \(same)
                """)
            if let inverse = p.inverseColumn {
                badLinks += try unpaired(db, t, p, inverse: inverse, copiesShare: false)
            }
        }
        let bytes = try storeBytes(db, isMemory: isMemory)
        try db.execute("DROP TABLE temp.loadgen_expected")
        var verification = Verification(
            storeRows: rows, duplicates: 0, lost: max(0, wanted - rows), badLinks: badLinks,
            integrity: integrity, storeBytes: bytes)
        verification.unexpectedRows = max(0, rows - wanted)
        verification.abstractRows = try abstractRows(db)
        try countExternal(db, into: &verification)
        if let history = t.historyChangeTable,
            try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(history)'") == 1
        {
            verification.historyChanges = try db.scalarInt("SELECT count(*) FROM \(history)")
        }
        return verification
    }

    /// The one-to-one links that do not point back: records whose related object points at
    /// another record or at none, and related objects that point at a record pointing elsewhere.
    /// With `copiesShare` (every copy of a repeated key is stored), the copies of one key share
    /// its related object, which points back at one of them.
    private func unpaired(_ db: Database, _ t: Layout, _ p: Layout.Parent, inverse: String, copiesShare: Bool) throws
        -> Int
    {
        let sameKey = t.keyColumns.map { "y.\($0) IS x.\($0)" }.joined(separator: " AND ")
        let forward =
            copiesShare
            ? """
            SELECT count(*) FROM \(mainTable(t.table)) x JOIN \(mainTable(p.table)) p ON p.Z_PK = x.\(p.column)
            LEFT JOIN \(mainTable(t.table)) y ON y.Z_PK = p.\(inverse) WHERE y.Z_PK IS NULL OR NOT (\(sameKey))
            """
            : """
            SELECT count(*) FROM \(mainTable(t.table)) x JOIN \(mainTable(p.table)) p ON p.Z_PK = x.\(p.column)
            WHERE p.\(inverse) IS NOT x.Z_PK
            """
        return try db.scalarInt(forward)
            + db.scalarInt(
                """
                SELECT count(*) FROM \(mainTable(p.table)) p LEFT JOIN \(mainTable(t.table)) x ON x.Z_PK = p.\(inverse)
                WHERE p.\(inverse) IS NOT NULL AND x.\(p.column) IS NOT p.Z_PK
                """)
    }

    /// The many-to-many's pairs against the expected ones (each the record's key values, then the
    /// member's key), counted both ways through the records' and the members' keys, and members
    /// stored twice.
    private func countPairs(_ db: Database, _ expected: (ExpectedSink) throws -> Void, into v: inout Verification)
        throws
    {
        guard let j = layout.join else { return }
        let t = layout
        let keys = t.keyColumns.indices.map { "k\($0)" }
        let typed =
            try Self.typed(db, keys, as: t.keyColumns, of: t.table)
            + Self.typed(db, ["m"], as: [j.memberKeyColumn], of: j.memberTable)
        try db.execute(
            "CREATE TEMP TABLE loadgen_pairs (\(typed.joined(separator: ", ")), "
                + "PRIMARY KEY (\((keys + ["m"]).joined(separator: ", ")))) WITHOUT ROWID")
        defer { try? db.execute("DROP TABLE temp.loadgen_pairs") }
        try db.execute("BEGIN")
        let insert = try db.prepare(
            "INSERT OR IGNORE INTO temp.loadgen_pairs VALUES ("
                + Array(repeating: "?", count: keys.count + 1).joined(separator: ", ") + ")")
        try expected { bind in
            bind(insert)
            try insert.run()
        }
        try db.execute("COMMIT")
        // Both counts walk the stored pairs once (through primary keys) and look each up in the
        // expected ones by their primary key: the store has no index on the keys to look the
        // other way (77 s for 8k records with members before, issue 55 item 11).
        let stored =
            "FROM main.\(j.table) j JOIN \(mainTable(t.table)) r ON r.Z_PK = j.\(j.recordColumn) "
            + "JOIN \(mainTable(j.memberTable)) m ON m.Z_PK = j.\(j.memberColumn)"
        let same =
            zip(keys, t.keyColumns).map { "e.\($0) = r.\($1)" }.joined(separator: " AND ")
            + " AND e.m = m.\(j.memberKeyColumn)"
        let storedKeys = t.keyColumns.map { "r.\($0)" }.joined(separator: ", ") + ", m.\(j.memberKeyColumn)"
        // An expected pair is found when some stored pair equals it; equal stored pairs are one.
        let found = try db.scalarInt(
            "SELECT count(*) FROM (SELECT DISTINCT \(storedKeys) \(stored) "
                + "WHERE EXISTS (SELECT 1 FROM temp.loadgen_pairs e WHERE \(same)))")
        let missing = try db.scalarInt("SELECT count(*) FROM temp.loadgen_pairs") - found
        let unexpected = try db.scalarInt(
            "SELECT count(*) \(stored) WHERE NOT EXISTS (SELECT 1 FROM temp.loadgen_pairs e WHERE \(same))")
        v.pairs = try db.scalarInt("SELECT count(*) FROM main.\(j.table)")
        v.badPairs = missing + unexpected
        v.memberDuplicates = try db.scalarInt(
            "SELECT count(*) - count(DISTINCT \(j.memberKeyColumn)) FROM \(mainTable(j.memberTable))")
    }

    /// The store's external value files (counted in its size), and the columns that name a file
    /// that is not there (byte 2, the file's name, a NUL: `ExternalStorage`).
    private func countExternal(_ db: Database, into v: inout Verification) throws {
        guard let directory = layout.externalDirectory, !layout.externalColumns.isEmpty else { return }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        v.externalFiles = files.count
        v.storeBytes += files.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: directory + "/" + name))?[.size] as? Int ?? 0)
        }
        let present = Set(files)
        for (table, column) in layout.externalColumns {
            let s = try db.prepare(
                "SELECT substr(\(column), 2, length(\(column)) - 2) FROM \(mainTable(table)) "
                    + "WHERE substr(\(column), 1, 1) = x'02'")
            while try s.step() {
                if !present.contains(String(decoding: s.blob(at: 0) ?? [], as: UTF8.self)) {
                    v.missingExternalFiles += 1
                }
            }
        }
    }

    /// The most rows beyond one per value that any other uniqueness constraint has.
    private func otherConstraintDuplicates(_ db: Database) throws -> Int {
        try layout.otherConstraints.map { columns in
            let set = columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
            return try db.scalarInt(
                "SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM \(mainTable(layout.table)) "
                    + "WHERE \(set) GROUP BY \(columns.joined(separator: ", ")))")
        }.max() ?? 0
    }

    /// Rows whose `Z_ENT` is an abstract entity's, in every table the model's abstract entities share.
    /// Related objects beyond one per key (their entity's constraint or the `--relationship`
    /// key): two writers that each created the album "Trips" leave two rows a screen shows as
    /// two albums, however well each record points at one of them (issue 44, item 5). Not
    /// counted when records and related objects share a table (one hierarchy's keys mix there).
    private func parentDuplicates(_ db: Database) throws -> Int {
        guard let p = layout.parent, p.table != layout.table, !p.keyColumns.isEmpty else { return 0 }
        let keyed = p.keyColumns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
        let rows = try db.scalarInt("SELECT count(*) FROM \(mainTable(p.table)) WHERE \(keyed)")
        let distinct = try db.scalarInt(
            "SELECT count(*) FROM (SELECT DISTINCT \(p.keyColumns.joined(separator: ", ")) "
                + "FROM \(mainTable(p.table)) WHERE \(keyed))")
        return rows - distinct
    }

    private func abstractRows(_ db: Database) throws -> Int {
        let byTable = Dictionary(grouping: layout.abstractEntities, by: \.table)
        var rows = 0
        for (table, entities) in byTable.sorted(by: { $0.key < $1.key }) {
            rows += try db.scalarInt(
                "SELECT count(*) FROM \(mainTable(table)) WHERE Z_ENT IN ("
                    + entities.map { String($0.entityID) }.joined(separator: ", ") + ")")
        }
        return rows
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
                let size = attributes[.size] as? Int
            {
                total += size
            }
        }
        return total
    }
}

/// Which record of a key given more than once (an import file's repeats) the store should hold,
/// as the idiom merges them: the verifier's expected store follows it.
package enum RepeatedKey: String, Sendable {
    /// The first copy stays: `INSERT OR IGNORE` (a batch insert, the deduplicating limit).
    case first
    /// The last copy wins: a find-or-create sets the found object from each later record, an
    /// upsert overwrites.
    case last
    /// Any copy may be the one kept (records arrive from concurrent producers), or every copy is
    /// stored (no deduplication): each stored row must relate to what some copy of its key says.
    case any

    /// The policy in words, for the review page ("which copy of a repeated record the idiom keeps").
    package var policy: String {
        switch self {
        case .first: return "the first copy (first wins)"
        case .last: return "the last copy's values (last wins)"
        case .any: return "whichever copy saves last, or every copy"
        }
    }
}

/// A table of the store's main database (a temporary table may share its name), or a
/// sub-entity's rows given as a subquery (`EntityDescription.ownRows`), as they are.
private func mainTable(_ table: String) -> String { table.hasPrefix("(") ? table : "main." + table }
