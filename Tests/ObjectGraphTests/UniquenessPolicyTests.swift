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
            #expect(throws: ContextError.constraintConflict(entity: "Expense", values: ["\"ex-2\""])) { try context.save() }
        }
    }

    /// Another writer inserts the key after this save reserved its keys and before its write
    /// (a trigger on the key reservation plays that writer): the constrained UPDATE meets the
    /// UNIQUE index, the attempt rolls back, and the save runs again merged into the row.
    @Test func aKeyInsertedBeforeTheWriteFailsOneAttemptAndIsMerged() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        try Database(path: container.path).execute("""
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
}

/// A delete whose row someone else changed first.
@Suite struct DeleteConflictTests {
    /// A changes the amount and saves; B, which read the row before, deletes it under `policy`.
    func deleteAfterAnUpdate(_ policy: MergePolicy) throws -> (error: ContextError?, rows: Int, id: ManagedObjectID) {
        let container = try makeContainer()
        let id = try seedExpenses(container.newBackgroundContext(), count: 1, categories: 1)[0]
        let a = container.newBackgroundContext(name: "A"), b = container.newBackgroundContext(name: "B")
        b.mergePolicy = policy
        try b.performAndWait { _ = try b.existingObject(with: id) }
        try a.performAndWait {
            try a.existingObject(with: id)["amount"] = .double(99)
            try a.save()
        }
        var error: ContextError?
        try b.performAndWait {
            b.delete(try b.existingObject(with: id))
            do { try b.save() } catch let e as ContextError { error = e }
        }
        return (error, try container.rows("SELECT count(*) FROM ZEXPENSE"), id)
    }

    @Test func errorPolicyRefusesTheDeleteAndNamesTheObject() throws {
        let o = try deleteAfterAnUpdate(.error)
        #expect(o.error == .mergeConflict([o.id]))
        #expect(o.rows == 1)
    }

    @Test func objectTrumpDeletesAnyway() throws {
        let o = try deleteAfterAnUpdate(.mergeByPropertyObjectTrump)
        #expect(o.error == nil && o.rows == 0)
    }

    @Test func storeTrumpKeepsTheChangedRow() throws {
        let o = try deleteAfterAnUpdate(.mergeByPropertyStoreTrump)
        #expect(o.error == nil && o.rows == 1)
    }
}

/// Batch update and batch delete: one statement in the store, IDs back, merged on request.
@Suite struct BatchRequestTests {
    /// Ten expenses in two categories, all registered in a viewer (the screen a merge must
    /// reach), and a worker context for the request.
    func watchedStore() throws -> (PersistentContainer, [ManagedObjectID], viewer: ManagedObjectContext, worker: ManagedObjectContext) {
        let container = try makeContainer()
        let ids = try seedExpenses(container.newBackgroundContext(), count: 10, categories: 2)
        let viewer = container.newBackgroundContext(name: "viewer")
        try viewer.performAndWait { for id in ids { _ = try viewer.existingObject(with: id) } }
        return (container, ids, viewer, container.newBackgroundContext(name: "worker"))
    }

    @Test func batchUpdateIsOneStatementAndMergesIntoAWatchingContext() throws {
        let (container, ids, viewer, worker) = try watchedStore()
        container.counters.startRecording()
        let result = try worker.performAndWait {
            var request = BatchUpdateRequest(entityName: "Expense", predicate: try Predicate(format: "amount < %@", arguments: [4.0]),
                                             propertiesToUpdate: ["note": "updated"])
            request.resultType = .objectIDs
            return try worker.execute(request)
        }
        let sql = container.counters.stopRecording()
        #expect(sql.filter { $0.hasPrefix("UPDATE") }.count == 1)
        #expect(result.count == 4 && Set(result.objectIDs) == Set(ids.prefix(4)))
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE WHERE ZNOTE = 'updated' AND Z_OPT = 2") == 4)
        // Registered objects keep their old values until the IDs are merged.
        let before = try viewer.performAndWait { try viewer.existingObject(with: ids[0])["note"] }
        #expect(before == "note 0")
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: (updated: result.objectIDs, deleted: []), into: [viewer])
        let after = try viewer.performAndWait {
            (try viewer.existingObject(with: ids[0])["note"], try viewer.existingObject(with: ids[5])["note"])
        }
        #expect(after == ("updated", "note 5"))
    }

    @Test func batchDeleteRemovesTheRowsAndTheMergeForgetsThem() throws {
        let (container, ids, viewer, worker) = try watchedStore()
        container.counters.startRecording()
        let result = try worker.performAndWait {
            var request = BatchDeleteRequest(entityName: "Expense", predicate: try Predicate(format: "amount >= %@", arguments: [7.0]))
            request.resultType = .objectIDs
            return try worker.execute(request)
        }
        let sql = container.counters.stopRecording()
        #expect(sql.filter { $0.hasPrefix("DELETE") }.count == 1)
        #expect(Set(result.objectIDs) == Set(ids.suffix(3)))
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 7)
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: (updated: [], deleted: result.objectIDs), into: [viewer])
        let registered = viewer.performAndWait { viewer.registeredObjectCount }
        #expect(registered == 7 + 2)   // 7 expenses and their 2 categories
    }
}
