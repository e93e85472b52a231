import SQLiteKit
import Synchronization

/// What Core Data's store does after every committed save (`NSSQLiteConnection`'s
/// `_performPostSaveTasks:andForceFullVacuum:`): it reads `pragma page_count` and
/// `pragma freelist_count`, as the SQL debug log shows after each save's `COMMIT`, and gives
/// free pages back with `pragma incremental_vacuum` when the freelist has grown (the store is
/// created with `auto_vacuum = 2`, incremental). Its log line reads
/// "PostSaveMaintenance: incremental_vacuum with freelist_count".
///
/// Core Data's own threshold is not public; this one is documented in docs/ENGINE.md: vacuum
/// when at least `minimumFreePages` pages are free and they are at least `minimumFreeShare` of
/// the file, so that a store that deleted little never pays for a vacuum after every save.
///
/// Runs on the writer connection, which the coordinator's writer lock confines.
final class PostSaveMaintenance: Sendable {
    /// Free pages (4 KiB each) below which no vacuum runs: 1 MiB.
    static let minimumFreePages = 256
    /// Share of the file's pages that must be free before a vacuum runs.
    static let minimumFreeShare = 0.1

    let vacuums = Atomic<Int>(0)

    /// The two pragmas, and the vacuum when the freelist passes the threshold. The save has
    /// committed: a failure here is not the save's, and leaves the free pages for next time.
    func afterSave(_ connection: Connection) {
        guard let pages = try? count(connection, "pragma page_count"),
              let free = try? count(connection, "pragma freelist_count"),
              Self.shouldVacuum(freePages: free, pages: pages) else { return }
        do {
            try connection.db.execute("pragma incremental_vacuum(\(free))")
            vacuums.wrappingAdd(1, ordering: .relaxed)
        } catch {
            // A reader holding an old snapshot can make the vacuum wait out the busy handler;
            // the pages stay free and the next save tries again.
        }
    }

    /// The threshold, on its own for the tests.
    static func shouldVacuum(freePages: Int, pages: Int) -> Bool {
        freePages >= minimumFreePages && Double(freePages) >= minimumFreeShare * Double(max(pages, 1))
    }

    private func count(_ connection: Connection, _ pragma: String) throws -> Int {
        let s = try connection.statement(pragma)
        defer { s.reset() }
        return try s.step() ? Int(s.int(at: 0)) : 0
    }
}
