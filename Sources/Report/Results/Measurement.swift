import SQLiteKit

/// How a repetition ended.
package enum RunStatus: String, Codable, Sendable {
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
package struct StrategyCounters: Codable, Sendable, Equatable {
    package var saves: Int?
    package var conflicts: Int?
    /// Save attempts rolled back on a uniqueness constraint and run again (Core Data's way
    /// of meeting a key already in the store).
    package var saveRetries: Int?
    package var busyRetries: Int?
    package var saveP50Milliseconds: Double?
    package var saveP99Milliseconds: Double?
    package var latencyP50Milliseconds: Double?
    package var latencyP99Milliseconds: Double?
    package var latencyMaxMilliseconds: Double?
    /// Most records taken but not yet committed at once, in an open-loop run.
    package var peakBacklog: Int?
    package var mergeMillisecondsTotal: Double?
    /// Objects the watching view context holds at the end (for the verifier to compare).
    package var viewObjects: Int?
    /// True when an open-loop run could not keep up with `--rate`.
    package var fellBehind: Bool?
    /// Most objects one context held at once (`peak_objects`): registered before a save for an
    /// import; holding values (faults, which hold none, not counted) for a read.
    package var peakRegisteredObjects: Int?
    /// Objects a read strategy read (or the count it got): checked against the store.
    package var objectsRead: Int?
    /// What a read's screen showed, as `ShownDigest` adds it up (52 bits: exact through JSON),
    /// for the check to compare with the store's rows.
    package var shownDigest: UInt64?
    /// A history consumer's lag from a transaction's commit to its merge into the screen.
    package var historyLagP50Milliseconds: Double?
    package var historyLagP99Milliseconds: Double?
    /// Rows a screen kept current by automatic merges alone did not show at the end.
    package var autoMergeMissed: Int?

    package init() {}

    /// Fills the save percentiles from a histogram of save durations.
    package mutating func setSaves(_ histogram: LatencyHistogram) {
        saves = histogram.count
        saveP50Milliseconds = histogram.quantileMilliseconds(0.5)
        saveP99Milliseconds = histogram.quantileMilliseconds(0.99)
    }
}

/// The managed objects a repetition's contexts handled, counted exactly by the engine (its
/// `ObjectWork`, added up over every context): the object layer Core Data pays per object
/// beside SQL. 0 for strategies that make none (raw SQLite, a batch request alone).
package struct ObjectCounts: Codable, Sendable, Equatable {
    /// Objects inserted, returned by fetches (prefetching's and by-ID reads included), and filled
    /// by faults.
    package var inserted = 0
    package var fetched = 0
    package var faulted = 0
    /// Snapshots taken at objects' first change, objects validated by saves, and objects named
    /// by objects-did-change and did-save notifications.
    package var snapshotted = 0
    package var validated = 0
    package var notified = 0
    /// Objects a merge refreshed or took out of a context (a screen kept current): object work
    /// as much as a fetch's.
    package var merged = 0

    package init() {}

    /// Managed objects made, filled or merged: what a device's per-object cost multiplies (the
    /// break-even of a recommendation is per one of these).
    package var handled: Int { inserted + fetched + faulted + merged }
}

/// What the verifier found in the store after the run, on its own connection.
package struct Verification: Codable, Sendable, Equatable {
    package var storeRows: Int
    /// Rows beyond one per key.
    package var duplicates: Int
    /// Expected keys with no row.
    package var lost: Int
    /// Rows whose related object is missing or not the expected one.
    package var badLinks: Int
    /// "ok", or the first problems `PRAGMA integrity_check` reported.
    package var integrity: String
    package var storeBytes: Int
    /// Rows in the store that the watching view context does not show (with `--view-context`).
    package var viewMissing: Int?
    /// Change rows of persistent history left in the store (nil: the store has no history).
    package var historyChanges: Int?
    /// Rows whose key is NULL or not one the workload produced.
    package var unexpectedRows: Int = 0
    /// Rows of an abstract entity (their `Z_ENT`), whose objects an app never creates.
    package var abstractRows: Int = 0
    /// Rows beyond one per value under the record entity's other uniqueness constraints (the
    /// most of any), 0 without any.
    package var constraintDuplicates: Int = 0
    /// Related objects beyond one per key (two albums named "Trips").
    package var parentDuplicates: Int = 0
    /// Files of external binary data beside the store (nil: no attribute allows external storage),
    /// and values whose column names a file that is not there.
    package var externalFiles: Int?
    package var missingExternalFiles: Int = 0
    /// A many-to-many's pairs in the store (nil without one), those missing or not expected, and
    /// members stored more than once.
    package var pairs: Int?
    package var badPairs: Int = 0
    package var memberDuplicates: Int = 0
    /// Rows of a repeated key that do not hold its last copy's values (a lost update: the first
    /// copy kept, or an older one); nil when the records have no value a repeat changes.
    package var stale: Int?
    /// The SQLite virtual-machine steps the checks took (`SQLITE_STMTSTATUS_VM_STEP` on the
    /// verifier's connection): their work, which must grow with the store, not its square.
    package var steps: Int?

    package init(storeRows: Int, duplicates: Int, lost: Int, badLinks: Int, integrity: String, storeBytes: Int) {
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
package struct StoreExpectations: Sendable, Codable, Equatable {
    /// One row per key: duplicates are a failure.
    package var uniqueKeys: Bool
    /// Every record related to its parent: bad links are a failure.
    package var linked: Bool

    package init(uniqueKeys: Bool = true, linked: Bool = true) {
        self.uniqueKeys = uniqueKeys
        self.linked = linked
    }

    /// The full idiom: deduplicated and related.
    package static let complete = StoreExpectations()
}

extension Verification {
    /// What is wrong with the store for a strategy that promises `expectations`, one phrase per
    /// problem ("3 lost keys"); empty when the store is as it must be.
    package func problems(_ expectations: StoreExpectations) -> [String] {
        var found: [String] = []
        if lost > 0 { found.append("\(lost) lost key\(lost == 1 ? "" : "s")") }
        if integrity != "ok" { found.append("integrity check: \(integrity)") }
        if unexpectedRows > 0 {
            found.append(
                "\(unexpectedRows) row\(unexpectedRows == 1 ? "" : "s") with a key the workload never produced")
        }
        if missingExternalFiles > 0 {
            found.append(
                "\(missingExternalFiles) external value\(missingExternalFiles == 1 ? "" : "s") whose file is missing")
        }
        if abstractRows > 0 {
            found.append(
                "\(abstractRows) row\(abstractRows == 1 ? "" : "s") of an abstract entity (an app never creates one)")
        }
        if expectations.uniqueKeys && duplicates > 0 {
            found.append("\(duplicates) duplicate\(duplicates == 1 ? "" : "s") where the strategy promises none")
        }
        if expectations.uniqueKeys && parentDuplicates > 0 {
            found.append("\(parentDuplicates) duplicated related object\(parentDuplicates == 1 ? "" : "s")")
        }
        if expectations.uniqueKeys && constraintDuplicates > 0 {
            found.append(
                "\(constraintDuplicates) duplicate\(constraintDuplicates == 1 ? "" : "s") under another uniqueness constraint"
            )
        }
        if expectations.linked && badLinks > 0 {
            found.append("\(badLinks) bad link\(badLinks == 1 ? "" : "s")")
        }
        if expectations.linked && badPairs > 0 {
            found.append("\(badPairs) many-to-many pair\(badPairs == 1 ? "" : "s") missing or not expected")
        }
        if expectations.uniqueKeys && memberDuplicates > 0 {
            found.append("\(memberDuplicates) duplicated member\(memberDuplicates == 1 ? "" : "s") of the many-to-many")
        }
        return found
    }
}

/// Everything measured in one repetition (in the child process) and handed to the parent.
package struct RunMeasurement: Codable, Sendable {
    package var status: RunStatus
    package var wallSeconds: Double?
    package var cpuUserSeconds: Double?
    package var cpuSystemSeconds: Double?
    package var rowsDone: Int?
    package var peakRSSBytes: Int?
    package var endRSSBytes: Int?
    package var peakHeapBytes: Int?
    package var endHeapBytes: Int?
    package var sql: StatementCounters.Snapshot?
    package var strategy: StrategyCounters?
    /// The managed objects the window's contexts handled.
    package var objects: ObjectCounts?
    package var verification: Verification?
    /// SQLite connections still open when the strategy returned (a leak fails the repetition).
    package var leakedConnections: Int?
    /// Allocation requests in the measured window, and their bytes (jemalloc's size classes).
    package var allocations: UInt64?
    package var allocatedBytesTotal: UInt64?
    /// Instructions in the measured window, and what counted them ("perf", "callgrind", or
    /// "rusage" on Darwin; each counts differently, so `compare` pairs a figure only with one
    /// counted the same way); nil where none could.
    package var instructions: UInt64?
    package var instructionsCountedBy: String?
    /// Why instructions were not counted (for the run to say once).
    package var instructionsUnavailable: String?
    /// For an update, delete or read: how long filling the store took (not measured as the
    /// strategy's), and how many rows the operation targets (all rows for a read).
    package var prefillSeconds: Double?
    package var targets: Int?
    /// How long the verifier's checks of the store took (after the measured window): a check
    /// that takes longer than the run is a defect to see, not to wait through.
    package var verifySeconds: Double?
    /// `--repeat auto` stopped this repetition at its cap after this many seconds (a censored
    /// figure: not ok, and no failure of the run).
    package var cappedAfter: Double?
    package var error: String?

    package init(status: RunStatus) { self.status = status }

    /// A child that died (a signal, an abort, an exit before its report): the status and why.
    package static func crashed(_ reason: String) -> RunMeasurement {
        var m = RunMeasurement(status: .crashed)
        m.error = reason
        return m
    }

    /// Marks the repetition failed and adds `reason` to its error (reasons are joined by "; ").
    package mutating func fail(_ reason: String) {
        if status == .ok { status = .failed }
        error = error.map { "\($0); \(reason)" } ?? reason
    }

    /// Managed objects handled per record done (`ObjectCounts.handled`).
    package var objectsPerRow: Double? {
        guard let objects, let rowsDone, rowsDone > 0 else { return nil }
        return Double(objects.handled) / Double(rowsDone)
    }

    /// Records per second of wall time.
    package var rowsPerSecond: Double? {
        guard let wallSeconds, let rowsDone, wallSeconds > 0 else { return nil }
        return Double(rowsDone) / wallSeconds
    }
}
