import CSQLite

/// An SQLite result code (primary or extended), typed so that code compares names, not numbers.
///
/// SQLite's codes are C macros of `int`; wrapping them keeps `262` out of the engine's logic
/// (`error.code == .lockedSharedCache`) while printing still shows the number users search for.
package struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code (the low byte of an extended code): `lockedSharedCache` → `locked`.
    package var primary: ResultCode { ResultCode(rawValue: rawValue & 0xff) }

    // MARK: Codes the engine tells apart

    package static let ok = ResultCode(rawValue: SQLITE_OK)
    package static let error = ResultCode(rawValue: SQLITE_ERROR)
    /// Another connection (of another process or shared cache) holds the file lock.
    package static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// A table lock within this process's shared cache, or a deadlock between its connections.
    package static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    /// `SQLITE_LOCKED_SHAREDCACHE` (262): another connection of the shared cache holds the table.
    package static let lockedSharedCache = ResultCode(rawValue: SQLITE_LOCKED | (1 << 8))
    package static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    package static let range = ResultCode(rawValue: SQLITE_RANGE)
    package static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    package static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    package static let full = ResultCode(rawValue: SQLITE_FULL)
    package static let misuse = ResultCode(rawValue: SQLITE_MISUSE)

    /// The number and SQLite's name for it: "262 (database table is locked)".
    package var description: String { "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))" }
}
