import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Testing
import Workload

@testable import Strategies

/// Runs a strategy in-process on a temporary store and verifies the store as the reporter does.
struct Outcome {
    var counters: StrategyCounters
    var verification: Verification
    var sql: StatementCounters.Snapshot
    /// The managed objects every context of the run handled (`StrategyJob.objectCounts`).
    var objects: ObjectCounts
}

func run(
    _ strategy: any WriteStrategy, rows: Int = 600, dupRate: Double = 0.2, writers: Int = 3, batchSize: Int? = 100,
    scenario: WriterScenario = .split, dataset: Dataset = .expenses, history: Bool = false,
    addConstraint: [String]? = nil, updateRate: Double = WorkloadSpec.defaultUpdateRate
) throws -> Outcome {
    ConcurrencyDebug.isEnabled = true
    var spec = WorkloadSpec()
    spec.rows = rows
    spec.dupRate = dupRate
    spec.categories = 7
    spec.dataset = dataset
    spec.payloadBytes = 32
    spec.updateRate = updateRate
    let path = NSTemporaryDirectory() + "strategy-\(UUID().uuidString).sqlite"
    defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
    var options = StoreOptions(path: path)
    options.persistentHistoryTracking = history
    var job = StrategyJob(workload: spec, store: options)
    job.batchSize = batchSize
    job.writers = writers
    job.writerScenario = scenario
    job.configuration.model.addedConstraint = addConstraint
    let counters = try strategy.run(job)
    let verification = try job.verifyStore()
    return Outcome(
        counters: counters, verification: verification, sql: job.counters.snapshot(),
        objects: job.objectCounts(since: ObjectWork()))
}

@Suite struct StrategyCatalogueTests {
    static let catalogue = StrategyRegistry.all.filter {
        $0.operation == .import && !["raw-sqlite", "batch-insert-only"].contains($0.name)
    }
    .map(\.name)

    @Test(arguments: catalogue)
    func leavesEveryRecordLinkedAndNothingLost(name: String) throws {
        let o = try run(StrategyRegistry.strategy(named: name)!)
        #expect(o.verification.lost == 0)
        #expect(o.verification.integrity == "ok")
        #expect(o.verification.badLinks == 0)
        if StrategyRegistry.strategy(named: name)!.expectations.uniqueKeys { #expect(o.verification.duplicates == 0) }
        #expect(o.verification.storeRows - o.verification.duplicates == 480)
        #expect(o.verification.problems(StrategyRegistry.strategy(named: name)!.expectations).isEmpty)
    }

    /// The photos model as seed 001's app has it (no constraint on the URL): the idioms that
    /// need none run on it as it is, the others with the constraint added (`--add-constraint`).
    @Test(arguments: ["one-writer", "find-or-create", "find-or-create-per-row", "batch", "context-reset", "prefetch"])
    func photosToo(name: String) throws {
        let strategy = StrategyRegistry.strategy(named: name)!
        let o = try run(
            strategy, rows: 200, dataset: .photos, addConstraint: strategy.keyNeed == .uniqueness ? ["remoteURL"] : nil)
        #expect(o.verification.lost == 0 && o.verification.duplicates == 0 && o.verification.badLinks == 0)
    }

    /// Issue 43, item 6: a run reports the managed objects its contexts handled, exactly, added up
    /// over every context (contexts hand their counts over at saves, fetches, resets and when they go).
    @Test func theObjectsEveryContextHandledAreCountedExactly() throws {
        // One insert per record (repeated keys too: the merge policy meets them at save) and per
        // category; nothing fetched but the categories not yet in the store.
        let reset = try run(ContextResetStrategy(), rows: 600, dupRate: 0.2, writers: 1)
        #expect(reset.objects.inserted == 600 + 7, "\(reset.objects)")
        #expect(reset.objects.validated >= 607 && reset.objects.notified >= 607 && reset.objects.snapshotted > 0)
        // Three writers each with contexts of their own: every insert still counted once.
        let writers = try run(OneWriterStrategy(), rows: 600, dupRate: 0.2, writers: 3)
        #expect(writers.objects.inserted >= 480 + 7, "\(writers.objects)")
        // Raw SQL makes no managed object.
        #expect(try run(RawSQLiteStrategy()).objects == ObjectCounts())
    }

    /// On a store without a constraint on the key (photos, as seed 001's app), the limit and the
    /// bare batch insert keep every repeat; on one with it (expenses), the store refuses them.
    @Test func theLimitAndTheBareBatchInsertDeduplicateOnlyWhereTheStoreDoes() throws {
        let raw = try run(RawSQLiteStrategy(), dataset: .photos)
        #expect(raw.verification.duplicates == 120 && raw.verification.lost == 0 && raw.verification.badLinks == 0)
        let bare = try run(BatchInsertOnlyStrategy(), dataset: .photos)
        #expect(bare.verification.duplicates == 120 && bare.verification.lost == 0)
        #expect(bare.verification.badLinks == 600)   // a batch insert relates nothing
        let constrained = try run(BatchInsertOnlyStrategy())
        #expect(constrained.verification.duplicates == 0 && constrained.verification.storeRows == 480)
        #expect(constrained.verification.badLinks == 480)
    }

    @Test func listShowsEveryStrategyWithItsIdiom() {
        for s in StrategyRegistry.all {
            #expect(!s.summary.isEmpty && !s.idiom.isEmpty)
        }
        #expect(Set(StrategyRegistry.names).count == StrategyRegistry.all.count)
        #expect(StrategyRegistry.names.starts(with: ["raw-sqlite"]))
    }
}

/// The race of the seed's buggy downloader, made deterministic: every writer gets the same 200
/// keys and looks each up before any writer saves.
@Suite struct WriterRaceTests {
    @Test func manyWritersDuplicateEveryKeyOncePerExtraWriter() throws {
        let o = try run(
            ManyWritersStrategy(), rows: 200, dupRate: 0, writers: 3, batchSize: 1_000,
            scenario: .sameKeysForEveryWriter, dataset: .photos)
        #expect(o.verification.duplicates == 400)
        #expect(o.verification.lost == 0)
    }

