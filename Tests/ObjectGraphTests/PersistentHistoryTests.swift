import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// Persistent history as Core Data records it: a transaction and its changes inside each
/// save's or batch request's transaction, fetched after a token, merged, purged; and what
/// happens to a store opened with and without tracking.
@Suite struct PersistentHistoryTests {
    private func makeHistoryContainer(path: String? = nil, history: Bool = true) throws -> PersistentContainer {
        ConcurrencyDebug.isEnabled = true
        var options = StoreOptions(path: path ?? NSTemporaryDirectory() + "ph-\(UUID().uuidString).sqlite")
        options.persistentHistoryTracking = history
        return try PersistentContainer(model: BundledModels.expenses(key: .none), options: options)
    }

    private func insertExpenses(_ context: ManagedObjectContext, _ keys: [String]) throws -> [ManagedObjectID] {
        try context.performAndWait {
            let objects = try keys.map { key -> ManagedObject in
                let e = try context.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string(key)
                return e
            }
            try context.save()
            return objects.map(\.objectID)
        }
    }

    private func history(_ context: ManagedObjectContext, after token: HistoryToken?) throws -> [HistoryTransaction] {
        try context.performAndWait {
            try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: token)).transactions
        }
    }

    @Test func aSaveWritesOneTransactionAndAChangePerObjectInsideItsTransaction() throws {
        let container = try makeHistoryContainer()
        let context = container.newBackgroundContext(name: "importer")
        context.transactionAuthor = "app"
        container.counters.startRecording()
        _ = try insertExpenses(context, ["a", "b", "c"])
        let first = container.counters.stopRecording()
        // Every history row's key is reserved in Z_PRIMARYKEY, as any entity's.
        let reserve = [
            "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
            "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?",
        ]
        let string =
            reserve + ["INSERT OR IGNORE INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, 16003, 1, ?)"]
        let transaction =
            reserve + [
                "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, "
                    + "ZPROCESSIDTS, ZTIMESTAMP, ZQUERYGEN) VALUES (?, 16001, 1, ?, ?, ?, ?, ?, NULL)"
            ]
        let change =
            "INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS) "
            + "VALUES (?, 16002, 1, ?, ?, ?, ?, ?)"
        let insert =
            "INSERT INTO ZEXPENSE(Z_PK, Z_ENT, Z_OPT, ZCATEGORY, ZAMOUNT, ZDATE, ZEXTERNALID, ZNOTE) VALUES(?, ?, ?, ?, ?, ?, ?, ?)"
        // Author, bundle ID, context name and process ID are interned once each, then cached;
        // the three inserts' changes take their keys in one reservation.
        #expect(
            lastTransaction(first) == ["BEGIN EXCLUSIVE", insert, insert, insert]
                + Array([[String]](repeating: string, count: 4).joined())
                + transaction + reserve + [
                    change, change, change, "COMMIT", "pragma page_count", "pragma freelist_count",
                ])
        container.counters.startRecording()
        _ = try insertExpenses(context, ["d"])
        let second = container.counters.stopRecording()
        // Not the first save: no free-page check after it.
        #expect(lastTransaction(second) == ["BEGIN EXCLUSIVE", insert] + transaction + reserve + [change, "COMMIT"])
        #expect(try container.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16002") == 4)
        #expect(try container.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16001") == 2)
        #expect(try container.rows("SELECT count(*) FROM ATRANSACTION") == 2)
        #expect(try container.rows("SELECT count(*) FROM ACHANGE WHERE ZCHANGETYPE = 0 AND ZENTITY = 2") == 4)
        #expect(try container.rows("SELECT count(*) FROM ATRANSACTIONSTRING") == 4)
    }

    @Test func historyAfterATokenIsExactlyTheLaterSaves() throws {
        let container = try makeHistoryContainer()
        let context = container.newBackgroundContext(name: "importer")
        context.transactionAuthor = "app"
        let first = try insertExpenses(context, ["a"])
        let second = try insertExpenses(context, ["b", "c"])
        try context.performAndWait {
            let e = context.object(with: first[0])
            e["amount"] = .double(7)
            context.delete(context.object(with: second[0]))
            try context.save()
        }
        let all = try history(context, after: nil)
        #expect(all.count == 3)
        #expect(all.allSatisfy { $0.author == "app" && $0.contextName == "importer" })
        #expect(all[0].changes.map(\.changedObjectID) == first)
        let later = try history(context, after: all[0].token)
        #expect(later.map(\.token) == [all[1].token, all[2].token])
        #expect(later[0].changes.map(\.changeType) == [.insert, .insert])
        let last = later[1].changes
        #expect(last.map(\.changeType) == [.update, .delete])
        #expect(last[0].changedObjectID == first[0] && last[1].changedObjectID == second[0])
        // amount is the first attribute, after the one to-one (category): bit 1.
        #expect(last[0].updatedColumns == [0b10] && last[1].updatedColumns == nil)
        #expect(try history(context, after: all[2].token).isEmpty)
    }

    @Test func purgingKeepsWhatAConsumerHasNotSeen() throws {
        let container = try makeHistoryContainer()
        let context = container.newBackgroundContext()
        for key in ["a", "b", "c"] { _ = try insertExpenses(context, [key]) }
        let all = try history(context, after: nil)
        let deleted = try context.performAndWait {
            try context.execute(PersistentHistoryChangeRequest.deleteHistory(before: all[1].token))
        }
        guard case .deleted(let count) = deleted else {
            Issue.record("expected a delete result")
            return
        }
        #expect(count == 1)
        #expect(try history(context, after: nil).map(\.token) == [all[1].token, all[2].token])
        #expect(try container.rows("SELECT count(*) FROM ACHANGE") == 2)
    }

    @Test func batchRequestsAreRecordedToo() throws {
        let container = try makeHistoryContainer()
        let context = container.newBackgroundContext()
        let inserted = try context.performAndWait {
            try context.execute(
                BatchInsertRequest(entityName: "Expense", objects: (0..<3).map { ["externalID": .string("k\($0)")] }))
        }
        #expect(inserted.count == 3)
        _ = try context.performAndWait {
            try context.execute(
                BatchUpdateRequest(
                    entityName: "Expense", predicate: .compare("externalID", .notEqual, .value("k0")),
                    propertiesToUpdate: ["note": "batched"]))
        }
        _ = try context.performAndWait {
            try context.execute(
                BatchDeleteRequest(entityName: "Expense", predicate: .compare("externalID", .equal, .value("k0"))))
        }
        let all = try history(context, after: nil)
        #expect(
            all.map { $0.changes.map(\.changeType) } == [[.insert, .insert, .insert], [.update, .update], [.delete]])
        // note is the fourth attribute (amount, date, externalID, note), after the to-one: bit 4.
        #expect(all[1].changes.allSatisfy { $0.updatedColumns == [0b1_0000] })
        #expect(all[2].changes[0].changedObjectID.primaryKey == 1)
    }

    @Test func aRolledBackSaveTakesItsHistoryAndStringsWithIt() throws {
        let container = try makeHistoryContainer()
        let seed = container.newBackgroundContext()
        let ids = try insertExpenses(seed, ["a"])
        let stale = container.newBackgroundContext(name: "stale")
        stale.transactionAuthor = "late"
        try stale.performAndWait { _ = try stale.existingObject(with: ids[0]) }
        try seed.performAndWait {
            seed.object(with: ids[0])["amount"] = .double(1)
            try seed.save()
        }
        // The stale context's save conflicts (error policy): its transaction, with the strings
        // it interned first, rolls back.
        stale.performAndWait {
            stale.object(with: ids[0])["note"] = "late"
            #expect(throws: ContextError.self) { try stale.save() }
            stale.rollback()
            stale.refresh(stale.object(with: ids[0]), mergeChanges: false)
        }
        #expect(try container.rows("SELECT count(*) FROM ATRANSACTIONSTRING WHERE ZNAME IN ('late', 'stale')") == 0)
        try stale.performAndWait {
            stale.object(with: ids[0])["note"] = "again"
            try stale.save()
        }
        let last = try history(stale, after: nil).last!
        #expect(last.author == "late" && last.contextName == "stale" && last.changes.count == 1)
    }

    @Test func aStoreWithHistoryOpenedWithoutTrackingIsReadOnly() throws {
        let path = NSTemporaryDirectory() + "ph-\(UUID().uuidString).sqlite"
        do {
            let tracked = try makeHistoryContainer(path: path)
            _ = try insertExpenses(tracked.newBackgroundContext(), ["a"])
        }
        let untracked = try makeHistoryContainer(path: path, history: false)
        #expect(untracked.persistentStoreCoordinator.isReadOnly)
        let context = untracked.newBackgroundContext()
        #expect(throws: StoreError.readOnlyWithoutHistory(path)) { _ = try insertExpenses(context, ["b"]) }
        #expect(throws: HistoryTrackingOff.self) { _ = try history(context, after: nil) }
        // Reading still works; the refused insert is still pending in the context (a count
        // includes it), not in the store.
        let count = try context.performAndWait { try context.count(for: FetchRequest(entityName: "Expense")) }
        #expect(count == 2)
        #expect(try untracked.rows("SELECT count(*) FROM ZEXPENSE") == 1)
    }

    @Test func aStoreWithoutHistoryGainsItFromTheFirstTrackedSave() throws {
        let path = NSTemporaryDirectory() + "ph-\(UUID().uuidString).sqlite"
        do {
            let untracked = try makeHistoryContainer(path: path, history: false)
            _ = try insertExpenses(untracked.newBackgroundContext(), ["a"])
            #expect(try untracked.rows("SELECT count(*) FROM sqlite_master WHERE name = 'ACHANGE'") == 0)
        }
        let tracked = try makeHistoryContainer(path: path)
        let context = tracked.newBackgroundContext()
        #expect(try history(context, after: nil).isEmpty)   // nothing before tracking began
        let later = try insertExpenses(context, ["b"])
        #expect(try history(context, after: nil).map { $0.changes.map(\.changedObjectID) } == [later])
        // Tables without rows do not make a later untracked open read-only… but rows do.
        let again = try makeHistoryContainer(path: path, history: false)
        #expect(again.persistentStoreCoordinator.isReadOnly)
    }

    @Test func mergingHistoryShowsWhatABatchInsertAddedToAResultsController() throws {
        let container = try makeHistoryContainer()
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let controller = try followingController(FetchRequest(entityName: "Expense"), in: view)
        let importer = container.newBackgroundContext()
        _ = try importer.performAndWait {
            try importer.execute(
                BatchInsertRequest(entityName: "Expense", objects: (0..<5).map { ["externalID": .string("k\($0)")] }))
        }
        // Automatic merges never see a batch insert: it posts no did-save notification.
        #expect(view.performAndWait { controller.count } == 0)
        try view.performAndWait {
            for transaction in try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil)).transactions {
                view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
            #expect(controller.count == 5)
            #expect(controller.fetchedObjects.allSatisfy { !$0.isFault })
        }
    }
}
