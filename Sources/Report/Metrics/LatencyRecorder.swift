import SQLiteKit

/// Latency of records from their intended arrival to the commit that made them durable, in an
/// open-loop run (`--rate`).
///
/// Measuring from the *intended* arrival, not from when a busy strategy got round to taking the
/// record, is what keeps a stalled writer visible (coordinated omission). Shared by a strategy's
/// writer threads; the histogram keeps memory bounded whatever the number of records.
public final class LatencyRecorder: Sendable {
    private let histogram = Protected(LatencyHistogram())

    public init() {}

    /// Records that `arrivals` (monotonic nanoseconds) were committed now (or at `now`).
    public func committed(_ arrivals: some Sequence<UInt64>, at now: UInt64 = Clock.nanoseconds()) {
        histogram.withLock { h in
            for arrival in arrivals where arrival != 0 { h.record(nanoseconds: now > arrival ? now - arrival : 0) }
        }
    }

    /// What was recorded so far.
    public var snapshot: LatencyHistogram { histogram.withLock { $0 } }
}
