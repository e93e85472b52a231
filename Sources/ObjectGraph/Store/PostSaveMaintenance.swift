import CSQLite
import SQLiteKit
import Synchronization

/// What Core Data's store does after every committed save, batch update and batch delete, on
/// the writer connection: `NSSQLiteConnection`'s `_performPostSaveTasks:andForceFullVacuum:`
/// (iOS 18.2, decompiled; docs/ENGINE.md quotes it).
///
/// 1. The WAL file past 8 MiB ("PostSaveMaintenance: fileSize %lld greater than prune
///    threshold"): the free-page check runs now, and a `wal_checkpoint(TRUNCATE)` follows.
/// 2. A countdown per connection: the free-page check (`pragma page_count`, then
///    `pragma freelist_count`) runs when it is 0 and sets it to 10; otherwise it only goes down
///    by one. A connection starts at 0, so saves 1, 12, 23, … check.
/// 3. With free pages, when more than 1023 are free or at most 85 % of the pages are in use,
///    `pragma incremental_vacuum(n)`: n is a fifth of the free pages while at least 40 % are
///    in use, else the free pages beyond the used ones.
///
/// Runs on the writer connection, which the coordinator's writer lock confines; the counters
/// are atomics only so that they can be read from any thread.
final class PostSaveMaintenance: Sendable {
    /// The WAL size past which the save checkpoints: Core Data's "prune threshold".
    static let walPruneThreshold: Int64 = 0x80_0000
    /// Saves between two free-page checks, after the one that checks.
    static let checkInterval = 10
    /// Free pages beyond which a vacuum runs whatever the share.
    static let vacuumFreePages = 1023
    /// The used share at or below which a vacuum runs.
    static let vacuumUsedShare = 0.85
    /// The used share from which a vacuum frees only a fifth of the free pages.
    static let partialVacuumUsedShare = 0.4

    private let countdown = Atomic<Int>(0)
    let vacuums = Atomic<Int>(0)
    let checkpoints = Atomic<Int>(0)

    /// The tasks after a commit. The save has committed: a failure here is not the save's,
    /// and leaves the free pages or the WAL for next time.
    func afterCommit(_ connection: Connection, wal: Bool) {
        var checkpoint = false
        if wal, let size = connection.db.journalFileSize, size > Self.walPruneThreshold {
            countdown.store(0, ordering: .relaxed)
            checkpoint = true
        }
        let left = countdown.load(ordering: .relaxed)
        if left > 0 {
            countdown.store(left - 1, ordering: .relaxed)
        } else {
            countdown.store(Self.checkInterval, ordering: .relaxed)
            checkFreePages(connection)
        }
        if checkpoint {
            // `_walCheckpoint` answers with SQLite's code (Core Data retries BUSY and LOCKED
            // later): the C call, not a statement.
            if sqlite3_wal_checkpoint_v2(connection.db.handle, "main", SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
                == SQLITE_OK
            {
                checkpoints.wrappingAdd(1, ordering: .relaxed)
            }
        }
    }

    private func checkFreePages(_ connection: Connection) {
        guard let pages = try? count(connection, "pragma page_count"), pages > 0,
            let free = try? count(connection, "pragma freelist_count"),
            let n = Self.pagesToVacuum(freePages: free, pages: pages)
        else { return }
        do {
            try connection.db.execute("pragma incremental_vacuum(\(n))")
            vacuums.wrappingAdd(1, ordering: .relaxed)
        } catch {
            // A reader holding an old snapshot can make the vacuum wait out the busy handler;
            // the pages stay free and a later check tries again.
        }
    }

    /// The pages a vacuum frees, or nil for no vacuum: the thresholds on their own for the tests.
    static func pagesToVacuum(freePages free: Int, pages: Int) -> Int? {
        guard free > 0, pages > 0 else { return nil }
        let usedShare = Double(pages - free) / Double(pages)
        guard free > vacuumFreePages || usedShare <= vacuumUsedShare else { return nil }
        return usedShare >= partialVacuumUsedShare ? free / 5 : free - (pages - free)
    }

    private func count(_ connection: Connection, _ pragma: String) throws -> Int {
        let s = try connection.statement(pragma)
        defer { s.reset() }
        return try s.step() ? Int(s.int(at: 0)) : 0
    }
}
