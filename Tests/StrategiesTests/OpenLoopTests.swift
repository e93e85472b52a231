import Foundation
import ObjectGraph
import Report
import Testing
import Workload

@testable import Strategies

/// Open-loop delivery and latency, and the watching screen.
@Suite struct OpenLoopTests {
    /// The expenses' records, as the bundled model shapes them.
    static let shape = try! StrategyJob(workload: WorkloadSpec(), store: StoreOptions(path: "")).shape()

    func spec(rows: Int) -> WorkloadSpec {
        var s = WorkloadSpec()
        s.rows = rows
        return s
    }

    /// Each record is stamped with its due time and never handed out before it: an open loop
    /// that ran ahead of its schedule would offer more than `--rate`.
    @Test func recordsArriveOnScheduleAndNeverEarly() throws {
        let stream = RecordStream(GeneratedRecords(spec: spec(rows: 200), shape: Self.shape), rate: 10_000)
        var r = Record()
        var arrivals: [UInt64] = []
        while try stream.next(into: &r) {
            let taken = Clock.nanoseconds()
            #expect(taken >= r.arrival, "record \(r.index) handed out before it was due")
            arrivals.append(r.arrival)
        }
        #expect(arrivals.count == 200)
        #expect(arrivals[199] - arrivals[0] == UInt64(199 * 100_000))   // 100 µs apart at 10 k/s
    }

    @Test func noRateMeansNoStamp() throws {
        let stream = RecordStream(GeneratedRecords(spec: spec(rows: 3), shape: Self.shape), rate: nil)
        var r = Record()
        while try stream.next(into: &r) { #expect(r.arrival == 0) }
    }

    /// A writer that stalls for 50 ms, on a simulated clock (no real time is measured): the
    /// records due meanwhile wait, and their latency, counted from their intended arrival, shows
    /// the stall although the writer took each as soon as it could. Counted from when the writer
    /// took them, the stall would vanish: that is coordinated omission.
    @Test func aStalledWriterShowsItsStallInTheTail() throws {
        let stream = RecordStream(GeneratedRecords(spec: spec(rows: 1_000), shape: Self.shape), rate: 20_000)
        let fromArrival = LatencyRecorder()
        let fromTaking = LatencyRecorder()
        var clock = stream.due(0)
        for i in 0..<1_000 {
            clock = max(clock, stream.due(i))   // the writer is free: it takes record i
            let taken = clock
            if i == 100 { clock += 50_000_000 }   // and stalls 50 ms on this one
            clock += 10_000   // 10 µs of work per record
            fromArrival.committed([stream.due(i)], at: clock)
            fromTaking.committed([taken], at: clock)
        }
        let h = fromArrival.snapshot
        #expect(h.count == 1_000)
        let worst = h.maxMilliseconds!
        let tail = h.quantileMilliseconds(0.99)!
        #expect(worst >= 50 && tail >= 40)
        let hidden = fromTaking.snapshot.quantileMilliseconds(0.99)!
        #expect(hidden < 1)
    }

    @Test func latencyIsRecordedPerCommitByTheStrategies() throws {
        ConcurrencyDebug.isEnabled = true
        let path = NSTemporaryDirectory() + "rate-\(UUID().uuidString).sqlite"
        var job = StrategyJob(workload: spec(rows: 300), store: StoreOptions(path: path))
        job.rate = 50_000
        job.batchSize = 100
        _ = try ContextResetStrategy().run(job)
        #expect(job.latency.snapshot.count == 300)
    }

    @Test(arguments: ["context-reset", "one-writer", "many-writers-constrained", "prefetch"])
    func theScreenShowsWhatTheStoreHolds(name: String) throws {
        ConcurrencyDebug.isEnabled = true
        let path = NSTemporaryDirectory() + "screen-\(UUID().uuidString).sqlite"
        var s = spec(rows: 500)
        s.dupRate = 0.1
        var job = StrategyJob(workload: s, store: StoreOptions(path: path))
        job.screen = .controller(nil)
        job.batchSize = 100
        job.writers = 3
        let strategy = StrategyRegistry.strategy(named: name)!
        let counters = try strategy.run(job)
        let v = try job.verifyStore()
        #expect(counters.viewObjects == v.storeRows)
        #expect(counters.mergeMillisecondsTotal != nil, "the merge time is measured")
    }

    /// A batch insert posts no notification: the screen learns of its rows by the object IDs it
    /// returns, merged as `mergeChanges(fromRemoteContextSave:into:)` merges them (issue 54, item 2).
    @Test func theScreenSeesWhatABatchInsertWritesThroughItsIDs() throws {
        ConcurrencyDebug.isEnabled = true
        let path = NSTemporaryDirectory() + "screen-\(UUID().uuidString).sqlite"
        var job = StrategyJob(workload: spec(rows: 500), store: StoreOptions(path: path))
        job.screen = .controller(nil)
        let counters = try BatchStrategy().run(job)
        #expect(counters.viewObjects == 500 && counters.mergeMillisecondsTotal != nil)
        let bare = try BatchInsertOnlyStrategy().run(
            StrategyJob(workload: spec(rows: 300), store: StoreOptions(path: path + "-bare")))
        #expect(bare.viewObjects == nil)
    }

    @Test func strategiesImportFilesToo() throws {
        ConcurrencyDebug.isEnabled = true
        var s = spec(rows: 400)
        s.dupRate = 0.25
        let file = NSTemporaryDirectory() + "import-\(UUID().uuidString).ndjson"
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var source = GeneratedRecords(spec: s, shape: Self.shape)
        var writer = RecordFileWriter(fd: fd, format: .ndjson, shape: Self.shape, pool: source.pool)
        var r = Record()
        while source.next(into: &r) { try writer.write(r) }
        try writer.finish()
        close(fd)
        for strategy in [ContextResetStrategy(), OneWriterStrategy(), BatchStrategy()] as [any WriteStrategy] {
            let path = NSTemporaryDirectory() + "imported-\(UUID().uuidString).sqlite"
            var job = StrategyJob(workload: spec(rows: 400), store: StoreOptions(path: path))
            job.input = file
            job.writers = 2
            _ = try strategy.run(job)
            let v = try job.verifyStore()
            #expect(v.storeRows == 300 && v.duplicates == 0 && v.lost == 0 && v.badLinks == 0, "\(strategy.name)")
        }
    }
}
