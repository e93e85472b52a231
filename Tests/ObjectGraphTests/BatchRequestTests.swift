import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// Batch update and batch delete: one statement in the store, IDs back, merged on request.
@Suite struct BatchRequestTests {
    /// Ten expenses in two categories, all registered in a viewer (the screen a merge must
    /// reach), and a worker context for the request.
    func watchedStore() throws -> (
        PersistentContainer, [ManagedObjectID], viewer: ManagedObjectContext, worker: ManagedObjectContext
    ) {
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
            var request = BatchUpdateRequest(
                entityName: "Expense", predicate: try Predicate(format: "amount < %@", arguments: [4.0]),
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
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: .init(updated: result.objectIDs), into: [viewer])
        let after = try viewer.performAndWait {
            (try viewer.existingObject(with: ids[0])["note"], try viewer.existingObject(with: ids[5])["note"])
        }
        #expect(after == ("updated", "note 5"))
    }

    @Test func batchDeleteRemovesTheRowsAndTheMergeForgetsThem() throws {
        let (container, ids, viewer, worker) = try watchedStore()
        container.counters.startRecording()
        let result = try worker.performAndWait {
            var request = BatchDeleteRequest(
                entityName: "Expense", predicate: try Predicate(format: "amount >= %@", arguments: [7.0]))
            request.resultType = .objectIDs
            return try worker.execute(request)
        }
        let sql = container.counters.stopRecording()
        #expect(sql.filter { $0.hasPrefix("DELETE") }.count == 1)
        #expect(Set(result.objectIDs) == Set(ids.suffix(3)))
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 7)
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: .init(deleted: result.objectIDs), into: [viewer])
        let registered = viewer.performAndWait { viewer.registeredObjectCount }
        #expect(registered == 7 + 2)   // 7 expenses and their 2 categories
    }
}
