import CSQLite

/// An error reported by SQLite, with the statement that caused it when there was one.
///
/// The result code is kept so callers can tell a lock (`SQLITE_BUSY`, `SQLITE_LOCKED`),
/// which is worth retrying, from everything else, which is not.
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The extended result code returned by SQLite.
    package let code: ResultCode
    /// SQLite's own message (`sqlite3_errmsg`).
    package let message: String
    /// The SQL being prepared or executed, when known.
    package let sql: String?

    package init(code: ResultCode, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.init(code: ResultCode(rawValue: code), message: text ?? String(cString: sqlite3_errstr(code)), sql: sql)
    }

    /// The primary result code (the low byte of the extended code).
    package var primaryCode: ResultCode { code.primary }

    /// True for the lock errors a writer may retry: another connection holds the lock.
    package var isBusy: Bool { primaryCode == .busy || primaryCode == .locked }

    /// True when a UNIQUE, PRIMARY KEY or other constraint rejected the write.
    package var isConstraint: Bool { primaryCode == .constraint }

    package var description: String {
        if let sql { return "SQLite error \(code.rawValue): \(message) (in: \(sql))" }
        return "SQLite error \(code.rawValue): \(message)"
    }
}
