import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Testing
import Workload

@testable import Strategies

/// The idioms of apps that deduplicate by fetching (issue 42): their SQL, statement by statement,
/// on the expenses dataset (no constraint: the key is an index).
@Suite struct FindOrCreateTests {
    /// 300 expenses (20 % repeats: 240 keys) in batches of 100, recorded.
    func record(
        _ strategy: any WriteStrategy, into path: String? = nil, input: String? = nil,
        rows: Int = 300
    ) throws -> (sql: [String], verification: Verification, path: String) {
        ConcurrencyDebug.isEnabled = true
        var spec = WorkloadSpec()
        spec.rows = rows
        spec.dupRate = input == nil ? 0.2 : 0
        spec.categories = 7
        let store = path ?? NSTemporaryDirectory() + "foc-\(UUID().uuidString).sqlite"
        var job = StrategyJob(workload: spec, store: StoreOptions(path: store))
        job.batchSize = 100
        job.input = input
        job.counters.startRecording()
        _ = try strategy.run(job)
        let sql = job.counters.stopRecording()
        return (sql, try job.verifyStore(repeated: strategy.repeatedKey), store)
    }

    static let keyIn =
        "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCATEGORY, t0.ZAMOUNT, t0.ZDATE, t0.ZEXTERNALID, t0.ZNOTE FROM ZEXPENSE t0 WHERE  t0.ZEXTERNALID IN ("

    @Test func oneKeyFetchPerBatchSortedByKey() throws {
        let (sql, v, _) = try record(FindOrCreateStrategy())
        #expect(v.storeRows == 240 && v.duplicates == 0 && v.lost == 0 && v.badLinks == 0, "\(v)")
        let fetches = sql.filter { $0.hasPrefix(Self.keyIn) }
        #expect(fetches.count == 3, "one per batch: \(sql.filter { $0.hasPrefix("SELECT") })")
        #expect(fetches.allSatisfy { $0.hasSuffix(") ORDER BY t0.ZEXTERNALID") })
        // The batch's distinct keys bound, in a list padded to a power of two (the engine's `IN`
        // statements are reused so: a repeated value changes nothing).
        #expect(fetches.allSatisfy { $0.components(separatedBy: "?").count - 1 == 128 })
    }

    @Test func oneKeyFetchPerRecord() throws {
        let (sql, v, _) = try record(FindOrCreatePerRowStrategy())
        #expect(v.storeRows == 240 && v.duplicates == 0 && v.lost == 0, "\(v)")
        // With unsaved inserts that may match, the engine fetches without the limit and merges
        // them (a fetch sees pending objects): one statement either way per record.
        let select =
            "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCATEGORY, t0.ZAMOUNT, t0.ZDATE, t0.ZEXTERNALID, t0.ZNOTE FROM ZEXPENSE t0 WHERE  t0.ZEXTERNALID = ?"
        let perRecord = sql.filter { $0 == select || $0 == select + " LIMIT 1" }
        #expect(perRecord.count == 300, "\(sql.filter { $0.hasPrefix("SELECT") }.prefix(5))")
    }

