import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// What Core Data's store does around the statements of a save: the connection's pragmas, the
/// post-save tasks and their schedule, the WAL checkpoint, how batch requests learn the IDs
/// they return, and the keys of history rows. Each as the recording counters see it.
@Suite struct StoreFidelityTests {
    /// `NSSQLiteConnection connect`: page size 4096 and incremental auto-vacuum on a new file,
    /// WAL, recursive triggers; synchronous and the WAL's auto-checkpoint left as SQLite has
    /// them (FULL, 1000 pages).
    @Test func theConnectionRunsWithCoreDatasPragmas() throws {
        let container = try makeContainer()
        let connection = try container.persistentStoreCoordinator.performRead { c in
            (
                try c.db.scalarInt("PRAGMA synchronous"), try c.db.scalarInt("PRAGMA recursive_triggers"),
                try c.db.scalarInt("PRAGMA wal_autocheckpoint"), try c.db.scalarText("PRAGMA journal_mode")
            )
        }
        #expect(connection.0 == 2 && connection.1 == 1 && connection.2 == 1000 && connection.3 == "wal")
        #expect(try container.rows("PRAGMA page_size") == 4096)
        #expect(try container.rows("PRAGMA auto_vacuum") == 2)
    }

    /// The free-page check (`pragma page_count`, `pragma freelist_count`) runs after the first
    /// save and then after every eleventh: saves 1 and 12, not 2–11.
    @Test func postSaveTasksCheckOnSavesOneAndTwelve() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        var checked: [Int] = []
        for save in 1...13 {
            container.counters.startRecording()
            try context.performAndWait {
                _ = try context.insertNewObject(forEntityName: "Category")
                try context.save()
            }
            let sql = container.counters.stopRecording()
            if sql.suffix(2) == ["pragma page_count", "pragma freelist_count"] { checked.append(save) }
        }
        #expect(checked == [1, 12])
    }

    /// A save that leaves more than 8 MiB of WAL is followed by `wal_checkpoint(TRUNCATE)`: the
    /// WAL file is empty after it. A small save after it checkpoints nothing.
    @Test func aSaveThatGrowsTheWALPastEightMebibytesCheckpointsIt() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        let note = Value.string(String(repeating: "n", count: 4_000))
        try context.performAndWait {
            let expense = try context.entity(named: "Expense")
            for i in 0..<2_500 {
                let e = context.insert(expense)
                e["externalID"] = .string("ex-\(i)")
                e["note"] = note
            }
            try context.save()
        }
        let coordinator = container.persistentStoreCoordinator
        #expect(coordinator.walCheckpoints == 1)
        let wal = try FileManager.default.attributesOfItem(atPath: container.path + "-wal")[.size] as? Int
        #expect(wal == 0)
        try context.performAndWait {
            _ = try context.insertNewObject(forEntityName: "Category")
            try context.save()
        }
        #expect(coordinator.walCheckpoints == 1)
    }

    /// A batch insert asked for object IDs records its rows through Core Data's temporary table
    /// and triggers, reads them back and drops everything in its transaction.
    @Test func aBatchInsertCapturesItsIDsInATemporaryTable() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        container.counters.startRecording()
        let result = try context.performAndWait {
            let request = BatchInsertRequest(
                entityName: "Expense", objects: (0..<3).map { ["externalID": .string("b-\($0)")] })
            request.resultType = .objectIDs
            return try context.execute(request)
        }
        let sql = container.counters.stopRecording()
        let table = "TEMP_CDBATCHINSERTOBJECTIDS"
        #expect(
            Array(sql.prefix(4)) == [
                "BEGIN EXCLUSIVE",
                "CREATE TEMP TABLE IF NOT EXISTS \(table) (ENTITYID INTEGER, PRIMEKEY INTEGER, TYPE INTEGER, ATTRIBUTENAME VARCHAR)",
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_INSERT_\(table)_Expense AFTER INSERT ON ZEXPENSE FOR EACH ROW BEGIN "
                    + "INSERT INTO \(table) (ENTITYID, PRIMEKEY, TYPE) SELECT NEW.Z_ENT, NEW.Z_PK, 0; END",
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_UPDATE_\(table)_Expense AFTER UPDATE ON ZEXPENSE FOR EACH ROW BEGIN "
                    + "INSERT INTO \(table) (ENTITYID, PRIMEKEY, TYPE) SELECT OLD.Z_ENT, OLD.Z_PK, 1; END",
            ])
        // One trigger per attribute records which attribute an update changed.
        #expect(
            sql.contains(
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_UPDATE_\(table)_Expense_note AFTER UPDATE ON ZEXPENSE "
                    + "FOR EACH ROW WHEN OLD.ZNOTE IS NOT NEW.ZNOTE BEGIN INSERT INTO \(table) (ENTITYID, PRIMEKEY, "
                    + "TYPE, ATTRIBUTENAME) SELECT OLD.Z_ENT, OLD.Z_PK, 1, 'note'; END"))
        let gather = try #require(sql.firstIndex(of: "SELECT DISTINCT ENTITYID, PRIMEKEY FROM \(table)"))
        #expect(sql[..<gather].filter { $0.hasPrefix("INSERT INTO ZEXPENSE") }.count == 3)
        #expect(sql[gather + 1] == "DROP TABLE IF EXISTS \(table)" && sql.last == "COMMIT")
        #expect(sql[(gather + 2)...].dropLast().allSatisfy { $0.hasPrefix("DROP TRIGGER IF EXISTS ZQ_") })
        #expect(result.count == 3 && result.objectIDs.compactMap(\.primaryKey).sorted() == [1, 2, 3])
        #expect(try container.rows("SELECT count(*) FROM sqlite_temp_master") == 0)
    }

    /// A batch update asked for IDs captures them the same way (triggers for the updated
    /// attributes only) and runs the post-save tasks after its commit.
    @Test func aBatchUpdateCapturesItsIDsAndRunsThePostSaveTasks() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        try seedExpenses(context, count: 4, categories: 1)   // post-save tasks 1 (the check)
        for _ in 0..<10 {   // 2…11
            try context.performAndWait {
                _ = try context.insertNewObject(forEntityName: "Category")
                try context.save()
            }
        }
        container.counters.startRecording()
        let result = try context.performAndWait {
            var request = BatchUpdateRequest(
                entityName: "Expense", predicate: .compare("amount", .greaterOrEqual, .value(.double(2))),
                propertiesToUpdate: ["note": "batch"])
            request.resultType = .objectIDs
            return try context.execute(request)
        }
        let sql = container.counters.stopRecording()
        let table = "TEMP_CDBATCHUPDATEOBJECTIDS"
        #expect(sql.filter { $0.hasPrefix("CREATE TEMPORARY TRIGGER") }.count == 2)   // the row, and `note`
        #expect(sql.contains("UPDATE ZEXPENSE SET ZNOTE = ?, Z_OPT = Z_OPT + 1 WHERE ZAMOUNT >= ?"))
        #expect(sql.contains("SELECT DISTINCT ENTITYID, PRIMEKEY FROM \(table)"))
        #expect(Array(sql.suffix(3)) == ["COMMIT", "pragma page_count", "pragma freelist_count"])   // tasks 12
        #expect(result.count == 2 && result.objectIDs.count == 2)
    }

    /// A batch delete asked for IDs fetches the objects to delete first, then deletes them.
    @Test func aBatchDeleteFetchesItsIDsBeforeDeleting() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        try seedExpenses(context, count: 4, categories: 1)
        container.counters.startRecording()
        let result = try context.performAndWait {
            var request = BatchDeleteRequest(
                entityName: "Expense", predicate: .compare("amount", .greaterOrEqual, .value(.double(2))))
            request.resultType = .objectIDs
            return try context.execute(request)
        }
        let sql = container.counters.stopRecording()
        #expect(sql[1] == "SELECT Z_PK FROM ZEXPENSE WHERE ZAMOUNT >= ?")
        #expect(sql.contains("DELETE FROM ZEXPENSE WHERE Z_PK IN (SELECT Z_PK FROM ZEXPENSE WHERE ZAMOUNT >= ?)"))
        #expect(result.count == 2 && Set(result.objectIDs.compactMap(\.primaryKey)) == [3, 4])
    }

    /// With history, an object whose to-many alone changed (the category gaining an expense)
    /// is recorded as an update, its to-many in the mask (after its columns: ZNAME is bit 0,
    /// `expenses` bit 1).
    @Test func aToManyOnlyChangeIsRecordedAsAnUpdate() throws {
        ConcurrencyDebug.isEnabled = true
        var options = StoreOptions(path: NSTemporaryDirectory() + "sf-\(UUID().uuidString).sqlite")
        options.persistentHistoryTracking = true
        let container = try PersistentContainer(model: BundledModels.expenses(key: .none), options: options)
        let context = container.newBackgroundContext()
        try seedExpenses(context, count: 1, categories: 1)
        try context.performAndWait {
            let category = try #require(try context.fetch(FetchRequest(entityName: "Category")).first)
            let e = try context.insertNewObject(forEntityName: "Expense")
            try e.setObject(category, forKey: "category")
            try context.save()
        }
        #expect(
            try container.rows(
                "SELECT count(*) FROM ACHANGE WHERE ZCHANGETYPE = 1 AND ZENTITY = 1 AND ZCOLUMNS = x'02'") == 1)
        #expect(try container.rows("SELECT count(*) FROM ACHANGE WHERE ZTRANSACTIONID = 2") == 2)
    }
}
