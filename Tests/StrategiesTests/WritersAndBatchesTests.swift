import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Testing
import Workload

@testable import Strategies

/// Producers, writers and batches that lose nothing and hold nothing back (the failures a user met
/// in issue 14, each a test that failed before its fix).
@Suite struct WritersAndBatchesTests {
    /// A chunk of one record: its insert's key equalled the rowid the category insert had just
    /// left on the connection, so the insert was taken for an ignored duplicate and never related.
    @Test(arguments: [(1, 0.0, 5_000), (2, 0.5, 5_000), (50, 0.0, 1)])
    func batchRelatesEveryRecordWhateverTheChunk(rows: Int, dupRate: Double, batchSize: Int) throws {
        for strategy in [BatchStrategy(), BatchUpsertStrategy()] as [any WriteStrategy] {
            let o = try run(strategy, rows: rows, dupRate: dupRate, batchSize: batchSize)
            #expect(o.verification.badLinks == 0 && o.verification.lost == 0, "\(strategy.name)")
            #expect(o.verification.problems(strategy.expectations).isEmpty, "\(strategy.name)")
        }
    }

    /// Connections of one shared-cache (in-memory) store meet table locks (SQLITE_LOCKED, 262),
    /// which no busy handler sees: they are waited out now, and counted.
    @Test(arguments: ["many-writers", "many-writers-constrained", "one-writer"])
    func perWriterCoordinatorsOnAnInMemoryStoreLoseNothing(name: String) throws {
        ConcurrencyDebug.isEnabled = true
        var spec = WorkloadSpec()
        spec.rows = 6_000
        spec.dupRate = 0.2
        let store = StoreOptions.memory(named: "reliability-\(UUID().uuidString)")
        let keeper = try Database(path: store.path)
        var job = StrategyJob(workload: spec, store: store)
        job.writers = 8
        job.batchSize = 50
        job.coordinators = .perWriter
        let strategy = StrategyRegistry.strategy(named: name)!
        let counters = try strategy.run(job)
        let v = try job.verifyStore()
        #expect(v.lost == 0 && v.integrity == "ok" && v.badLinks == 0)
        #expect(v.problems(strategy.expectations).isEmpty)
        if name != "one-writer" { #expect((counters.busyRetries ?? 0) > 0) }
        withExtendedLifetime(keeper) {}
    }

    /// Saving after every record must commit each record as it arrives: the strategy holds at
    /// most one record uncommitted. It used to take a whole reset interval (`--batch-size`) of
    /// arrivals before saving the first, and their latency was that wait.
    @Test func savePerRowHoldsOneRecordAtATime() throws {
        ConcurrencyDebug.isEnabled = true
        var spec = WorkloadSpec()
        spec.rows = 300
        var job = StrategyJob(
            workload: spec, store: StoreOptions(path: NSTemporaryDirectory() + "backlog-\(UUID().uuidString).sqlite"))
        job.rate = 100_000
        job.batchSize = 100
        _ = try ContextSavePerRowStrategy().run(job)
        #expect(job.latency.snapshot.count == 300)
        #expect(job.latency.peakBacklog == 1)
        var reset = StrategyJob(
            workload: spec, store: StoreOptions(path: NSTemporaryDirectory() + "backlog-\(UUID().uuidString).sqlite"))
        reset.rate = 100_000
        reset.batchSize = 100
        _ = try ContextResetStrategy().run(reset)
        #expect(reset.latency.peakBacklog == 100)   // a batch waits for its last record
    }

    /// `Producers.run` returns only once its threads let go of what they captured (contexts,
    /// coordinators, connections): a DispatchGroup left from inside the thread returned early.
    @Test func producerThreadsAreJoinedBeforeRunReturns() throws {
        final class Held: Sendable {}
        weak var weakHeld: Held?
        var job = StrategyJob(workload: WorkloadSpec(), store: StoreOptions(path: ":memory:"))
        job.writers = 8
        try {
            let held = Held()
            weakHeld = held
            try Producers(job: job).run { _ in withExtendedLifetime(held) { _ = usleep(1_000) } }
        }()
        #expect(weakHeld == nil)
    }

    /// A writer that gives up releases producers blocked on the full queue.
    @Test func cancellingTheQueueReleasesBlockedProducers() {
        let queue = BoundedQueue<Int>(capacity: 2, producers: 1)
        let results = Protected<[Bool]>([])
        let producer = JoinedThread(name: "producer") {
            for i in 0..<5 {
                let accepted = queue.put(i)
                results.withLock { $0.append(accepted) }
            }
        }
        while results.withLock({ $0.count }) < 2 { usleep(1_000) }
        queue.cancel()
        producer.join()
        #expect(results.withLock { $0 } == [true, true, false, false, false])
        var batch: [Int] = []
        #expect(queue.take(max: 10, into: &batch) == false && batch.isEmpty)
    }

    /// Many writers of many-writers-constrained with per-writer coordinators, again and again:
    /// none may leave a connection open when the strategy returns. In a process of its own, so
    /// that other tests' connections do not count.
    @Test func manyWritersLeaveNoConnectionOpen() async {
        await #expect(processExitsWith: .success) {
            ConcurrencyDebug.isEnabled = true
            var spec = WorkloadSpec()
            spec.rows = 2_000
            for _ in 0..<10 {
                var job = StrategyJob(
                    workload: spec,
                    store: StoreOptions(path: NSTemporaryDirectory() + "leak-\(UUID().uuidString).sqlite"))
                job.writers = 8
                job.batchSize = 20
                job.coordinators = .perWriter
                _ = try ManyWritersConstrainedStrategy().run(job)
                if Database.openConnections != 0 { exit(1) }
            }
        }
    }

    /// `batch-upsert` updates a repeated key's row with the later record; `batch` keeps the
    /// first. An import file whose repeat carries a changed amount tells them apart.
    @Test func batchUpsertUpdatesWhereBatchIgnores() throws {
        ConcurrencyDebug.isEnabled = true
        let file = NSTemporaryDirectory() + "upsert-\(UUID().uuidString).ndjson"
        let lines = [
            #"{"id": "k1", "amount": 1.00, "date": "2025-01-01T00:00:00Z", "note": "first", "categoryName": "c"}"#,
            #"{"id": "k2", "amount": 2.00, "date": "2025-01-01T00:00:00Z", "note": "other", "categoryName": "d"}"#,
            #"{"id": "k1", "amount": 9.00, "date": "2025-01-01T00:00:00Z", "note": "again", "categoryName": "c"}"#,
        ]
        _ = FileManager.default.createFile(atPath: file, contents: Data(lines.joined(separator: "\n").utf8))
        for (strategy, amount, note) in [
            (BatchStrategy() as any WriteStrategy, 1.0, "first"), (BatchUpsertStrategy(), 9.0, "again"),
        ] {
            let path = NSTemporaryDirectory() + "upsert-\(UUID().uuidString).sqlite"
            var job = StrategyJob(workload: WorkloadSpec(), store: StoreOptions(path: path))
            job.input = file
            _ = try strategy.run(job)
            let db = try Database(path: path)
            let s = try db.prepare("SELECT ZAMOUNT, ZNOTE, count(*) OVER () FROM ZEXPENSE WHERE ZEXTERNALID = 'k1'")
            #expect(try s.step())
            #expect(s.double(at: 0) == amount && s.text(at: 1) == note && s.int(at: 2) == 1, "\(strategy.name)")
            let v = try job.verifyStore()
            #expect(v.problems(strategy.expectations).isEmpty && v.storeRows == 2, "\(strategy.name)")
        }
    }
}
