import Foundation

/// `LOADGEN_SQL_DEBUG=1`: every statement on stderr in the shape of Core Data's
/// `-com.apple.CoreData.SQLDebug 1`, so that a team can lay loadgen's log beside its app's.
///
/// Core Data at level 1 prints each statement as prepared, its parameters as `?`
/// (`CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, … FROM ZPERSON t0 WHERE t0.ZAGE > ?`), and after
/// a fetch `CoreData: annotation: sql connection fetch time: 0.4789s.` and `CoreData: annotation:
/// total fetch execution time: …s for N rows.` (logs at each level: Ray McCrae, "Core Data
/// SQLDebug Log Levels", 2017; docs/ENGINE.md). Both times here are SQLite's alone: loadgen turns
/// rows into objects after the statement is done, so the second has no object time in it.
/// Levels 2 and 3 (bound values, the rows' objects) are not reproduced: any level prints level 1.
package enum SQLDebugLog {
    /// The level asked for (`LOADGEN_SQL_DEBUG=1`…`3`), 0 when off.
    package static let level: Int = {
        guard let text = ProcessInfo.processInfo.environment["LOADGEN_SQL_DEBUG"], let n = Int(text), n > 0 else { return 0 }
        return min(n, 3)
    }()

    /// Prints the statement as it starts; the time it started.
    static func started(_ sql: String) -> UInt64 {
        FileHandleWriter.standardError("CoreData: sql: \(sql)\n")
        return DispatchTime.now().uptimeNanoseconds
    }

    /// The annotations of a fetch that returned `rows` rows.
    static func fetched(_ rows: Int, since start: UInt64) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        FileHandleWriter.standardError(String(format: "CoreData: annotation: sql connection fetch time: %.4fs.\n", seconds)
            + String(format: "CoreData: annotation: total fetch execution time: %.4fs for %d rows.\n", seconds, rows))
    }
}
