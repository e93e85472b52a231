import CSQLite
import Foundation

/// Names and literals as they go into SQL text, so that no name from a model file can be read as
/// SQL (issue 27).
///
/// Core Data writes its identifiers bare (`SELECT t0.Z_PK FROM ZITEM t0`, as SQLDebug logs show),
/// and every name a valid model produces is a plain word (`Z` + letters, digits, underscores), so
/// a plain word stays bare and the engine's SQL reads as Core Data's. Anything else — a space, a
/// quote, a keyword — is double-quoted with its quotes doubled, which SQLite reads as one
/// identifier whatever it holds. The model reader refuses such names first; this is the second
/// line, for models built in code.
package enum SQLIdentifier {
    /// `name` as an SQL identifier: bare when it is a plain word that is not a keyword, else
    /// `"…"` with every `"` doubled.
    package static func quoted(_ name: String) -> String {
        if isPlainWord(name) && !isKeyword(name) { return name }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` as an SQL string literal: `'…'` with every `'` doubled.
    package static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Letters, digits and underscores (ASCII), not starting with a digit.
    package static func isPlainWord(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return name.utf8.allSatisfy { c in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: "_")
        }
    }

    /// Whether SQLite reads `name` as a keyword (`sqlite3_keyword_check`).
    package static func isKeyword(_ name: String) -> Bool {
        name.withCString { sqlite3_keyword_check($0, Int32(strlen($0))) != 0 }
    }

    /// SQLite's limit on the columns of one table (`SQLITE_MAX_COLUMN`, as this library was built).
    /// Read from an in-memory connection once (a limit is a property of a connection).
    package static let maximumColumns: Int = {
        var db: OpaquePointer?
        defer { sqlite3_close(db) }
        guard sqlite3_open(":memory:", &db) == SQLITE_OK else { return 2000 }   // SQLite's default
        return Int(sqlite3_limit(db, SQLITE_LIMIT_COLUMN, -1))
    }()
}
