import Foundation
import Testing

@testable import ObjectGraph

/// The SQL a save issues, statement by statement, as Core Data's SQL debug log shows it.
@Suite struct SaveSQLTests {
    @Test func savingNothingIssuesNoSQL() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        container.counters.startRecording()
        try context.performAndWait { try context.save() }
        #expect(container.counters.stopRecording().isEmpty)
    }

    @Test func threeExpensesAndOneCategory() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        container.counters.startRecording()
        try context.performAndWait {
            let c = try context.insertNewObject(forEntityName: "Category")
            c["name"] = "Food"
            for i in 0..<3 {
                let e = try context.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string("ex-\(i)")
                try e.setObject(c, forKey: "category")
            }
            #expect(context.hasChanges)
            try context.save()
            #expect(!context.hasChanges)
        }
        let sql = container.counters.stopRecording()
        #expect(
            sql == [
                "BEGIN EXCLUSIVE",
                "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?",
                "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?",
                "COMMIT",
                "BEGIN EXCLUSIVE",
                "INSERT INTO ZCATEGORY(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)",
                "INSERT INTO ZEXPENSE(Z_PK, Z_ENT, Z_OPT, ZCATEGORY, ZAMOUNT, ZDATE, ZEXTERNALID, ZNOTE) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                "INSERT INTO ZEXPENSE(Z_PK, Z_ENT, Z_OPT, ZCATEGORY, ZAMOUNT, ZDATE, ZEXTERNALID, ZNOTE) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                "INSERT INTO ZEXPENSE(Z_PK, Z_ENT, Z_OPT, ZCATEGORY, ZAMOUNT, ZDATE, ZEXTERNALID, ZNOTE) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
                "COMMIT",
                "pragma page_count",
                "pragma freelist_count",
            ])
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE WHERE ZCATEGORY = 1 AND Z_OPT = 1") == 3)
        #expect(try container.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Expense'") == 3)
    }

    @Test func idsBecomePermanentAfterSave() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let e = try context.insertNewObject(forEntityName: "Expense")
            #expect(e.objectID.isTemporaryID)
            try context.save()
            #expect(!e.objectID.isTemporaryID && e.objectID.primaryKey == 1)
            #expect(e.objectID.uriRepresentation.hasSuffix("/Expense/p1"))
            let f = try context.insertNewObject(forEntityName: "Expense")
            try context.obtainPermanentIDs(for: [f])
            #expect(f.objectID.primaryKey == 2)
            try context.save()
            #expect(f.objectID.primaryKey == 2)
        }
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 2)
    }

    @Test func anUpdateSetsOnlyTheChangedColumnsAndChecksZOPT() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        let ids = try seedExpenses(context, count: 1, categories: 1)
        container.counters.startRecording()
        try context.performAndWait {
            let e = context.object(with: ids[0])
            e["amount"] = .double(99)
            #expect(e.isUpdated)
            try context.save()
        }
        #expect(
            container.counters.stopRecording() == [
                "BEGIN EXCLUSIVE",
                "UPDATE OR FAIL ZEXPENSE SET ZAMOUNT = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                "COMMIT",
            ])
        #expect(try container.rows("SELECT Z_OPT FROM ZEXPENSE") == 2)
        #expect(try container.rows("SELECT ZAMOUNT FROM ZEXPENSE") == 99)
    }

    /// A save reuses its last UPDATE for the next object of the same shape: interleaved shapes
    /// must each still write their own columns.
    @Test func updatesOfDifferentShapesInOneSaveEachWriteTheirColumns() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        let ids = try seedExpenses(context, count: 3, categories: 1)
        container.counters.startRecording()
        try context.performAndWait {
            context.object(with: ids[0])["amount"] = .double(1)
            context.object(with: ids[1])["note"] = .string("changed")
            context.object(with: ids[2])["amount"] = .double(3)
            try context.save()
        }
        #expect(
            container.counters.stopRecording() == [
                "BEGIN EXCLUSIVE",
                "UPDATE OR FAIL ZEXPENSE SET ZAMOUNT = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                "UPDATE OR FAIL ZEXPENSE SET ZNOTE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                "UPDATE OR FAIL ZEXPENSE SET ZAMOUNT = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                "COMMIT",
            ])
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE WHERE Z_OPT = 2") == 3)
        #expect(try container.rows("SELECT sum(ZAMOUNT) FROM ZEXPENSE WHERE Z_PK IN (1, 3)") == 4)
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE WHERE ZNOTE = 'changed'") == 1)
    }

    @Test func settingTheSameValueIsNoChange() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        let ids = try seedExpenses(context, count: 1, categories: 1)
        try context.performAndWait {
            let e = try context.existingObject(with: ids[0])
            e["amount"] = e["amount"]
            #expect(!e.isUpdated && !context.hasChanges)
        }
    }

    @Test func deleteChecksZOPT() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext()
        let ids = try seedExpenses(context, count: 2, categories: 1)
        container.counters.startRecording()
        try context.performAndWait {
            context.delete(try context.existingObject(with: ids[0]))
            try context.save()
        }
        let sql = container.counters.stopRecording()
        #expect(sql.contains("DELETE FROM ZEXPENSE WHERE Z_PK = ? AND Z_OPT = ?"))
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 1)
    }

    /// Core Data's save has no uniqueness query: a constrained save without conflicts is the
    /// key reservation and the writes, the keys set by the constrained UPDATEs.
    @Test func aConflictFreeConstrainedSaveReadsNothingFirst() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        let sql = try recordSaveOfOneCategory(container, expenses: 3)
        #expect(
            sql.filter { $0.hasPrefix("SELECT") }
                == Array(repeating: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", count: 2))
        #expect(sql.filter { $0 == "UPDATE OR FAIL ZEXPENSE SET ZEXTERNALID = ? WHERE Z_PK = ?" }.count == 3)
        #expect(!sql.contains("ROLLBACK"))
    }

    /// A key already stored: the first attempt fails at its constrained UPDATE and rolls back;
    /// the save runs again, the conflict fetch first, and the merge policy merges the new
    /// object into the stored row. Nothing is lost and nothing is doubled.
    @Test func aStoredKeyCostsAFailedAttemptARollbackAConflictFetchAndASecondSave() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        let first = container.newBackgroundContext()
        try first.performAndWait {
            let e = try first.insertNewObject(forEntityName: "Expense")
            e["externalID"] = "stored"
            e["amount"] = .double(1)
            try first.save()
        }
        let context = container.newBackgroundContext()
        context.mergePolicy = .mergeByPropertyObjectTrump
        container.counters.startRecording()
        try context.performAndWait {
            for (key, amount) in [("stored", 7.0), ("new", 8.0)] {
                let e = try context.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string(key)
                e["amount"] = .double(amount)
            }
            try context.save()
            #expect(context.failedSaveAttempts == 1 && context.conflictCount == 1 && !context.hasChanges)
        }
        let insert =
            "INSERT INTO ZEXPENSE(Z_PK, Z_ENT, Z_OPT, ZCATEGORY, ZAMOUNT, ZDATE, ZNOTE) VALUES(?, ?, ?, ?, ?, ?, ?)"
        let setKey = "UPDATE OR FAIL ZEXPENSE SET ZEXTERNALID = ? WHERE Z_PK = ?"
        #expect(
            container.counters.stopRecording() == [
                "BEGIN EXCLUSIVE",
                "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?",
                "COMMIT",
                // The attempt: the stored key fails the first constrained UPDATE.
                "BEGIN EXCLUSIVE", insert, insert, setKey,
                "ROLLBACK",
                // The save again: the keys alone, then the conflicting object's row (as the merge
                // policy fetches it), then the survivor's update and the new row.
                "BEGIN EXCLUSIVE",
                "SELECT Z_PK, ZEXTERNALID FROM ZEXPENSE WHERE (ZEXTERNALID IN (?,?))",
                "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCATEGORY, t0.ZAMOUNT, t0.ZDATE, t0.ZEXTERNALID, t0.ZNOTE FROM ZEXPENSE t0 WHERE  t0.Z_PK IN (?)",
                insert,
                "UPDATE OR FAIL ZEXPENSE SET ZAMOUNT = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
                setKey,
                "COMMIT",
            ])
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 2)
        #expect(try container.rows("SELECT ZAMOUNT FROM ZEXPENSE WHERE ZEXTERNALID = 'stored'") == 7)
    }

    /// The conflict discovery reads keys for every object of the save but rows only for the
    /// stored ones that collide: five keys (padded to eight), two stored, so the object fetch
    /// asks for two rows (padded to two), not five.
    @Test func theConflictPathReadsKeysFirstAndRowsOnlyForTheConflictingObjects() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        let first = container.newBackgroundContext()
        try first.performAndWait {
            for key in ["b", "d"] {
                let e = try first.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string(key)
                try first.save()
            }
        }
        let context = container.newBackgroundContext()
        context.mergePolicy = .mergeByPropertyObjectTrump
        container.counters.startRecording()
        try context.performAndWait {
            for key in ["a", "b", "c", "d", "e"] {
                let e = try context.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string(key)
                e["amount"] = .double(9)
            }
            try context.save()
            #expect(context.failedSaveAttempts == 1 && context.conflictCount == 2)
        }
        let selects = container.counters.stopRecording().filter {
            $0.hasPrefix("SELECT Z_PK") || $0.hasPrefix("SELECT 0, t0.Z_PK")
        }
        #expect(
            selects == [
                "SELECT Z_PK, ZEXTERNALID FROM ZEXPENSE WHERE (ZEXTERNALID IN (?,?,?,?,?,?,?,?))",
                "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCATEGORY, t0.ZAMOUNT, t0.ZDATE, t0.ZEXTERNALID, t0.ZNOTE FROM ZEXPENSE t0 WHERE  t0.Z_PK IN (?,?)",
            ])
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 5)
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE WHERE ZAMOUNT = 9") == 5)
    }

    /// Two objects of one context with one key: found in memory (Core Data's `NSConstraintCache`),
    /// merged by the policy, no query and no failed attempt.
    @Test func conflictsInsideOneContextAreResolvedInMemory() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        let context = container.newBackgroundContext()
        context.mergePolicy = .mergeByPropertyObjectTrump
        container.counters.startRecording()
        try context.performAndWait {
            for amount in [1.0, 2.0] {
                let e = try context.insertNewObject(forEntityName: "Expense")
                e["externalID"] = "twice"
                e["amount"] = .double(amount)
            }
            try context.save()
            #expect(context.failedSaveAttempts == 0 && context.conflictCount == 1)
        }
        let sql = container.counters.stopRecording()
        #expect(
            sql.filter { $0.hasPrefix("SELECT") && !$0.contains("Z_PRIMARYKEY") }.isEmpty && !sql.contains("ROLLBACK"))
        #expect(sql.filter { $0.hasPrefix("INSERT INTO ZEXPENSE") }.count == 1)
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE WHERE ZEXTERNALID = 'twice' AND ZAMOUNT = 2") == 1)
    }
}
