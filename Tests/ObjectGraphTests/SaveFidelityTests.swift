import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// The statements Core Data's save issues that a cheaper engine would skip: constrained
/// columns set after the inserts, the other side of a changed relationship, the post-save
/// pragmas, and the batch delete's trigger. Each as the recording counters see it.
@Suite struct SaveFidelityTests {
    @Test func aConstrainedInsertLeavesItsKeyToAnUpdateAfterTheInserts() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        #expect(
            lastTransaction(try recordSaveOfOneCategory(container, expenses: 2)) == [
                "BEGIN EXCLUSIVE",
                "INSERT INTO ZCATEGORY(Z_PK, Z_ENT, Z_OPT) VALUES(?, ?, ?)",
                "INSERT INTO ZEXPENSE(Z_PK, Z_ENT, Z_OPT, ZCATEGORY, ZAMOUNT, ZDATE, ZNOTE) VALUES(?, ?, ?, ?, ?, ?, ?)",
                "INSERT INTO ZEXPENSE(Z_PK, Z_ENT, Z_OPT, ZCATEGORY, ZAMOUNT, ZDATE, ZNOTE) VALUES(?, ?, ?, ?, ?, ?, ?)",
                "UPDATE OR FAIL ZCATEGORY SET ZNAME = ? WHERE Z_PK = ?",
                "UPDATE OR FAIL ZEXPENSE SET ZEXTERNALID = ? WHERE Z_PK = ?",
                "UPDATE OR FAIL ZEXPENSE SET ZEXTERNALID = ? WHERE Z_PK = ?",
                "COMMIT",
                "pragma page_count",
                "pragma freelist_count",
            ])
        #expect(
            try container.rows("SELECT count(*) FROM ZEXPENSE WHERE ZEXTERNALID IN ('ex-0', 'ex-1') AND Z_OPT = 1") == 2
        )
        #expect(try container.rows("SELECT count(*) FROM ZCATEGORY WHERE ZNAME = 'Food'") == 1)
    }

    @Test func changingAConstrainedValueWritesItAfterTheUpdate() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        let context = container.newBackgroundContext()
        let ids = try seedExpenses(context, count: 1, categories: 1)
        container.counters.startRecording()
        try context.performAndWait {
            let e = context.object(with: ids[0])
            e["externalID"] = "renamed"
            e["amount"] = .double(5)
            try context.save()
        }
        #expect(
            lastTransaction(container.counters.stopRecording()) == [
                "BEGIN EXCLUSIVE",
                // The key is in the update, bound NULL (`updateRow:`), then set on its own.
                "UPDATE OR FAIL ZEXPENSE SET ZAMOUNT = ?, ZEXTERNALID = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                "UPDATE OR FAIL ZEXPENSE SET ZEXTERNALID = ? WHERE Z_PK = ?",
                "COMMIT",
            ])
        #expect(
            try container.rows(
                "SELECT count(*) FROM ZEXPENSE WHERE ZEXTERNALID = 'renamed' AND ZAMOUNT = 5 AND Z_OPT = 2") == 1)
    }

    /// Another writer inserts one of the save's keys after the save reserved its keys (a trigger
    /// on the reservation plays that writer): the constrained UPDATE fails, the attempt rolls
    /// back, and the save runs again in one transaction that starts with the keys-only query and
    /// the conflicting object's row.
    @Test func aKeyAnotherWriterInsertedFailsTheAttemptAndIsMerged() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        try Database(path: container.path).execute(
            """
            CREATE TRIGGER racer AFTER UPDATE ON Z_PRIMARYKEY WHEN NEW.Z_ENT = 2 BEGIN
            INSERT OR IGNORE INTO ZEXPENSE (Z_PK, Z_ENT, Z_OPT, ZEXTERNALID, ZAMOUNT) VALUES (1000, 2, 1, 'raced', 1); END
            """)
        let context = container.newBackgroundContext()
        context.mergePolicy = .mergeByPropertyObjectTrump
        container.counters.startRecording()
        try context.performAndWait {
            for key in ["raced", "calm"] {
                let e = try context.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string(key)
                e["amount"] = .double(2)
            }
            try context.save()
            #expect(!context.hasChanges && context.conflictCount == 1 && context.failedSaveAttempts == 1)
        }
        let sql = lastTransaction(container.counters.stopRecording())
        #expect(
            sql.first == "BEGIN EXCLUSIVE"
                && sql[1] == "SELECT Z_PK, ZEXTERNALID FROM ZEXPENSE WHERE (ZEXTERNALID IN (?,?))"
                && sql[2].hasPrefix("SELECT 0, t0.Z_PK, t0.Z_OPT") && sql[2].hasSuffix("WHERE  t0.Z_PK IN (?)"),
            "\(sql)")
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE WHERE ZEXTERNALID = 'raced' AND ZAMOUNT = 2") == 1)
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 2)
    }

    @Test func movingAnExpenseUpdatesBothCategories() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        let ids = try seedExpenses(context, count: 2, categories: 2)
        container.counters.startRecording()
        try context.performAndWait {
            let first = try context.existingObject(with: ids[0])
            let second = try context.existingObject(with: ids[1])
            let target = second.object(forKey: "category")
            try first.setObject(target, forKey: "category")
            #expect(target?.isUpdated == true && context.updatedObjects.count == 3)
            try context.save()
            #expect(!context.hasChanges)
        }
        #expect(
            lastTransaction(container.counters.stopRecording()) == [
                // The categories first: they were marked as the relationship changed, before the
                // expense itself (Core Data's updated objects are a set: no order to copy).
                "BEGIN EXCLUSIVE",
                "UPDATE OR FAIL ZCATEGORY SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                "UPDATE OR FAIL ZCATEGORY SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                "UPDATE OR FAIL ZEXPENSE SET ZCATEGORY = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                "COMMIT",
            ])
        #expect(try container.rows("SELECT count(*) FROM ZCATEGORY WHERE Z_OPT = 2") == 2)
    }

    @Test func relatingToACategoryFaultReadsItOnceAtTheSave() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        try seedExpenses(context, count: 1, categories: 1)
        let categoryID = try context.performAndWait {
            try context.fetch(FetchRequest(entityName: "Category")).first!.objectID
        }
        let other = container.newBackgroundContext()
        container.counters.startRecording()
        try other.performAndWait {
            let category = other.object(with: categoryID)
            for i in 0..<3 {
                let e = try other.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string("new-\(i)")
                try e.setObject(category, forKey: "category")
            }
            #expect(category.isFault && category.isUpdated)   // read at the save, with its peers
            try other.save()
            #expect(!category.isFault && !category.isUpdated)
        }
        let sql = container.counters.stopRecording()
        #expect(sql.filter { $0.hasPrefix("SELECT 0, t0.Z_PK, t0.Z_OPT") }.count == 1)
        #expect(sql.filter { $0 == "UPDATE OR FAIL ZCATEGORY SET Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?" }.count == 1)
        #expect(try container.rows("SELECT Z_OPT FROM ZCATEGORY") == 2)
    }

    /// Two writers add to one category they both hold at version 1: the second save's UPDATE of
    /// the category matches no row.
    private func twoWritersAddToOneCategory(policy: MergePolicy) throws -> (
        PersistentContainer, Error?, ManagedObjectContext
    ) {
        let container = try makeContainer()
        try seedExpenses(container.newBackgroundContext(), count: 1, categories: 1)
        let writers = [container.newBackgroundContext(), container.newBackgroundContext()]
        var categories: [ManagedObject] = []
        for (i, w) in writers.enumerated() {
            w.mergePolicy = policy
            try w.performAndWait {
                let category = try w.fetch(FetchRequest(entityName: "Category")).first!
                let e = try w.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string("writer-\(i)")
                try e.setObject(category, forKey: "category")
                categories.append(category)
            }
        }
        try writers[0].performAndWait { try writers[0].save() }
        var failure: Error?
        writers[1].performAndWait {
            do { try writers[1].save() } catch { failure = error }
        }
        return (container, failure, writers[1])
    }

    @Test func twoWritersAddingToOneCategoryConflictUnderTheErrorPolicy() throws {
        let (container, failure, second) = try twoWritersAddToOneCategory(policy: .error)
        guard case ContextError.mergeConflict(let ids)? = failure else {
            Issue.record("expected a merge conflict, got \(String(describing: failure))")
            return
        }
        #expect(ids.count == 1 && ids[0].entityID == 1)   // the category
        second.performAndWait { #expect(second.hasChanges && second.conflictCount == 1) }
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE WHERE ZEXTERNALID = 'writer-1'") == 0)
        #expect(try container.rows("SELECT Z_OPT FROM ZCATEGORY") == 2)
    }

    @Test func twoWritersAddingToOneCategoryLoseNothingUnderObjectTrump() throws {
        let (container, failure, second) = try twoWritersAddToOneCategory(policy: .mergeByPropertyObjectTrump)
        #expect(failure == nil)
        second.performAndWait { #expect(!second.hasChanges && second.conflictCount == 1) }
        #expect(
            try container.rows("SELECT count(*) FROM ZEXPENSE WHERE ZEXTERNALID LIKE 'writer-%' AND ZCATEGORY = 1") == 2
        )
        #expect(try container.rows("SELECT Z_OPT FROM ZCATEGORY") == 3)
    }

    @Test func aBatchDeleteBumpsTheCategoriesThroughATemporaryTrigger() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        try seedExpenses(context, count: 6, categories: 2)
        container.counters.startRecording()
        let result = try context.performAndWait {
            try context.execute(
                BatchDeleteRequest(
                    entityName: "Expense", predicate: .compare("amount", .greaterOrEqual, .value(.double(2)))))
        }
        #expect(result.count == 4)
        #expect(
            container.counters.stopRecording() == [
                "BEGIN EXCLUSIVE",
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_ZEXPENSE_TRIGGER AFTER DELETE ON ZEXPENSE FOR EACH ROW BEGIN "
                    + "UPDATE OR FAIL ZCATEGORY SET Z_OPT = (Z_OPT + 1) WHERE Z_PK = OLD.ZCATEGORY; END",
                "DELETE FROM ZEXPENSE WHERE Z_PK IN (SELECT Z_PK FROM ZEXPENSE WHERE ZAMOUNT >= ?)",
                "DROP TRIGGER IF EXISTS ZQ_ZEXPENSE_TRIGGER",
                "COMMIT",
            ])
        // Each category lost two expenses: two bumps each, from version 1.
        #expect(try container.rows("SELECT sum(Z_OPT) FROM ZCATEGORY") == 2 * 3)
        #expect(try container.rows("SELECT count(*) FROM sqlite_temp_master") == 0)
    }

    /// `_performPostSaveTasks:`' thresholds: a vacuum with more than 1023 free pages or at most
    /// 85 % in use; a fifth of the free pages while at least 40 % is in use, else the free
    /// pages beyond the used ones.
    @Test func theVacuumThresholdsAreCoreDatas() {
        #expect(PostSaveMaintenance.pagesToVacuum(freePages: 0, pages: 100) == nil)
        #expect(PostSaveMaintenance.pagesToVacuum(freePages: 149, pages: 1_000) == nil)   // 85.1 % in use
        #expect(PostSaveMaintenance.pagesToVacuum(freePages: 150, pages: 1_000) == 30)
        #expect(PostSaveMaintenance.pagesToVacuum(freePages: 1_024, pages: 100_000) == 204)
        #expect(PostSaveMaintenance.pagesToVacuum(freePages: 1_023, pages: 100_000) == nil)
        #expect(PostSaveMaintenance.pagesToVacuum(freePages: 700, pages: 1_000) == 400)   // 30 % in use
    }

    /// The free-page check runs on the first save and then every eleventh: a big delete's pages
    /// come back at the check after it, not at the next save.
    @Test func aBigDeleteIsVacuumedAtTheNextFreePageCheck() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let expense = try context.entity(named: "Expense")
            for i in 0..<4_000 {
                let e = context.insert(expense)
                e["externalID"] = .string("ex-\(i)")
                e["note"] = .string(String(repeating: "n", count: 1_000))
            }
            try context.save()   // post-save tasks 1: the check (nothing free)
        }
        #expect(try container.rows("PRAGMA auto_vacuum") == 2)
        let pagesBefore = try container.rows("PRAGMA page_count")
        // Post-save tasks 2: the countdown goes from 10 to 9.
        _ = try context.performAndWait { try context.execute(BatchDeleteRequest(entityName: "Expense")) }
        #expect(try container.rows("PRAGMA freelist_count") > 1_000)
        func saveACategory() throws {
            try context.performAndWait {
                _ = try context.insertNewObject(forEntityName: "Category")
                try context.save()
            }
        }
        for _ in 0..<9 { try saveACategory() }   // tasks 3…11: 8 … 0
        #expect(container.persistentStoreCoordinator.incrementalVacuums == 0)
        container.counters.startRecording()
        try saveACategory()   // tasks 12: the check, and the vacuum
        let tail = container.counters.stopRecording().suffix(3).map { String($0.prefix { $0 != "(" }) }
        #expect(tail == ["pragma page_count", "pragma freelist_count", "pragma incremental_vacuum"])
        #expect(container.persistentStoreCoordinator.incrementalVacuums == 1)
        #expect(try container.rows("PRAGMA page_count") < pagesBefore / 4)
    }
}
