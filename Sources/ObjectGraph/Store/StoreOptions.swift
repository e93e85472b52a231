import SQLiteKit

/// Where a store lives and how durable its writes are: the run parameters that change what
/// a commit costs.
package struct StoreOptions: Sendable, Equatable, Codable {
    package enum Journal: String, Sendable, Codable, CaseIterable { case wal, delete }
    package enum Synchronous: String, Sendable, Codable, CaseIterable { case off, normal, full }

    /// A file path, or a `file:…?mode=memory&cache=shared` URI for an in-memory store that
    /// several connections of one process share.
    package var path: String
    package var journal: Journal = .wal
    package var synchronous: Synchronous = .normal
    /// How long SQLite waits on a lock before answering SQLITE_BUSY (Core Data: 2–30 s).
    package var busyTimeoutMilliseconds: Int32 = 5_000
    /// Record persistent history (`NSPersistentHistoryTrackingKey`): every save and batch
    /// request writes a transaction and its changes, in its own write transaction.
    package var persistentHistoryTracking = false

    package init(path: String, journal: Journal = .wal, synchronous: Synchronous = .normal) {
        self.path = path
        self.journal = journal
        self.synchronous = synchronous
    }

    /// An in-memory store named `name`, shared by the connections of this process.
    package static func memory(named name: String) -> StoreOptions {
        StoreOptions(path: "file:\(name)?mode=memory&cache=shared")
    }

    /// True for a store that lives in memory only.
    package var isInMemory: Bool { path.contains("mode=memory") || path == ":memory:" }

    /// Applies the pragmas every connection to the store needs, as Core Data sets them.
    /// With `busyHandler`, the caller has installed a counting `BusyHandler` (which replaces
    /// SQLite's busy timeout); otherwise the plain timeout is set.
    package func configure(_ db: Database, busyHandler: Bool = false) throws {
        if !busyHandler { db.setBusyTimeout(milliseconds: busyTimeoutMilliseconds) }
        // Core Data creates its stores with incremental auto-vacuum (its post-save maintenance
        // runs `pragma incremental_vacuum`). It takes only on a file with no table yet, and
        // before the journal becomes WAL; on an existing store it changes nothing.
        try db.execute("PRAGMA auto_vacuum = 2")
        if !isInMemory {
            // journal_mode answers with a row; WAL persists in the file once set.
            _ = try db.scalarText("PRAGMA journal_mode=\(journal == .wal ? "WAL" : "DELETE")")
        }
        // Checkpoint when the WAL passes 8 MiB (2048 pages of 4 KiB), as Core Data does.
        try db.execute("PRAGMA synchronous=\(synchronous.rawValue.uppercased()); PRAGMA recursive_triggers=1; "
                       + "PRAGMA wal_autocheckpoint=2048")
    }
}
