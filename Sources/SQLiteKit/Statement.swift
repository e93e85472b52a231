import CSQLite

/// A prepared statement, reused across executions.
///
/// Binding takes raw values and byte buffers so that hot paths build no String per row.
/// The first `step()` after a reset counts one execution in the connection's
/// `StatementCounters`: a statement's cost is counted where it is paid, whatever the caller.
package final class Statement {
    /// The raw handle, for the rare call this type does not wrap.
    package let handle: OpaquePointer
    /// What the statement does, for counting.
    package let kind: StatementKind
    /// The statement's SQL, as prepared.
    package let sql: String
    private let database: Database
    private let isCommit: Bool
    private var started = false
    /// True once the current execution has returned a row: a lock met later cannot be waited
    /// out by starting over, which would hand the caller those rows again.
    private var returnedRow = false
    /// Rows the current execution returned so far: handed to the counters once, when it ends
    /// (a plain count per row; no shared counter touched per row).
    private var rows = 0
    /// The first bind that SQLite refused since the last step, as (code, parameter index). A
    /// statement is never stepped with a parameter left at its previous value: `step()` throws.
    private var bindFailure: (code: Int32, index: Int32)?
    /// Where `bindText(copy:at:)` keeps the bytes it binds (created on first use).
    private var arena: TextArena?
    /// When the current execution started, under `LOADGEN_SQL_DEBUG` (its fetch-time annotation).
    private var debugStart: UInt64?
    /// The first column of the last row, for a count's annotation (kept only while logging).
    private var debugCount: Int64?

    init(handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
        self.kind = StatementKind.classify(sql)
        let head = sql.prefix(8).uppercased()
        self.isCommit = kind == .transaction && (head.hasPrefix("COMMIT") || head.hasPrefix("END"))
    }

    deinit {
        if _slowPath(debugStart != nil) { annotate() }
        flushRows()
        flushVMSteps()
        sqlite3_finalize(handle)
    }

    // MARK: Binding (1-based indexes, as in SQLite)

    @inline(__always)
    package func bind(_ value: Int64, at index: Int32) {
        check(sqlite3_bind_int64(handle, index, value), index)
    }

    @inline(__always)
    package func bind(_ value: Int, at index: Int32) {
        check(sqlite3_bind_int64(handle, index, Int64(value)), index)
    }

    @inline(__always)
    package func bind(_ value: Double, at index: Int32) {
        check(sqlite3_bind_double(handle, index, value), index)
    }

    /// Binds UTF-8 bytes without copying them: the buffer must stay valid and unchanged until
    /// the statement is stepped to completion or reset. This is the hot-path text binding. Empty
    /// text binds '' (never NULL).
    @inline(__always)
    package func bindText(noCopy bytes: UnsafeRawBufferPointer, at index: Int32) {
        if bytes.isEmpty {
            check(loadgen_bind_empty_text(handle, index), index)
            return
        }
        check(
            sqlite3_bind_text(
                handle, index, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                Int32(bytes.count), loadgen_sqlite_static()), index)
    }

    /// Starts a round of `bindText(copy:at:)`: the text bound that way in the previous round may
    /// be overwritten, so every such parameter must be bound again before the next step.
    @inline(__always)
    package func startTextRound() {
        if let arena { arena.startRound() } else { arena = TextArena() }
    }

    /// Binds a String through the statement's own buffer: one copy into memory the statement
    /// keeps, bound in place, instead of SQLite allocating and freeing a copy per parameter.
    /// For hot paths; call `startTextRound()` before each round of bindings.
    @inline(__always)
    package func bindText(copy text: String, at index: Int32) {
        guard let arena else { preconditionFailure("bindText(copy:at:) before startTextRound() on: \(sql)") }
        bindText(noCopy: arena.copy(text), at: index)
    }

    /// Binds a String (SQLite copies it). Convenient; not for per-row hot paths.
    package func bind(_ value: String, at index: Int32) {
        if value.isEmpty {
            check(loadgen_bind_empty_text(handle, index), index)
            return
        }
        var copy = value
        let rc = copy.withUTF8 { buffer in
            sqlite3_bind_text(
                handle, index, UnsafeRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: CChar.self),
                Int32(buffer.count), loadgen_sqlite_transient())
        }
        check(rc, index)
    }

    /// Binds UTF-8 bytes as text (SQLite copies them). Not for per-row hot paths.
    package func bindText(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
        if bytes.isEmpty {
            check(loadgen_bind_empty_text(handle, index), index)
            return
        }
        check(
            sqlite3_bind_text(
                handle, index, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                Int32(bytes.count), loadgen_sqlite_transient()), index)
    }

    /// Binds bytes as a BLOB (SQLite copies them).
    package func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
        // A zero-length buffer may have no address, which would bind NULL rather than X''.
        if bytes.isEmpty {
            check(sqlite3_bind_zeroblob(handle, index, 0), index)
            return
        }
        check(
            sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), loadgen_sqlite_transient()), index)
    }

    /// Binds bytes as a BLOB without copying; the same lifetime rule as `bindText(noCopy:at:)`.
    @inline(__always)
    package func bindBlob(noCopy bytes: UnsafeRawBufferPointer, at index: Int32) {
        if bytes.isEmpty {
            check(sqlite3_bind_zeroblob(handle, index, 0), index)
            return
        }
        check(sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), loadgen_sqlite_static()), index)
    }

    @inline(__always)
    package func bindNull(at index: Int32) {
        check(sqlite3_bind_null(handle, index), index)
    }

    /// Notes the first refused bind; `step()` reports it instead of running with a stale value.
    @inline(__always)
    private func check(_ rc: Int32, _ index: Int32) {
        if _slowPath(rc != SQLITE_OK) && bindFailure == nil { bindFailure = (rc, index) }
    }

    // MARK: Executing

    /// Advances the statement: true when a row is available, false when done.
    ///
    /// A table lock held by another connection of a shared-cache (in-memory) store is waited
    /// out (`Database.waitForSharedCacheUnlock`) and the statement started again, as long as it
    /// has not returned a row yet. On any other error, and on a bind SQLite refused, the
    /// statement is reset (so it can be bound again and retried) and the error thrown.
    @inline(__always)
    @discardableResult
    package func step() throws -> Bool {
        if _slowPath(bindFailure != nil) { try throwBindFailure() }
        if !started {
            started = true
            returnedRow = false
            database.counters.record(kind)
            database.counters.note(sql)
            if _slowPath(database.logsSQL) {
                database.debugLog(SQLDebugLog.line(sql, tag: database.logTag))
                debugStart = SQLDebugLog.now()
                debugCount = nil
            }
        }
        while true {
            let rc = sqlite3_step(handle)
            if rc == SQLITE_ROW {
                returnedRow = true
                rows += 1
                if _slowPath(debugStart != nil) { debugCount = sqlite3_column_int64(handle, 0) }
                return true
            }
            if rc == SQLITE_DONE {
                if isCommit { database.counters.recordCommit() }
                if _slowPath(debugStart != nil) { annotate() }
                flushRows()
                return false
            }
            if rc == ResultCode.lockedSharedCache.rawValue && !returnedRow && database.waitForSharedCacheUnlock() {
                sqlite3_reset(handle)
                continue
            }
            sqlite3_reset(handle)
            started = false
            flushRows()
            throw SQLiteError(code: rc, connection: database.handle, sql: sql)
        }
    }

    private func throwBindFailure() throws {
        let (rc, index) = bindFailure!
        bindFailure = nil
        sqlite3_reset(handle)
        started = false
        let message = "cannot bind parameter \(index): " + String(cString: sqlite3_errstr(rc))
        throw SQLiteError(code: ResultCode(rawValue: rc), message: message, sql: sql)
    }

    /// Steps to completion and resets, keeping the bindings: the usual way to run a write.
    @inline(__always)
    package func run() throws {
        while try step() {}
        reset()
    }

    /// Makes the statement ready to run again. Bindings are kept.
    @inline(__always)
    package func reset() {
        if _slowPath(debugStart != nil) { annotate() }
        sqlite3_reset(handle)
        started = false
        flushRows()
        flushVMSteps()
    }

    /// The steps run since the last flush, counted when the statement is reset (after each use)
    /// as well as when it is finalized: a statement prepared before the measured window (a
    /// set-up's query kept in the connection's cache) and finalized after it put its steps in the
    /// window (update-by-id's ID fetch: 82,230 steps read 146,035 at 20 k rows).
    @inline(__always)
    private func flushVMSteps() {
        let steps = Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_VM_STEP, 1))
        if steps > 0 { database.counters.recordVMSteps(steps) }
    }

    @inline(__always)
    /// The SQL debug log's annotation of the statement just finished (when it is done, or reset
    /// or finalized after the rows its reader wanted).
    private func annotate() {
        if let start = debugStart,
            let note = SQLDebugLog.annotation(
                sql, kind: kind, rows: rows, count: debugCount,
                seconds: SQLDebugLog.seconds(since: start), tag: database.logTag)
        {
            database.debugLog(note)
        }
        debugStart = nil
    }

    private func flushRows() {
        guard rows > 0 else { return }
        database.counters.recordRows(rows)
        rows = 0
    }

    // MARK: Reading columns (0-based indexes, as in SQLite)

    @inline(__always)
    package func int(at column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    @inline(__always)
    package func double(at column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    package func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    /// The column as a String (nil when NULL).
    package func text(at column: Int32) -> String? {
        guard let cString = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: cString, count: count), as: UTF8.self)
    }

    /// The column's bytes, valid only until the next step or reset: for comparing or hashing
    /// without building a String.
    @inline(__always)
    package func withBytes<R>(at column: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let type = sqlite3_column_type(handle, column)
        let pointer =
            type == SQLITE_BLOB
            ? sqlite3_column_blob(handle, column)
            : UnsafeRawPointer(sqlite3_column_text(handle, column))
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// How many columns a row of the result has.
    package var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The type a result column was declared with in its table (`VARCHAR`, `INTEGER`), through
    /// subqueries; nil for an expression. A temporary table declared with it compares and converts
    /// values as the store does, so lookups between the two can use an index (SQLite refuses an
    /// index whose affinity differs from the comparison's).
    package func declaredType(at column: Int32) -> String? {
        sqlite3_column_decltype(handle, column).map { String(cString: $0) }
    }

    /// The column as bytes (nil when NULL).
    package func blob(at column: Int32) -> [UInt8]? {
        if isNull(at: column) { return nil }
        return withBytes(at: column) { Array($0) }
    }
}
