import SQLiteKit
import Synchronization

/// Latency of records from their intended arrival to the commit that made them durable, in an
/// open-loop run (`--rate`).
///
/// Measuring from the *intended* arrival, not from when a busy strategy got round to taking the
/// record, is what keeps a stalled writer visible (coordinated omission). Shared by a strategy's
/// writer threads; the histogram keeps memory bounded whatever the number of records.
package final class LatencyRecorder: Sendable {
    private let histogram = Protected(LatencyHistogram())
    private let taken = Atomic<Int>(0), durable = Atomic<Int>(0), backlog = Atomic<Int>(0)

    package init() {}

    /// Records that `arrivals` (monotonic nanoseconds) were committed now (or at `now`).
    package func committed(_ arrivals: some Sequence<UInt64>, at now: UInt64 = Clock.nanoseconds()) {
        let n = histogram.withLock { h in
            let before = h.count
            for arrival in arrivals where arrival != 0 { h.record(nanoseconds: now > arrival ? now - arrival : 0) }
            return h.count - before
        }
        durable.wrappingAdd(n, ordering: .relaxed)
    }

    /// A record was handed to the strategy (it arrived).
    package func took() {
        let depth = taken.wrappingAdd(1, ordering: .relaxed).newValue - durable.load(ordering: .relaxed)
        backlog.max(depth, ordering: .relaxed)
    }

    /// The most records a strategy held at once, taken but not yet committed: how much of its
    /// latency is waiting for company (a batch to fill) rather than for the store.
    package var peakBacklog: Int { backlog.load(ordering: .relaxed) }

    /// What was recorded so far.
    package var snapshot: LatencyHistogram { histogram.withLock { $0 } }
}