    /// The same race on the model's constraint (expenses): the store refuses the second row and
    /// the writers' merge policy resolves the conflicts, whichever idiom races.
    @Test(arguments: ["many-writers", "many-writers-constrained"])
    func theModelsConstraintPreventsThem(name: String) throws {
        let o = try run(
            StrategyRegistry.strategy(named: name)!, rows: 200, dupRate: 0, writers: 3, batchSize: 1_000,
            scenario: .sameKeysForEveryWriter)
        #expect(o.verification.duplicates == 0 && o.verification.lost == 0 && o.verification.storeRows == 200)
    }

    @Test func theConstraintPreventsThem() throws {
        let o = try run(
            ManyWritersConstrainedStrategy(), rows: 200, dupRate: 0, writers: 3, batchSize: 1_000,
            scenario: .sameKeysForEveryWriter)
        #expect(o.verification.duplicates == 0 && o.verification.lost == 0 && o.verification.badLinks == 0)
        #expect((o.counters.conflicts ?? 0) >= 400)
    }

    /// Apple's efficient find-or-create does not close the race (issue 42, item 3): three
    /// writers that each fetch their batch's keys before any saves each insert all 200.
    @Test func findOrCreateWritersDuplicateEveryKeyOncePerExtraWriter() throws {
        let o = try run(
            FindOrCreateWritersStrategy(), rows: 200, dupRate: 0, writers: 3, batchSize: 1_000,
            scenario: .sameKeysForEveryWriter, dataset: .photos)
        #expect(
            o.verification.duplicates == 400 && o.verification.lost == 0 && o.verification.storeRows == 600,
            "\(o.verification)")
        #expect(o.counters.saves == 3)
        let strategy = FindOrCreateWritersStrategy()
        #expect(strategy.demonstratedBug != nil && !strategy.expectations.uniqueKeys && strategy.keyNeed == .index)
    }

    @Test func oneWriterNeverMakesThem() throws {
        let o = try run(
            OneWriterStrategy(), rows: 200, dupRate: 0, writers: 3, batchSize: 1_000,
            scenario: .sameKeysForEveryWriter)
        #expect(o.verification.duplicates == 0 && o.verification.lost == 0 && o.verification.storeRows == 200)
    }
}

/// What each idiom costs in statements and memory shape: deterministic counts, no timing.
@Suite struct StrategyCostTests {
    @Test func nPlusOneIssuesASelectPerRecord() throws {
        let o = try run(NPlusOneStrategy())
        #expect(o.sql.select >= 600)
    }

    @Test func prefetchLooksUpAboutOncePerBatch() throws {
        let o = try run(PrefetchStrategy())
        let batches = 6
        let saves = o.counters.saves ?? 0
        // Every save reads Z_MAX (key reservation) and checks uniqueness: two selects that any
        // context strategy pays, and a third when it relates expenses to categories kept as
        // faults (their Z_OPT is read, together, before the save bumps it). What is left is the
        // strategy's own lookups.
        let lookups = o.sql.select - 3 * saves
        #expect(saves == batches)
        #expect(lookups <= batches + 3, "\(o.sql.select) selects, \(saves) saves")
        let nPlusOne = try run(NPlusOneStrategy())
        #expect(nPlusOne.sql.select - 2 * (nPlusOne.counters.saves ?? 0) >= 600)
    }

    @Test func savePerRowCommitsOncePerRecord() throws {
        let o = try run(ContextSavePerRowStrategy())
        // Every record with a new key is a save: a key-reservation transaction and the write.
        // A repeated key reserves its key too, fails its constrained UPDATE (rolled back) and
        // saves again merged into its row: the category gained (then lost) a member, so that
        // save still bumps the category's Z_OPT.
        #expect(o.counters.saves == 600)
        #expect(o.counters.saveRetries == 120)
        #expect(o.sql.commits == 1 + 2 * 480 + 2 * 120)
    }

    @Test func noResetKeepsEverythingRegisteredAndResetKeepsOneBatch() throws {
        let noReset = try run(ContextNoResetStrategy())
        #expect((noReset.counters.peakRegisteredObjects ?? 0) >= 480)
        let reset = try run(ContextResetStrategy())
        #expect((reset.counters.peakRegisteredObjects ?? .max) <= 100 + 7)
    }

    /// Every writer takes every record and waits at a barrier before its first save, so the
    /// four saves of 2,000 rows start together and all but one must wait for the file lock.
    @Test func perWriterCoordinatorsContendOnTheLock() throws {
        ConcurrencyDebug.isEnabled = true
        var spec = WorkloadSpec()
        spec.rows = 2_000
        let path = NSTemporaryDirectory() + "contend-\(UUID().uuidString).sqlite"
        var job = StrategyJob(workload: spec, store: StoreOptions(path: path))
        job.writers = 4
        job.batchSize = 10_000
        job.coordinators = .perWriter
        job.writerScenario = .sameKeysForEveryWriter
        let counters = try ManyWritersConstrainedStrategy().run(job)
        let v = try job.verifyStore()
        #expect(v.lost == 0 && v.duplicates == 0 && v.storeRows == 2_000)
        #expect((counters.busyRetries ?? 0) > 0)
    }
}
