import SQLiteKit
import Testing

@testable import Report

/// The results file's row: what `columns` writes, `ResultRow(csv:)` reads back.
@Suite struct ResultRowTests {
    /// A row with every column filled, each with a value of its own.
    static let full: ResultRow = {
        let system = SystemInfo(
            gitRevision: "0123abc", host: "h", cpuModel: "cpu, 2 GHz", cores: 2, os: "Linux",
            swiftVersion: "6.0", sqliteVersion: "3.40.1", allocator: "jemalloc")
        var parameters: [String: String] = [:]
        for (i, column) in ResultRow.parameterColumns.enumerated() { parameters[column.name] = "p\(i)" }
        parameters["rows"] = "1000"
        var m = RunMeasurement(status: .failed)
        m.wallSeconds = 2
        m.cpuUserSeconds = 1.25
        m.cpuSystemSeconds = 0.5
        m.rowsDone = 1000
        m.peakRSSBytes = 11
        m.endRSSBytes = 12
        m.peakHeapBytes = 13
        m.endHeapBytes = 14
        m.sql = StatementCounters.Snapshot(
            select: 21, insert: 22, update: 23, delete: 24, transaction: 0, other: 25,
            commits: 26, vmSteps: 27, rows: 28)
        var s = StrategyCounters()
        s.saves = 31
        s.conflicts = 32
        s.busyRetries = 33
        s.saveP50Milliseconds = 0.125
        s.saveP99Milliseconds = 0.25
        s.latencyP50Milliseconds = 1.5
        s.latencyP99Milliseconds = 2.5
        s.latencyMaxMilliseconds = 3.5
        s.peakBacklog = 34
        s.mergeMillisecondsTotal = 4.5
        s.viewObjects = 35
        s.fellBehind = true
        s.objectsRead = 36
        s.historyLagP50Milliseconds = 5.5
        s.historyLagP99Milliseconds = 6.5
        s.autoMergeMissed = 37
        s.saveRetries = 38
        s.peakRegisteredObjects = 39
        m.strategy = s
        var v = Verification(storeRows: 41, duplicates: 42, lost: 43, badLinks: 44, integrity: "ok", storeBytes: 45)
        v.viewMissing = 46
        v.historyChanges = 47
        v.unexpectedRows = 48
        v.parentDuplicates = 49
        v.stale = 50
        v.steps = 56
        m.verification = v
        m.leakedConnections = 51
        m.allocations = 52
        m.allocatedBytesTotal = 53
        m.instructions = 54
        var objects = ObjectCounts()
        objects.inserted = 61
        objects.fetched = 62
        objects.faulted = 63
        objects.snapshotted = 64
        objects.validated = 65
        objects.notified = 66
        objects.merged = 67
        m.objects = objects
        m.instructionsCountedBy = "callgrind"
        m.prefillSeconds = 0.75
        m.targets = 55
        m.verifySeconds = 0.875
        m.error = "lost, twice"
        var row = ResultRow(
            identity: RunIdentity(
                runID: "r1", startedAt: "2026-11-30T08:00:00Z", system: system,
                command: "loadgen run --strategy 'a b'"),
            parameters: ParameterValues(parameters), repetition: 2, repetitions: 3,
            configuration: "rows=1000", measurement: m, vsLimit: 0.5)
        row.stop = "order clear after 4 rounds"
        return row
    }()

    @Test func everyColumnReadsBackAsWritten() throws {
        let fields = Self.full.fields
        #expect(
            !fields.contains(""),
            "a column the full row leaves blank: \(zip(ResultRow.header, fields).filter { $0.1.isEmpty })")
        let read = try #require(ResultRow(csv: Dictionary(uniqueKeysWithValues: zip(ResultRow.header, fields))))
        for (name, (written, again)) in zip(ResultRow.header, zip(fields, read.fields)) {
            #expect(written == again, "\(name)")
        }
    }

    /// A figure the summaries, tables or dashboards compute on reads as a number (a derived column
    /// declares how: without it, the figure silently left the exports).
    @Test func everyFigureTheReportsComputeOnReadsAsANumber() {
        for c in ResultRow.columns where c.metric != nil || c.summary != nil || !c.tableCells.isEmpty {
            #expect(c.isText || c.number?(Self.full) != nil, "\(c.name) has no numeric reading")
        }
    }

    @Test func blankColumnsReadBackBlank() throws {
        let row = ResultRow(
            identity: Self.full.identity, parameters: ParameterValues([String: String]()),
            measurement: RunMeasurement(status: .crashed))
        let read = try #require(ResultRow(csv: Dictionary(uniqueKeysWithValues: zip(ResultRow.header, row.fields))))
        #expect(read.fields == row.fields)
        #expect(read.measurement.strategy == nil && read.measurement.verification == nil && read.measurement.sql == nil)
    }

    @Test func aRowWithoutAStatusIsNotARow() {
        #expect(ResultRow(csv: ["run_id": "r1"]) == nil)
    }

    @Test func textAndParameterColumnsAreColumns() {
        #expect(ResultRow.textColumns.isSubset(of: Set(ResultRow.header)))
        #expect(ResultRow.parameterColumns.allSatisfy { ResultRow.header.contains($0.name) })
        #expect(ResultRow.textColumns.contains("strategy") && !ResultRow.textColumns.contains("rows"))
    }

    /// Every summary and chart of a file holds its rows again (issue 56, item 5): a row is small
    /// and its copies share the measurement and the machine until one of them is written, and a
    /// write never shows through another copy.
    @Test func aRowsCopiesShareUntilWrittenAndStayApart() {
        #expect(MemoryLayout<ResultRow>.size <= 160, "\(MemoryLayout<ResultRow>.size) bytes inline")
        let original = Self.full
        var copy = original
        copy.measurement.status = .crashed
        copy.measurement.verification?.lost = 7
        copy.identity.system.cores = 99
        #expect(original.measurement.status == .failed && original.measurement.verification?.lost == 43)
        #expect(
            original.identity.system.cores != 99 && copy.identity.system.cores == 99
                && copy.measurement.verification?.lost == 7)
        var machineShared = original
        machineShared.identity.shareMachine(with: copy.identity)
        #expect(machineShared.identity.system.cores == 99 && copy.identity.system.cores == 99)
        machineShared.identity.system.cores = 3
        #expect(copy.identity.system.cores == 99)
    }
}
