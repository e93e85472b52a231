import Foundation

/// Latency of records from their intended arrival to the commit that made them durable, in an
/// open-loop run (`--rate`).
///
/// Measuring from the *intended* arrival, not from when a busy strategy got round to taking the
/// record, is what keeps a stalled writer visible (coordinated omission). Shared by a strategy's
/// writer threads; the histogram keeps memory bounded whatever the number of records.
public final class LatencyRecorder: @unchecked Sendable {
    // Guarded by `lock`.
    private var histogram = LatencyHistogram()
    private let lock = NSLock()

    public init() {}

    /// Records that `arrivals` (monotonic nanoseconds) were committed now.
    public func committed(_ arrivals: some Sequence<UInt64>) {
        let now = Clock.nanoseconds()
        lock.lock()
        defer { lock.unlock() }
        for arrival in arrivals where arrival != 0 {
            histogram.record(nanoseconds: now > arrival ? now - arrival : 0)
        }
    }

    /// What was recorded so far.
    public var snapshot: LatencyHistogram {
        lock.lock()
        defer { lock.unlock() }
        return histogram
    }
}
