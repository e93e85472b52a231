import CSQLite
import Host
import Synchronization

/// Waits out another connection's lock, counting every time SQLite had to wait.
///
/// SQLite's own `busy_timeout` retries silently; installing this handler instead makes each
/// retry visible (`retries`), which is what the reporter's `busy_retries` shows: lock contention
/// between coordinators on one file, as an app and its extension meet it.
package final class BusyHandler: Sendable {
    private let timeoutNanoseconds: UInt64
    private let count = Atomic<Int>(0)

    package init(timeoutMilliseconds: Int32) {
        timeoutNanoseconds = UInt64(max(0, timeoutMilliseconds)) * 1_000_000
    }

    /// Times SQLite found the database locked and waited.
    package var retries: Int { count.load(ordering: .relaxed) }

    /// Counts a wait made outside SQLite's busy handler (a shared-cache table lock).
    func noteWait() { count.wrappingAdd(1, ordering: .relaxed) }

    /// Installs this handler on `db` (replacing any busy timeout). The handler must outlive `db`;
    /// `Database` keeps a reference.
    package func install(on db: Database) {
        db.busyHandler = self
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_busy_handler(
            db.handle,
            { context, attempt in
                guard let context else { return 0 }
                let handler = Unmanaged<BusyHandler>.fromOpaque(context).takeUnretainedValue()
                return handler.wait(attempt: Int(attempt)) ? 1 : 0
            }, context)
    }

    /// Sleeps a little longer on each attempt (0.1 ms doubling up to 10 ms), until the timeout.
    private func wait(attempt: Int) -> Bool {
        count.wrappingAdd(1, ordering: .relaxed)
        let delay = UInt64(min(10_000, 100 << min(attempt, 7)))   // µs
        var waited: UInt64 = 0
        for i in 0..<attempt { waited += UInt64(min(10_000, 100 << min(i, 7))) * 1000 }
        guard waited < timeoutNanoseconds else { return false }
        Posix.sleep(microseconds: UInt32(delay))
        return true
    }
}
