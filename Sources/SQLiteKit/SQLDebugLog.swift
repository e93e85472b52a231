import Foundation

/// `LOADGEN_SQL_DEBUG=1`: every statement on stderr in the shape of Core Data's
/// `-com.apple.CoreData.SQLDebug 1`, so that a team can lay loadgen's log beside its app's.
///
/// Core Data at level 1 prints each statement as prepared, its parameters as `?`
/// (`CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, … FROM ZPERSON t0 WHERE t0.ZAGE > ?`), and after
/// it an annotation where the framework times it (docs/ENGINE.md, "The SQL debug log"):
/// - a fetch: `sql connection fetch time: 0.4789s.` and `total fetch execution time: …s for N
///   rows.` (Ray McCrae, "Core Data SQLDebug Log Levels", 2017);
/// - a count: `total count request execution time: 0.0002s for count of 190.` (fatbobman.com's
///   "count in Core Data", 2022; the string in the decompiled framework);
/// - a pragma run through the connection's execute path: `sql execution time: 0.0002s` (a real
///   log of a one-object save, azamsharp's "Embracing Core Data in SwiftUI", 2023: the pragmas of
///   the first save and of the save's maintenance have one; BEGIN, INSERT, the key reservation
///   and COMMIT have none).
/// Both fetch times are SQLite's alone: loadgen turns rows into objects after the statement is
/// done. Only the engine's connections are tagged `CoreData:`; the verifier's, the prefill's and
/// the raw-sqlite limit's are tagged `loadgen:` (they are loadgen's checks, not Core Data's work).
/// - a fault fulfilled by its own query: `fault fulfilled from database for : 0xd000000000100002
///   <x-coredata://…/Country/p4>` (the decompiled framework's format string; a SQLDebug log of a
///   fault), written here without the object ID's address, which loadgen has no counterpart of.
/// Levels 2 and 3 (bound values, the rows' objects) are not reproduced: any level prints level 1.
package enum SQLDebugLog {
    /// The level asked for (`LOADGEN_SQL_DEBUG=1`…`3`), 0 when off.
    package static let level: Int = {
        guard let text = ProcessInfo.processInfo.environment["LOADGEN_SQL_DEBUG"], let n = Int(text), n > 0 else {
            return 0
        }
        return min(n, 3)
    }()

    /// The tag of the engine's connections, as Core Data's own lines begin.
    package static let coreDataTag = "CoreData"
    /// The tag of every other connection (the verifier, a strategy's raw SQLite).
    package static let loadgenTag = "loadgen"

    /// Tables of the store's own bookkeeping, read without an annotation.
    static let bookkeeping = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE", "sqlite_master"]

    /// The line of a statement as it starts.
    static func line(_ sql: String, tag: String) -> String { "\(tag): sql: \(sql)\n" }

    /// What follows a finished statement, as Core Data annotates it; nil for a statement it does
    /// not annotate. `count` is the first column of the last row (for a count).
    static func annotation(_ sql: String, kind: StatementKind, rows: Int, count: Int64?, seconds: Double, tag: String)
        -> String?
    {
        let head = sql.prefix(14).uppercased()
        if head.hasPrefix("PRAGMA") {
            return String(format: "%@: annotation: sql execution time: %.4fs\n", tag, seconds)
        }
        // The store's own bookkeeping (the key reservation's `SELECT Z_MAX FROM Z_PRIMARYKEY`,
        // the schema checks) is no fetch request: the real log of a save shows it bare.
        guard kind == .select, !Self.bookkeeping.contains(where: { sql.contains($0) }) else { return nil }
        if head.hasPrefix("SELECT COUNT("), let count {
            return String(
                format: "%@: annotation: total count request execution time: %.4fs for count of %lld.\n", tag, seconds,
                count)
        }
        return String(format: "%@: annotation: sql connection fetch time: %.4fs.\n", tag, seconds)
            + String(format: "%@: annotation: total fetch execution time: %.4fs for %d rows.\n", tag, seconds, rows)
    }

    /// A line the engine adds itself (a fault fulfilled), tagged as the connection's statements;
    /// the text is made only when the log is on (a fault is a hot path).
    package static func note(_ text: @autoclosure () -> String, on database: Database) {
        guard _slowPath(database.logsSQL) else { return }
        database.debugLog("\(database.logTag): annotation: \(text())\n")
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}
