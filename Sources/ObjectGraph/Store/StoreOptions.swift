import Foundation
import Host
import SQLiteKit

/// Where a store lives and how durable its writes are: the run parameters that change what
/// a commit costs.
package struct StoreOptions: Sendable, Equatable, Codable {
    package enum Journal: String, Sendable, Codable, CaseIterable { case wal, delete }
    package enum Synchronous: String, Sendable, Codable, CaseIterable {
        case off, normal, full

        /// What Core Data runs with: its `connect` sets `synchronous` only when the app passes it
        /// in `NSSQLitePragmasOption`, so SQLite's compiled default applies, FULL
        /// (`SQLITE_DEFAULT_SYNCHRONOUS=2`, which WAL also takes unless a build sets
        /// `SQLITE_DEFAULT_WAL_SYNCHRONOUS`). docs/ENGINE.md has the evidence.
        package static let coreDataDefault = Synchronous.full

        /// What a loadgen run uses unless `--synchronous` says otherwise: NORMAL, because here
        /// it stands closer to Core Data's FULL on a device than FULL does. On Apple's systems a
        /// FULL commit is a plain `fsync()` (SQLite uses `F_FULLFSYNC` only with `PRAGMA
        /// fullfsync`, off by default and not set by Core Data), which hands the WAL to the drive
        /// without flushing the drive's cache; on Linux the same `fsync()` flushes the device, so
        /// every commit pays a cache flush a device never pays. Under NORMAL both sides sync at
        /// checkpoints only. Decision 0006 and docs/ENGINE.md have the measurements.
        package static let runDefault = Synchronous.normal
    }

    /// A file path, or a `file:…?mode=memory&cache=shared` URI for an in-memory store that
    /// several connections of one process share.
    package var path: String
    package var journal: Journal = .wal
    package var synchronous: Synchronous = .coreDataDefault
    /// How long SQLite waits on a lock before answering SQLITE_BUSY (Core Data: 2–30 s).
    package var busyTimeoutMilliseconds: Int32 = 5_000
    /// Record persistent history (`NSPersistentHistoryTrackingKey`): every save and batch
    /// request writes a transaction and its changes, in its own write transaction.
    package var persistentHistoryTracking = false
    /// Pragmas an app passes with `NSSQLitePragmasOption`, set on every connection after Core
    /// Data's own, in order (integer values: nothing is spliced into SQL but digits).
    package var pragmas: [Pragma] = []

    /// `PRAGMA <name> = <value>`.
    package struct Pragma: Codable, Hashable, Sendable {
        package let name: String
        package let value: Int64
        package init(_ name: String, _ value: Int64) {
            self.name = name
            self.value = value
        }
    }

    package init(path: String, journal: Journal = .wal, synchronous: Synchronous = .coreDataDefault) {
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

    /// Applies the pragmas Core Data's `NSSQLiteConnection connect` sets: `auto_vacuum = 2` and
    /// the page size on a new file, WAL, `recursive_triggers = 1`; `synchronous` only because
    /// loadgen sweeps it (its default is the one Core Data leaves in place). The WAL's
    /// auto-checkpoint stays SQLite's (1000 pages): Core Data does not set it, and checkpoints
    /// itself after a save once the WAL passes 8 MiB (`PostSaveMaintenance`).
    /// With `busyHandler`, the caller has installed a counting `BusyHandler` (which replaces
    /// SQLite's busy timeout); otherwise the plain timeout is set.
    package func configure(_ db: Database, busyHandler: Bool = false) throws {
        if !busyHandler { db.setBusyTimeout(milliseconds: busyTimeoutMilliseconds) }
        // Core Data creates its stores with incremental auto-vacuum (its post-save maintenance
        // runs `pragma incremental_vacuum`), on a new file only (`connect`). It takes only on a
        // file with no table yet, and before the journal becomes WAL. On an existing store it
        // changes nothing but still writes the header's vacuum flag, a write transaction: a
        // reader connection opened while a long save holds the writer waited for it and could
        // fail with SQLITE_BUSY (a corpus run's producer thread, under load).
        if isNewFile {
            try db.execute("PRAGMA auto_vacuum = 2; PRAGMA page_size = \(Self.pageSize)")
        }
        if !isInMemory {
            // journal_mode answers with a row; WAL persists in the file once set.
            _ = try db.scalarText("PRAGMA journal_mode=\(journal == .wal ? "WAL" : "DELETE")")
        }
        try db.execute("PRAGMA synchronous=\(synchronous.rawValue.uppercased()); PRAGMA recursive_triggers=1")
        for pragma in pragmas { try db.execute("PRAGMA \(pragma.name) = \(pragma.value)") }
    }

    /// A file with nothing in it yet (SQLite creates it empty on open), or a store in memory
    /// (each connection of which sees the pragmas as a new file would). Told by the file's size,
    /// not by a query: a connection's setup issues no statement beyond Core Data's.
    private var isNewFile: Bool {
        if isInMemory { return true }
        var info = stat()
        return Database.withCPath(path) { Posix.stat($0, &info) } != 0 || info.st_size == 0
    }

    /// The page size Core Data gives a new store (`connect`: 4096, unless the app's pragmas say
    /// otherwise); post-save maintenance counts pages of this size.
    package static let pageSize = 4096
}
