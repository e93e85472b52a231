import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// Uniqueness conflicts under every merge policy, deletes that meet a conflict, and the retry
/// when another writer inserts a key between a save's check and its INSERT.
@Suite struct UniquenessPolicyTests {
    /// The store holds ex-1 (amount 1, note "note 1"); a context inserts ex-1 again with amount
    /// 500 and saves under `policy`. Returns the stored amount and note, the row count and the
    /// conflicts counted.
    func insertExisting(_ policy: MergePolicy) throws -> (amount: Double, note: String, rows: Int, conflicts: Int) {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        try seedExpenses(container.newBackgroundContext(), count: 3, categories: 1)
        let context = container.newBackgroundContext()
        context.mergePolicy = policy
        let conflicts = try context.performAndWait {
            let e = try context.insertNewObject(forEntityName: "Expense")
            e["externalID"] = "ex-1"
            e["amount"] = .double(500)
            try context.save()
            return context.conflictCount
        }
        let db = try Database(path: container.path)
        let s = try db.prepare("SELECT ZAMOUNT, ZNOTE FROM ZEXPENSE WHERE ZEXTERNALID = 'ex-1'")
        _ = try s.step()
        return (s.double(at: 0), s.text(at: 1) ?? "", try container.rows("SELECT count(*) FROM ZEXPENSE"), conflicts)
    }

    @Test func storeTrumpKeepsTheStoredRow() throws {
        let o = try insertExisting(.mergeByPropertyStoreTrump)
        #expect(o == (1, "note 1", 3, 1))
    }

    @Test func overwriteWritesEveryAttributeOfTheNewObject() throws {
        let o = try insertExisting(.overwrite)
        // Overwrite writes the whole object: the note it never set becomes its default.
        #expect(o.amount == 500 && o.rows == 3 && o.conflicts == 1)
        #expect(o.note != "note 1")
    }

    @Test func rollbackDropsTheNewObjectsValues() throws {
        let o = try insertExisting(.rollback)
        #expect(o == (1, "note 1", 3, 1))
    }

    @Test func objectTrumpWritesOnlyWhatTheNewObjectSet() throws {
        let o = try insertExisting(.mergeByPropertyObjectTrump)
        #expect(o == (500, "note 1", 3, 1))
    }

    @Test func errorPolicyNamesTheConflictingKey() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        try seedExpenses(container.newBackgroundContext(), count: 3, categories: 1)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let e = try context.insertNewObject(forEntityName: "Expense")
            e["externalID"] = "ex-2"
            #expect(throws: ContextError.constraintConflict(entity: "Expense", values: ["\"ex-2\""])) {
                try context.save()
            }
        }
    }

    /// Another writer inserts the key after this save reserved its keys and before its write
    /// (a trigger on the key reservation plays that writer): the constrained UPDATE meets the
    /// UNIQUE index, the attempt rolls back, and the save runs again merged into the row.
    @Test func aKeyInsertedBeforeTheWriteFailsOneAttemptAndIsMerged() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        try Database(path: container.path).execute(
            """
            CREATE TRIGGER racer AFTER UPDATE ON Z_PRIMARYKEY WHEN NEW.Z_NAME = 'Expense'
              AND NOT EXISTS (SELECT 1 FROM ZEXPENSE WHERE ZEXTERNALID = 'race')
            BEGIN INSERT INTO ZEXPENSE (Z_PK, Z_ENT, Z_OPT, ZEXTERNALID, ZAMOUNT) VALUES (1000, 2, 1, 'race', 1); END
            """)
        let context = container.newBackgroundContext()
        context.mergePolicy = .mergeByPropertyObjectTrump
        let (conflicts, attempts) = try context.performAndWait {
            let e = try context.insertNewObject(forEntityName: "Expense")
            e["externalID"] = "race"
            e["amount"] = .double(7)
            try context.save()
            #expect(e.objectID.primaryKey == 1000)
            return (context.conflictCount, context.failedSaveAttempts)
        }
        #expect(conflicts == 1 && attempts == 1)   // the merge the conflict fetch found, after one failed attempt
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 1)
        #expect(try container.rows("SELECT ZAMOUNT FROM ZEXPENSE WHERE ZEXTERNALID = 'race'") == 7)
    }

    /// Issue 43, item 3, as a second writer sees it: between a save's failed attempt and its
    /// retry nothing of the store is held (decompiled `save:` sends its request again; the
    /// coordinator serialises each request and holds nothing between two; `NSSQLCore` rethrows the
    /// conflict at once), so a writer on the same coordinator, or on another one, commits a key
    /// there; the retry, which checks and writes under the lock, meets that key as well and
    /// resolves it with the rest. One failed attempt, two conflicts, one row per key.
    @Test(arguments: [false, true])
    func aSecondWriterSavesBetweenAttempts(ownCoordinator: Bool) throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        try seedExpenses(container.newBackgroundContext(), count: 3, categories: 1)
        let second =
            ownCoordinator ? try makeContainer(BundledModels.expenses(key: .unique), path: container.path) : container
        let other = second.newBackgroundContext(name: "second writer")
        let context = container.newBackgroundContext()
        context.mergePolicy = .mergeByPropertyObjectTrump
        var sawHeld: Bool?
        context.betweenSaveAttempts = {
            sawHeld =
                container.persistentStoreCoordinator.isWriterHeld || second.persistentStoreCoordinator.isWriterHeld
            try? other.performAndWait {
                let e = try other.insertNewObject(forEntityName: "Expense")
                e["externalID"] = "new-1"
                e["amount"] = .double(1)
                try other.save()
            }
        }
        let (conflicts, failed) = try context.performAndWait {
            for key in ["ex-1", "new-1"] {   // ex-1 is stored: the first attempt fails on it
                let e = try context.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string(key)
                e["amount"] = .double(500)
            }
            try context.save()
            return (context.conflictCount, context.failedSaveAttempts)
        }
        #expect(sawHeld == false, "the store's writer is free between attempts")
        #expect(failed == 1 && conflicts == 2)
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 4)
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE WHERE ZEXTERNALID = 'new-1' AND ZAMOUNT = 500") == 1)
    }
}
