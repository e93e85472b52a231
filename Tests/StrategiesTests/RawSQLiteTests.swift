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
        spec.rows = rows; spec.dupRate = dupRate; spec.dataset = dataset; spec.payloadBytes = 64
        let path = NSTemporaryDirectory() + "raw-\(UUID().uuidString).sqlite"
        var job = StrategyJob(workload: spec, store: StoreOptions(path: path))
        job.batchSize = batch
        return (job, path)
    }

    @Test func writesEveryRecordAsARowWithOneStatementEach() throws {
        let (job, path) = job(rows: 1_000, dupRate: 0.2)
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try RawSQLiteStrategy().run(job)
        let sql = job.counters.snapshot()
        // The records, the categories used, and the store's creation: two Z_PRIMARYKEY rows, the
        // Z_METADATA row and the Z_MODELCACHE row.
        #expect(sql.insert == 1_000 + 50 + 2 + 1 + 1 - (50 - categoriesUsed(job)))
        #expect(sql.select == 0)
        #expect(job.progress.value == 1_000)
        let v = try job.verifyStore(key: .none)
        #expect(v == Verification(storeRows: 1_000, duplicates: 200, lost: 0, badLinks: 0, integrity: "ok",
                                  storeBytes: v.storeBytes))
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