    @Test func oneFetchOfEveryKeyUpFront() throws {
        let first = try record(FindOrCreateCachedStrategy())
        #expect(first.sql.filter { $0 == "SELECT t0.Z_ENT, t0.Z_PK, t0.ZEXTERNALID FROM ZEXPENSE t0" }.count == 1)
        #expect(
            !first.sql.contains { $0.hasPrefix(Self.keyIn) || $0.contains("WHERE  t0.ZEXTERNALID = ?") },
            "no key fetch per batch or record")
        #expect(first.verification.storeRows == 240 && first.verification.duplicates == 0, "\(first.verification)")
        // Into the filled store again: every record is found in the cache, a fault fired each.
        let again = try record(FindOrCreateCachedStrategy(), into: first.path)
        #expect(again.verification.storeRows == 240 && again.verification.duplicates == 0)
        let faults = again.sql.filter {
            $0.hasPrefix(
                "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCATEGORY, t0.ZAMOUNT, t0.ZDATE, t0.ZEXTERNALID, t0.ZNOTE FROM ZEXPENSE t0 WHERE  t0.Z_PK = ?"
            )
        }
        // One fault per object found in a batch: each batch's distinct keys (a reset in between).
        var spec = WorkloadSpec()
        spec.rows = 300
        spec.dupRate = 0.2
        let plan = spec.keyPlan
        let found = stride(from: 0, to: 300, by: 100).reduce(0) { n, start in
            n + Set((start..<start + 100).map(plan.keyIndex)).count
        }
        #expect(faults.count == found, "one fault per found object: \(faults.count) of \(found)")
        #expect(!again.sql.contains { $0.hasPrefix("INSERT INTO ZEXPENSE") })
    }

    /// A found object whose values changed is saved as an UPDATE under its optimistic lock.
    @Test(arguments: ["find-or-create", "find-or-create-per-row", "find-or-create-cached"])
    func aFoundObjectsChangeIsAnUpdateWithItsLock(name: String) throws {
        let strategy = StrategyRegistry.strategy(named: name)!
        let first = try record(strategy, rows: 20)
        let feed = NSTemporaryDirectory() + "changed-\(UUID().uuidString).ndjson"
        let db = try Database(path: first.path)
        let s = try db.prepare(
            "SELECT e.ZEXTERNALID, c.ZNAME FROM ZEXPENSE e JOIN ZCATEGORY c ON c.Z_PK = e.ZCATEGORY ORDER BY e.Z_PK LIMIT 1"
        )
        _ = try s.step()
        let key = s.text(at: 0)!
        let category = s.text(at: 1)!
        s.reset()   // no read left open: the import's commit must be seen below
        try
            "{\"id\": \"\(key)\", \"amount\": 12.5, \"date\": \"2025-06-01T00:00:00Z\", \"note\": \"changed\", \"categoryName\": \"\(category)\"}\n"
            .write(toFile: feed, atomically: true, encoding: .utf8)
        let again = try record(strategy, into: first.path, input: feed, rows: 1)
        #expect(
            again.sql.contains(
                "UPDATE OR FAIL ZEXPENSE SET ZAMOUNT = ?, ZDATE = ?, ZNOTE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"),
            "\(name): \(again.sql)")
        #expect(!again.sql.contains { $0.hasPrefix("INSERT INTO ZEXPENSE") }, "\(name)")
        #expect(try db.scalarInt("SELECT count(*) FROM ZEXPENSE WHERE ZNOTE = 'changed' AND Z_OPT = 2") == 1, "\(name)")
    }
}

/// `--add-constraint` (issue 42, item 2): a model without a constraint on its key runs the
/// constraint idioms as if it had one.
@Suite struct AddConstraintTests {
    static let model = ModelRunTests.write(
        """
        <model><entity name="Item"><attribute name="itemID" attributeType="Integer 64"/>
        <attribute name="name" optional="YES" attributeType="String"/>
        <fetchIndex name="byItemID"><fetchIndexElement property="itemID" type="Binary" order="ascending"/></fetchIndex></entity></model>
        """)

    @Test func theStoreIsLaidOutAsIfTheModelHadTheConstraint() throws {
        var c = ModelRunTests().configuration(BatchUpsertStrategy(), rows: 300, path: Self.model)
        c.model.entity = "Item"
        let asIs = try ImportSource.resolve(c)
        #expect(!asIs.roles.keyIsUnique)
        #expect(
            asIs.refusal(of: BatchUpsertStrategy(), shape: try asIs.shape(c.shapeOptions))?.hasPrefix(
                "needs a uniqueness constraint") == true)
        c.model.addedConstraint = ["itemID"]
        let added = try ImportSource.resolve(c)
        #expect(added.roles.keyIsUnique && added.roles.key == ["itemID"])
        #expect(added.refusal(of: BatchUpsertStrategy(), shape: try added.shape(c.shapeOptions)) == nil)
        #expect(
            added.file.notes.contains {
                $0.contains("Item given the uniqueness constraint [itemID] (--add-constraint)")
            })
        let path = NSTemporaryDirectory() + "added-\(UUID().uuidString).sqlite"
        var job = StrategyJob(configuration: c, store: StoreOptions(path: path))
        job.configuration.model.addedConstraint = ["itemID"]
        _ = try BatchUpsertStrategy().run(job)
        let v = try job.verifyStore(repeated: BatchUpsertStrategy().repeatedKey)
        #expect(v.storeRows == c.workload.uniqueKeys && v.duplicates == 0, "\(v)")
        let db = try Database(path: path)
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'Z_Item_UNIQUE_itemID'") == 1)
        c.model.addedConstraint = ["nope"]
        #expect { try ImportSource.resolve(c) } throws: {
            "\($0)".contains("--add-constraint nope: nope is not an attribute of Item")
        }
    }
}
