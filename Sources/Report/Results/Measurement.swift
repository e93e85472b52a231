import SQLiteKit

/// How a repetition ended.
public enum RunStatus: String, Codable, Sendable {
    /// The strategy finished and the verifier found the store as the strategy promises it.
    case ok
    /// The strategy threw, left connections open, or the verifier found the store broken (the
    /// reason is in `error`); measurements up to the failure are kept.
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
    /// Most records taken but not yet committed at once, in an open-loop run.
    public var peakBacklog: Int?
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
    /// Rows whose key is NULL or not one the workload produced.
    public var unexpectedRows: Int = 0

    public init(storeRows: Int, duplicates: Int, lost: Int, badLinks: Int, integrity: String, storeBytes: Int) {
        self.storeRows = storeRows
        self.duplicates = duplicates
        self.lost = lost
        self.badLinks = badLinks
        self.integrity = integrity
        self.storeBytes = storeBytes
    }
}

/// What a strategy promises about the store it leaves, beyond what every strategy must leave
/// (no lost keys, no unexpected rows, an intact file). The verifier's findings are judged
/// against it: a broken promise fails the repetition.
public struct StoreExpectations: Sendable, Codable, Equatable {
    /// One row per key: duplicates are a failure.
    public var uniqueKeys: Bool
    /// Every record related to its parent: bad links are a failure.
    public var linked: Bool

    public init(uniqueKeys: Bool = true, linked: Bool = true) {
        self.uniqueKeys = uniqueKeys
        self.linked = linked
    }

    /// The full idiom: deduplicated and related.
    public static let complete = StoreExpectations()
}

extension Verification {
    /// What is wrong with the store for a strategy that promises `expectations`, one phrase per
    /// problem ("3 lost keys"); empty when the store is as it must be.
    public func problems(_ expectations: StoreExpectations) -> [String] {
        var found: [String] = []
        if lost > 0 { found.append("\(lost) lost key\(lost == 1 ? "" : "s")") }
        if integrity != "ok" { found.append("integrity check: \(integrity)") }
        if unexpectedRows > 0 {
            found.append("\(unexpectedRows) row\(unexpectedRows == 1 ? "" : "s") with a key the workload never produced")
        }
        if expectations.uniqueKeys && duplicates > 0 {
            found.append("\(duplicates) duplicate\(duplicates == 1 ? "" : "s") where the strategy promises none")
        }
        if expectations.linked && badLinks > 0 {
            found.append("\(badLinks) bad link\(badLinks == 1 ? "" : "s")")
        }
        return found
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
    /// SQLite connections still open when the strategy returned (a leak fails the repetition).
    public var leakedConnections: Int?
    /// Allocation requests in the measured window, and their bytes (jemalloc's size classes).
    public var allocations: UInt64?
    public var allocatedBytesTotal: UInt64?
    /// User-space instructions in the measured window, and what counted them ("perf" or
    /// "callgrind"); nil where neither could.
    public var instructions: UInt64?
    public var instructionsCountedBy: String?
    /// Why instructions were not counted (for the run to say once).
    public var instructionsUnavailable: String?
    public var error: String?

    public init(status: RunStatus) { self.status = status }

    /// Marks the repetition failed and adds `reason` to its error (reasons are joined by "; ").
    public mutating func fail(_ reason: String) {
        if status == .ok { status = .failed }
        error = error.map { "\($0); \(reason)" } ?? reason
    }

    /// Records per second of wall time.
    public var rowsPerSecond: Double? {
        guard let wallSeconds, let rowsDone, wallSeconds > 0 else { return nil }
        return Double(rowsDone) / wallSeconds
    }
}
