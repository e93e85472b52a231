import Foundation
import Host
import SQLiteKit
import Synchronization

/// Owns a store's connections: one writer (writes are serialized through it) and a small pool
/// of readers (WAL lets them read while the writer writes).
///
/// Every context of a container shares one coordinator. Several coordinators on one file (an
/// app and its extension) contend on SQLite's own lock: their writers meet SQLITE_BUSY, which the
/// busy handler waits out and counts, and a transaction that still fails is retried a bounded
/// number of times.
package final class PersistentStoreCoordinator: Sendable {
    package let model: ManagedObjectModel
    package let options: StoreOptions
    /// Where values of attributes that allow external storage go past 128 KiB.
    let externalStorage: ExternalStorage
    /// Every statement of every connection of this coordinator is counted here.
    package let counters: StatementCounters
    /// Every context's object work is added up here (`ObjectWorkTally`), shared as `counters` is.
    package let objectWork: ObjectWorkTally
    /// Counts SQLite's waits on a lock held by another connection.
    package let busyHandler: BusyHandler
    /// The store's `Z_UUID`, part of every object ID.
    package let storeUUID: String
    let storeIndex: UInt32
    /// Writes persistent history, when the store is opened with it.
    let history: HistoryRecorder?
    /// Opened without history tracking a store that has recorded history: Core Data then forces
    /// the store read-only ("Store opened without NSPersistentHistoryTrackingKey but previously
    /// had been opened with NSPersistentHistoryTrackingKey - Forcing into Read Only mode"), so
    /// that no write escapes the history its consumers rely on. Every write throws.
    package let isReadOnly: Bool
    /// The rows the contexts hold, shared by them: faults look here first (`RowCache`).
    let rowCache = RowCache()

    private let writer: Protected<Connection>
    /// The thread holding `writer` (0: none), so that taking it again from that thread traps
    /// with a message instead of deadlocking on the mutex.
    private let writerOwner = Atomic<UInt>(0)
    private let readers: Protected<[Connection]>
    private let usesReaders: Bool
    private let retriedTransactions = Atomic<Int>(0)
    private let maintenance = PostSaveMaintenance()
    private let observers = Protected<[(id: Int, block: @Sendable (DidSaveNotification) -> Void)]>([])
    private let nextObserver = Atomic<Int>(0)

    /// How often a write transaction that failed on a lock is tried again.
    package static let maxTransactionAttempts = 5

    /// Opens the store at `options.path`, creating it from the model when it does not exist.
    /// An existing store must have been made for this model; otherwise this throws `StoreError`.
    package init(
        model: ManagedObjectModel, options: StoreOptions, counters: StatementCounters = StatementCounters(),
        objectWork: ObjectWorkTally = ObjectWorkTally()
    ) throws {
        self.model = model
        self.objectWork = objectWork
        self.options = options
        self.externalStorage = ExternalStorage(storePath: options.path, inMemory: options.isInMemory)
        self.counters = counters
        self.busyHandler = BusyHandler(timeoutMilliseconds: options.busyTimeoutMilliseconds)
        let db = try Database(path: options.path, counters: counters, logTag: SQLDebugLog.coreDataTag)
        busyHandler.install(on: db)
        try options.configure(db, busyHandler: true)
        let tables = try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table'")
        if tables == 0 {
            storeUUID = try StoreSchema.create(in: db, model: model)
        } else {
            storeUUID = try StoreSchema.check(db, model: model)
        }
        storeIndex = StoreRegistry.index(of: storeUUID, model: model)
        if options.persistentHistoryTracking {
            try HistorySchema.createMissing(in: db)
            try HistorySchema.registerKeys(in: db)
            history = HistoryRecorder()
            isReadOnly = false
        } else {
            history = nil
            isReadOnly = try HistorySchema.exists(in: db) && HistorySchema.hasRows(in: db)
        }
        writer = Protected(Connection(db))
        readers = Protected([])
        usesReaders = !options.isInMemory && options.journal == .wal
    }

    // MARK: Writing

    /// Runs `body` inside `BEGIN EXCLUSIVE … COMMIT` on the writer connection, holding the writer
    /// for the whole transaction. On a lock error the transaction is rolled back and tried again
    /// (up to `maxTransactionAttempts`); any other error rolls back and is thrown. `body` must
    /// only touch the store, so that running it again is safe.
    func performWrite<T>(_ body: (Connection) throws -> T) throws -> T {
        try withWriter { connection in try transaction(connection, body) }
    }

    /// A context's save, a batch update or a batch delete: `performWrite`, then, still holding
    /// the writer, the post-save tasks Core Data runs after each of them (`PostSaveMaintenance`).
    func performSave<T>(_ body: (Connection) throws -> T) throws -> T {
        try withWriter { connection in
            let result = try transaction(connection, body)
            maintenance.afterCommit(connection, wal: options.journal == .wal && !options.isInMemory)
            return result
        }
    }

    private func transaction<T>(_ connection: Connection, _ body: (Connection) throws -> T) throws -> T {
        guard !isReadOnly else { throw StoreError.readOnlyWithoutHistory(options.path) }
        var attempt = 1
        while true {
            do {
                try connection.execute("BEGIN EXCLUSIVE")
                let result = try body(connection)
                try connection.execute("COMMIT")
                return result
            } catch let error as SQLiteError where error.isBusy && attempt < Self.maxTransactionAttempts {
                if connection.db.isInTransaction { try? connection.execute("ROLLBACK") }
                history?.rolledBack()
                retriedTransactions.wrappingAdd(1, ordering: .relaxed)
                // A lock that outlasted the busy handler, or a shared-cache deadlock: let the
                // other side finish before trying again.
                Posix.sleep(microseconds: UInt32(1_000 * attempt))
                attempt += 1
            } catch {
                if connection.db.isInTransaction { try? connection.execute("ROLLBACK") }
                history?.rolledBack()
                throw error
            }
        }
    }

    /// Incremental vacuums run by post-save maintenance since the coordinator opened.
    package var incrementalVacuums: Int { maintenance.vacuums.load(ordering: .relaxed) }
    /// WAL checkpoints (TRUNCATE) post-save maintenance ran since the coordinator opened.
    package var walCheckpoints: Int { maintenance.checkpoints.load(ordering: .relaxed) }

    /// Lock waits (busy-handler calls) plus whole transactions retried after a lock error.
    package var busyRetries: Int { busyHandler.retries + retriedTransactions.load(ordering: .relaxed) }

    // MARK: Reading

    /// Holds the writer connection for `body`. Taking it again inside `body` (a save or batch
    /// request started from within another's transaction) is a programming error: it traps.
    private func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        let me = ConcurrencyDebug.currentThread()
        precondition(
            writerOwner.load(ordering: .relaxed) != me,
            "the store's writer was taken again by the thread that holds it (performWrite inside performWrite); "
                + "this would deadlock: finish the first write before starting another")
        return try writer.withLock { connection in
            writerOwner.store(me, ordering: .relaxed)
            defer { writerOwner.store(0, ordering: .relaxed) }
            return try body(connection)
        }
    }

    /// Whether some thread holds the store's writer now (a save, a batch request): what a second
    /// writer on this coordinator would wait for.
    package var isWriterHeld: Bool { writerOwner.load(ordering: .relaxed) != 0 }

    /// Runs `body` on a reader connection (or the writer, for stores without WAL readers).
    func performRead<T>(_ body: (Connection) throws -> T) throws -> T {
        guard usesReaders else { return try withWriter(body) }
        let connection = try readers.withLock { pool -> Connection in
            if let c = pool.popLast() { return c }
            let db = try Database(path: options.path, counters: counters, logTag: SQLDebugLog.coreDataTag)
            busyHandler.install(on: db)
            try options.configure(db, busyHandler: true)
            return Connection(db)
        }
        defer { readers.withLock { $0.append(connection) } }
        return try body(connection)
    }

    // MARK: Did-save notifications

    /// Calls `block` after every save of any context on this coordinator (on the saving
    /// context's queue). Returns a token for `removeObserver`.
    @discardableResult
    package func addDidSaveObserver(_ block: @escaping @Sendable (DidSaveNotification) -> Void) -> Int {
        let id = nextObserver.wrappingAdd(1, ordering: .relaxed).newValue
        observers.withLock { $0.append((id, block)) }
        return id
    }

    package func removeObserver(_ token: Int) {
        observers.withLock { $0.removeAll { $0.id == token } }
    }

    /// True when someone listens for saves (building the notification can then be skipped).
    var hasObservers: Bool { observers.withLock { !$0.isEmpty } }

    func post(_ notification: DidSaveNotification) {
        let blocks = observers.withLock { $0.map(\.block) }
        for block in blocks { block(notification) }
    }
}
