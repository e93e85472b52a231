import SQLiteKit

/// How a repetition ended.
public enum RunStatus: String, Codable, Sendable {
    /// The strategy finished and the store was verified.
    case ok
    /// The strategy threw an error (recorded in `error`); measurements up to the failure are kept.
    case failed
    /// The child process died (a signal, an abort): nothing but the status is known.
    case crashed
}

/// What a strategy reports about its own work, beyond what the SQL layer counts.
/// Fields a strategy does not apply to stay nil and are blank in CSV.
public struct StrategyCounters: Codable, Sendable, Equatable {
    public var saves: Int?
    public var conflicts: Int?
    public var busyRetries: Int?
    public var saveP50Milliseconds: Double?
    public var saveP99Milliseconds: Double?
    public var latencyP50Milliseconds: Double?
    public var latencyP99Milliseconds: Double?
    public var latencyMaxMilliseconds: Double?
    public var mergeMillisecondsTotal: Double?
    /// Objects the watching view context holds at the end (for the verifier to compare).
    public var viewObjects: Int?
    /// True when an open-loop run could not keep up with `--rate`.
    public var fellBehind: Bool?
    /// Most objects registered in one context at once (for the memory-shape tests).
    public var peakRegisteredObjects: Int?

    public init() {}

    /// Fills the save percentiles from a histogram of save durations.
    public mutating func setSaves(_ histogram: LatencyHistogram) {
        saves = histogram.count
        saveP50Milliseconds = histogram.quantileMilliseconds(0.5)
        saveP99Milliseconds = histogram.quantileMilliseconds(0.99)
    }
}

/// What the verifier found in the store after the run, on its own connection.
public struct Verification: Codable, Sendable, Equatable {
    public var storeRows: Int
    /// Rows beyond one per key.
    public var duplicates: Int
    /// Expected keys with no row.
    public var lost: Int
    /// Rows whose related object is missing or not the expected one.
    public var badLinks: Int
    /// "ok", or the first problems `PRAGMA integrity_check` reported.
    public var integrity: String
    public var storeBytes: Int
    /// Rows in the store that the watching view context does not show (with `--view-context`).
    public var viewMissing: Int?

    public init(storeRows: Int, duplicates: Int, lost: Int, badLinks: Int, integrity: String, storeBytes: Int) {
        self.storeRows = storeRows
        self.duplicates = duplicates
        self.lost = lost
        self.badLinks = badLinks
        self.integrity = integrity
        self.storeBytes = storeBytes
    }
}

/// Everything measured in one repetition (in the child process) and handed to the parent.
public struct RunMeasurement: Codable, Sendable {
    public var status: RunStatus
    public var wallSeconds: Double?
    public var cpuUserSeconds: Double?
    public var cpuSystemSeconds: Double?
    public var rowsDone: Int?
    public var peakRSSBytes: Int?
    public var endRSSBytes: Int?
    public var peakHeapBytes: Int?
    public var endHeapBytes: Int?
    public var sql: StatementCounters.Snapshot?
    public var strategy: StrategyCounters?
    public var verification: Verification?
    public var error: String?

    public init(status: RunStatus) { self.status = status }

    /// Records per second of wall time.
    public var rowsPerSecond: Double? {
        guard let wallSeconds, let rowsDone, wallSeconds > 0 else { return nil }
        return Double(rowsDone) / wallSeconds
    }
}
