import CSQLite
import Foundation
import Synchronization

/// One SQLite connection.
///
/// A connection is used by one thread at a time: whoever owns it (a coordinator's writer lock,
/// a strategy's own thread, the verifier) confines it. It is opened in SQLite's multi-thread
/// mode (`SQLITE_OPEN_NOMUTEX`) because that confinement makes SQLite's own mutex pure cost.
/// That is why it is `@unchecked Sendable`: it may move between threads, never be shared by two.
package final class Database: @unchecked Sendable {
    /// The path given when opening (":memory:" or a `file:` URI for in-memory stores).
    package let path: String
    /// Where every statement executed on this connection is counted.
    package let counters: StatementCounters
    /// The raw handle, for the rare call this type does not wrap.
    package let handle: OpaquePointer
    /// True when `LOADGEN_SQL_DEBUG=1`: every statement is printed to stderr as it starts,
    /// like Core Data's `-com.apple.CoreData.SQLDebug 1`.
    let printsSQL: Bool
    /// How its lines in that log begin: `CoreData` for the engine's connections, `loadgen` for
    /// the others (`SQLDebugLog`).
    package let logTag: String
    /// True when the log is printed or a test keeps it (`StatementCounters.keepsSQLLog`).
    let logsSQL: Bool
    /// Read once per process (`ProcessInfo.environment` builds a dictionary of every variable:
    /// read per connection, a connection's allocations grew with the size of the environment,
    /// and count's allocation requests differed by 2 % between two shells).
    package static let printsSQLFromEnvironment = SQLDebugLog.level > 0
    /// Kept alive as long as the connection, which calls it.
    var busyHandler: BusyHandler?

    // MARK: Opening and closing

    /// Opens (and by default creates) the database at `path`.
    ///
    /// `path` may be a `file:` URI, so that several connections can share one in-memory
    /// database (`file:name?mode=memory&cache=shared`).
    package init(
        path: String, readOnly: Bool = false, counters: StatementCounters = StatementCounters(),
        logTag: String = SQLDebugLog.loadgenTag
    ) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var db: OpaquePointer?
        let rc = Self.withCPath(path) { sqlite3_open_v2($0, &db, flags, nil) }
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError(code: rc, connection: db)
            sqlite3_close_v2(db)
            throw error
        }
        sqlite3_extended_result_codes(db, 1)
        self.path = path
        self.handle = db
        self.counters = counters
        self.printsSQL = Self.printsSQLFromEnvironment
        self.logTag = logTag
        self.logsSQL = printsSQL || counters.keepsSQLLog
        Self.open.wrappingAdd(1, ordering: .relaxed)
    }

    /// One line of the SQL debug log: to stderr when asked for, to the counters when a test keeps it.
    func debugLog(_ text: String) {
        if printsSQL { FileHandleWriter.standardError(text) }
        counters.keepLog(text)
    }

    /// `path` as a C string in a buffer of its exact size, on the stack where it fits.
    ///
    /// Passing a String straight to C may copy it into an array that grows as it is filled;
    /// at some lengths it grew once more, and the allocations counted in a strategy's window
    /// followed the temporary folder's name: raw-sqlite counted 6,550 under TMPDIR=/tmp and
    /// 6,548 under /t, the same binary, so a baseline made on a machine with another temporary
    /// folder failed on unchanged code (issue 46). Every path a window hands to C goes through here.
    package static func withCPath<T>(_ path: String, _ body: (UnsafePointer<CChar>) -> T) -> T {
        let length = path.utf8.count
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer in
            var end = 0
            for byte in path.utf8 {
                buffer[end] = CChar(bitPattern: byte)
                end += 1
            }
            buffer[end] = 0
            return body(UnsafePointer(buffer.baseAddress!))
        }
    }

    /// Connections open in this process: a strategy that returns with connections still open
    /// has leaked them (the verifier checks before it reads the store).
    package static var openConnections: Int { open.load(ordering: .relaxed) }
    private static let open = Atomic<Int>(0)

    deinit {
        Self.open.wrappingAdd(-1, ordering: .relaxed)
        // close_v2 defers the close until every statement of this connection is finalized.
        sqlite3_close_v2(handle)
    }

    // MARK: Statements

    /// Prepares one statement for repeated use. Hot paths prepare once and reuse.
    package func prepare(_ sql: String) throws -> Statement {
        var stmt: OpaquePointer?
        var rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        // Preparing reads the schema, which another shared-cache connection may hold locked.
        while rc == ResultCode.lockedSharedCache.rawValue && waitForSharedCacheUnlock() {
            rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        }
        guard rc == SQLITE_OK, let stmt else { throw SQLiteError(code: rc, connection: handle, sql: sql) }
        return Statement(handle: stmt, database: self, sql: sql)
    }

    /// Executes one or more statements separated by semicolons, each counted by its kind.
    /// For DDL, pragmas and transaction control, not for hot paths.
    package func execute(_ sql: String) throws {
        try sql.withCString { start in
            var tail: UnsafePointer<CChar>? = start
            while let current = tail, current.pointee != 0 {
                var stmt: OpaquePointer?
                var rc = sqlite3_prepare_v2(handle, current, -1, &stmt, &tail)
                while rc == ResultCode.lockedSharedCache.rawValue && waitForSharedCacheUnlock() {
                    rc = sqlite3_prepare_v2(handle, current, -1, &stmt, &tail)
                }
                guard rc == SQLITE_OK else { throw SQLiteError(code: rc, connection: handle, sql: sql) }
                guard let stmt else { continue }   // whitespace or a comment
                let text = String(cString: sqlite3_sql(stmt)).trimmingCharacters(in: .whitespacesAndNewlines)
                let statement = Statement(handle: stmt, database: self, sql: text)
                while try statement.step() {}
            }
        }
    }

    /// The first column of the first row of `sql`, as an integer (0 when there is no row).
    package func scalarInt(_ sql: String) throws -> Int {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int(at: 0) : 0
    }

    /// The first column of the first row of `sql`, as text (nil when there is no row or it is NULL).
    package func scalarText(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.text(at: 0) : nil
    }

    // MARK: Shared-cache locks

    /// Waits until the connection that holds the table lock this connection just met
    /// (`SQLITE_LOCKED_SHAREDCACHE`) ends its transaction, as SQLite's `unlock_notify` example
    /// does. The busy handler is never called for these locks: without this, connections of one
    /// in-memory store fail at once where file connections would wait. Counted as a busy retry.
    /// False when SQLite detects that waiting would deadlock (then the caller's transaction must
    /// be rolled back and retried).
    func waitForSharedCacheUnlock() -> Bool {
        let waiter = UnlockWaiter()
        let context = Unmanaged.passRetained(waiter).toOpaque()
        let rc = sqlite3_unlock_notify(
            handle,
            { arguments, count in
                guard let arguments else { return }
                for i in 0..<Int(count) {
                    guard let argument = arguments[i] else { continue }
                    Unmanaged<UnlockWaiter>.fromOpaque(argument).takeUnretainedValue().signal()
                }
            }, context)
        defer { Unmanaged<UnlockWaiter>.fromOpaque(context).release() }
        guard rc == SQLITE_OK else { return false }
        waiter.wait()
        busyHandler?.noteWait()
        return true
    }

    // MARK: Connection state

    /// How long SQLite itself waits on a lock before returning `SQLITE_BUSY`.
    package func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The rowid of the last successful INSERT into any table. Settable, so that a caller can
    /// put a value no row has (0) before an INSERT and learn whether that INSERT added a row:
    /// `INSERT OR IGNORE` and an upsert's UPDATE leave it unchanged.
    package var lastInsertRowID: Int64 {
        get { sqlite3_last_insert_rowid(handle) }
        set { sqlite3_set_last_insert_rowid(handle, newValue) }
    }

    /// True while a transaction is open on this connection.
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The size of the main database's journal (the `-wal` file in WAL mode) in bytes, read
    /// through SQLite's own file handle (`SQLITE_FCNTL_JOURNAL_POINTER`, then `xFileSize`), as
    /// Core Data's post-save tasks read it. Nil when there is none (no journal opened yet, an
    /// in-memory store).
    package var journalFileSize: Int64? {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file) == SQLITE_OK,
            let file, let methods = file.pointee.pMethods, let size = methods.pointee.xFileSize
        else { return nil }
        var bytes: sqlite3_int64 = 0
        return size(file, &bytes) == SQLITE_OK ? bytes : nil
    }

    /// Bytes SQLite itself has allocated (page caches, statements), across all connections.
    package static var memoryUsed: Int { Int(sqlite3_memory_used()) }

    /// The version of the SQLite library in use, e.g. "3.40.1".
    package static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}

/// One wait for a shared-cache unlock: SQLite calls back (on the thread that released the
/// lock, or at once) and the blocked thread goes on.
final class UnlockWaiter: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func signal() { semaphore.signal() }
    func wait() { semaphore.wait() }
}
