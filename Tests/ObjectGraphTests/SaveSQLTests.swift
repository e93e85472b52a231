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
        #expect(sql == [
            "BEGIN EXCLUSIVE",
            "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
            "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?",
            "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
            "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?",
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
        #expect(container.counters.stopRecording() == [
            "BEGIN EXCLUSIVE",
            "UPDATE OR FAIL ZEXPENSE SET ZAMOUNT = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
            "COMMIT",
            "pragma page_count",
            "pragma freelist_count",
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
        #expect(container.counters.stopRecording() == [
            "BEGIN EXCLUSIVE",
            "UPDATE OR FAIL ZEXPENSE SET ZAMOUNT = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
            "UPDATE OR FAIL ZEXPENSE SET ZNOTE = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
            "UPDATE OR FAIL ZEXPENSE SET ZAMOUNT = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?",
            "COMMIT",
            "pragma page_count",
            "pragma freelist_count",
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

    @Test func uniquenessCheckIsOneSelectPerConstrainedEntity() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        let sql = try recordSaveOfOneCategory(container, expenses: 3)
        // (A reader connection opens on first use; its PRAGMAs are not part of the save.)
        let checks = sql.prefix { $0 != "BEGIN EXCLUSIVE" }.filter { !$0.hasPrefix("PRAGMA") }
        #expect(checks.count == 2)
        #expect(checks.allSatisfy { $0.hasPrefix("SELECT Z_PK, Z_OPT") && $0.contains(" IN (") })
        #expect(sql.filter { $0.hasPrefix("INSERT") }.count == 4)
    }
}
