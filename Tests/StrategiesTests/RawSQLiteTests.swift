import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Testing
import Workload

@testable import Strategies

@Suite struct RawSQLiteTests {
    func job(rows: Int, dupRate: Double = 0, dataset: Dataset = .expenses, batch: Int? = nil) -> (StrategyJob, String) {
        var spec = WorkloadSpec()
        spec.rows = rows
        spec.dupRate = dupRate
        spec.dataset = dataset
        spec.payloadBytes = 64
        let path = NSTemporaryDirectory() + "raw-\(UUID().uuidString).sqlite"
        var job = StrategyJob(workload: spec, store: StoreOptions(path: path))
        job.batchSize = batch
        return (job, path)
    }

    /// On a store whose key has no constraint (the photos model, as seed 001's app), a repeated
    /// record is a row of its own.
    @Test func writesEveryRecordAsARowWithOneStatementEach() throws {
        let (job, path) = job(rows: 1_000, dupRate: 0.2, dataset: .photos)
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try RawSQLiteStrategy().run(job)
        let sql = job.counters.snapshot()
        // The records, the categories used, and the store's creation: two Z_PRIMARYKEY rows, the
        // Z_METADATA row and the Z_MODELCACHE row.
        #expect(sql.insert == 1_000 + 50 + 2 + 1 + 1 - (50 - categoriesUsed(job)))
        #expect(sql.select == 0)
        #expect(job.progress.value == 1_000)
        let v = try job.verifyStore()
        var expected = Verification(
            storeRows: 1_000, duplicates: 200, lost: 0, badLinks: 0, integrity: "ok", storeBytes: v.storeBytes)
        expected.steps = v.steps
        // every copy is a row: those of a key's older copies are stale (RepeatedRecordsTests)
        expected.stale = v.stale
        #expect(v == expected && (v.stale ?? 0) > 0)
    }

    /// On the model's own store with a uniqueness constraint (the expenses' externalID), the limit
    /// writes what that store accepts: `INSERT OR IGNORE`, one statement per record still, and a
    /// repeated record is no row (decision 0039: no strategy drops the model's constraint).
    @Test func aConstrainedStoreKeepsOneRowPerKey() throws {
        let (job, path) = job(rows: 1_000, dupRate: 0.2)
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try RawSQLiteStrategy().run(job)
        let sql = job.counters.snapshot()
        #expect(sql.insert == 1_000 + categoriesUsed(job) + 4)
        #expect(sql.select == 0)
        let v = try job.verifyStore()
        var expected = Verification(
            storeRows: 800, duplicates: 0, lost: 0, badLinks: 0, integrity: "ok", storeBytes: v.storeBytes)
        expected.steps = v.steps
        expected.stale = v.stale   // the first copy kept: RepeatedRecordsTests counts it exactly
        #expect(v == expected)
    }

    func categoriesUsed(_ job: StrategyJob) -> Int {
        var source = GeneratedRecords(spec: job.workload, shape: try! job.shape())
        var r = Record()
        var used = Set<Int>()
        while source.next(into: &r) { used.insert(r.parentIndex) }
        return used.count
    }

    @Test func batchSizeCommitsPerBatch() throws {
        let (job, path) = job(rows: 1_000, batch: 100)
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try RawSQLiteStrategy().run(job)
        // One commit for the schema, ten for the data.
        #expect(job.counters.committedTransactions == 11)
    }

    @Test func photosToo() throws {
        let (job, path) = job(rows: 500, dataset: .photos)
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try RawSQLiteStrategy().run(job)
        let db = try Database(path: path)
        #expect(try db.scalarInt("SELECT count(*) FROM ZPHOTO WHERE length(ZIMAGEDATA) = 64") == 500)
        #expect(try db.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Photo'") == 500)
    }
}
