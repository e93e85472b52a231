import SQLiteKit

/// Core Data's persistent-history tables, as `_PFPersistentHistoryModel` defines them: three
/// ancillary entities, TRANSACTION, CHANGE and TRANSACTIONSTRING, numbered from the ancillary
/// offset 16000 (so their `Z_ENT` are 16001…16003) and stored as `A` + entity name, with the
/// usual `Z` column prefix. The one definition of the layout: the recorder, the fetch, the purge
/// and the verifier all read it from here.
package enum HistorySchema {
    /// `Z_ENT` of ATRANSACTION, ACHANGE, ATRANSACTIONSTRING.
    static let transactionEntity = 16_001
    static let changeEntity = 16_002
    static let stringEntity = 16_003

    package static let transactionTable = "ATRANSACTION"
    package static let changeTable = "ACHANGE"
    package static let stringTable = "ATRANSACTIONSTRING"

    /// `ACHANGE.ZCHANGETYPE`, as `NSPersistentHistoryChangeType`.
    package enum ChangeType: Int, Sendable, Codable {
        case insert = 0, update = 1, delete = 2
    }

    /// The tables and indexes. TRANSACTION has four to-ones to TRANSACTIONSTRING (the interned
    /// author, bundle ID, context name and process ID), the same four as plain text (left NULL,
    /// as Core Data leaves them), a timestamp (seconds since 2001, `NSDate`'s reference date), a
    /// query generation, and fetch indexes on author and timestamp. CHANGE has the entity and
    /// primary key of the changed row, the change type, the changed-columns bit mask and its
    /// transaction (indexed, a to-one). TRANSACTIONSTRING is unique by name. The model here has
    /// no tombstone attributes, so CHANGE has no `ZTOMBSTONE` columns.
    static let createStatements: [String] = [
        "CREATE TABLE \(transactionTable) ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, "
            + "ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, "
            + "ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
        "CREATE INDEX \(transactionTable)_ZAUTHORTS_INDEX ON \(transactionTable) (ZAUTHORTS)",
        "CREATE INDEX \(transactionTable)_ZBUNDLEIDTS_INDEX ON \(transactionTable) (ZBUNDLEIDTS)",
        "CREATE INDEX \(transactionTable)_ZCONTEXTNAMETS_INDEX ON \(transactionTable) (ZCONTEXTNAMETS)",
        "CREATE INDEX \(transactionTable)_ZPROCESSIDTS_INDEX ON \(transactionTable) (ZPROCESSIDTS)",
        "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON \(transactionTable) (ZAUTHOR COLLATE BINARY ASC)",
        "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON \(transactionTable) (ZTIMESTAMP COLLATE BINARY ASC)",
        "CREATE TABLE \(changeTable) ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, "
            + "ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB )",
        "CREATE INDEX \(changeTable)_ZTRANSACTIONID_INDEX ON \(changeTable) (ZTRANSACTIONID)",
        "CREATE TABLE \(stringTable) ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON \(stringTable) (ZNAME COLLATE BINARY ASC)",
    ]

    // MARK: Statements the recorder reuses

    // Every row's Z_PK is reserved in Z_PRIMARYKEY first, as for any entity
    // (`generatePrimaryKeysForEntity:batch:` in `_insertTransactionForRequestContext:`,
    // `insertChanges:type:transactionID:context:` and `_transactionsStringAndPKsForStrings:`).
    static let insertString =
        "INSERT OR IGNORE INTO \(stringTable) (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, \(stringEntity), 1, ?)"
    static let selectString = "SELECT Z_PK FROM \(stringTable) WHERE ZNAME = ?"
    static let insertTransaction =
        "INSERT INTO \(transactionTable) (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, "
        + "ZPROCESSIDTS, ZTIMESTAMP, ZQUERYGEN) VALUES (?, \(transactionEntity), 1, ?, ?, ?, ?, ?, NULL)"
    static let insertChange =
        "INSERT INTO \(changeTable) (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, "
        + "ZCOLUMNS) VALUES (?, \(changeEntity), 1, ?, ?, ?, ?, ?)"

    /// Registers the three entities in `Z_PRIMARYKEY` (their `Z_MAX` the highest key stored), so
    /// that their keys are reserved as every entity's are. Core Data adds a missing row the
    /// first time it reserves a key (`generatePrimaryKeysForEntity:batch:`); here it is added
    /// when a store opens with tracking, which keeps the reservation one statement pair.
    static func registerKeys(in db: Database) throws {
        for (entity, name, table) in [
            (transactionEntity, "TRANSACTION", transactionTable), (changeEntity, "CHANGE", changeTable),
            (stringEntity, "TRANSACTIONSTRING", stringTable),
        ] {
            try db.execute(
                "INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) "
                    + "SELECT \(entity), '\(name)', 0, IFNULL(MAX(Z_PK), 0) FROM \(table)")
        }
    }

    // MARK: Looking at a store

    /// True when the store has the three tables.
    package static func exists(in db: Database) throws -> Bool {
        try db.scalarInt(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
                + "('\(transactionTable)', '\(changeTable)', '\(stringTable)')") == 3
    }

    /// True when a transaction is recorded: Core Data then refuses to write without tracking.
    static func hasRows(in db: Database) throws -> Bool {
        try db.scalarInt("SELECT EXISTS (SELECT 1 FROM \(transactionTable))") == 1
    }

    /// Creates whichever of the tables is missing (`createMissingHistoryTables`), in one
    /// transaction. Existing history is kept.
    static func createMissing(in db: Database) throws {
        guard try !exists(in: db) else { return }
        try db.execute("BEGIN EXCLUSIVE")
        do {
            for statement in createStatements {
                let ifNotExists =
                    statement
                    .replacingOccurrences(of: "CREATE TABLE ", with: "CREATE TABLE IF NOT EXISTS ")
                    .replacingOccurrences(of: "CREATE INDEX ", with: "CREATE INDEX IF NOT EXISTS ")
                    .replacingOccurrences(of: "CREATE UNIQUE INDEX ", with: "CREATE UNIQUE INDEX IF NOT EXISTS ")
                try db.execute(ifNotExists)
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}
