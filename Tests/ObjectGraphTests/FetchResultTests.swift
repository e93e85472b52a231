import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// Read tuning (issue 30): what each kind of fetch asks of the store, statement by statement,
/// and what it leaves in the context.
@Suite struct FetchResultTests {
    /// Records the statements `body` issues (PRAGMAs aside).
    func recorded(_ container: PersistentContainer, _ body: () throws -> Void) rethrows -> [String] {
        container.counters.startRecording()
        try body()
        return container.counters.stopRecording().filter { !$0.hasPrefix("PRAGMA") }
    }

    /// `propertiesToFetch` with managed objects: only the named columns; the objects are faults
    /// holding them (read without SQL, nothing registered as filled); another attribute fires
    /// the fault, one query for that object's whole row, and then it is an object like any other.
    @Test func propertiesToFetchReadsOnlyTheNamedColumns() throws {
        let container = try makeContainer()
        try seedExpenses(container.newBackgroundContext(), count: 20, categories: 4)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Expense")
            request.propertiesToFetch = ["note", "category"]
            request.sortDescriptors = [SortDescriptor(key: "amount")]
            var expenses: [ManagedObject] = []
            let fetch = try recorded(container) { expenses = try context.fetch(request) }
            #expect(
                fetch == ["SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNOTE, t0.ZCATEGORY FROM ZEXPENSE t0 ORDER BY t0.ZAMOUNT"])
            let shown = recorded(container) {
                for e in expenses {
                    _ = e["note"]
                    _ = e.object(forKey: "category")?.objectID
                }
            }
            #expect(shown.isEmpty && expenses.allSatisfy(\.isFault) && context.materializedObjectCount == 0)
            #expect(expenses[3]["note"] == "note 3" && expenses[3].object(forKey: "category")?.objectID.primaryKey == 4)
            var externalID = Value.null
            let touched = recorded(container) { externalID = expenses[3]["externalID"] }
            #expect(externalID == "ex-3")
            #expect(touched.count == 1 && touched[0].hasSuffix("FROM ZEXPENSE t0 WHERE  t0.Z_PK = ?"), "\(touched)")
            #expect(!expenses[3].isFault && expenses[3]["note"] == "note 3" && context.materializedObjectCount == 1)
            // Refreshed, a pre-populated fault forgets what it held: the next read is the store's.
            context.refresh(expenses[4], mergeChanges: false)
            let reread = recorded(container) { _ = expenses[4]["note"] }
            #expect(reread.count == 1 && reread[0].hasSuffix("FROM ZEXPENSE t0 WHERE  t0.Z_PK = ?"), "\(reread)")
        }
    }

    /// `includesPropertyValues = false`: keys only, faults not in the row cache: each touched
    /// object is a query of its own (Apple: "goes back to the store a second time").
    @Test func withoutPropertyValuesEachTouchIsAQuery() throws {
        let container = try makeContainer()
        try seedExpenses(container.newBackgroundContext(), count: 10, categories: 2)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Expense")
            request.includesPropertyValues = false
            var expenses: [ManagedObject] = []
            let fetch = try recorded(container) { expenses = try context.fetch(request) }
            #expect(fetch == ["SELECT 0, t0.Z_PK FROM ZEXPENSE t0"])
            let touched = recorded(container) { for e in expenses { _ = e["note"] } }
            #expect(touched.count == 10 && touched.allSatisfy { $0.hasSuffix("FROM ZEXPENSE t0 WHERE  t0.Z_PK = ?") })
        }
    }

    /// `.managedObjectIDResultType`: `SELECT 0, t0.Z_PK`, no object registered; `fetchLimit`
    /// and `fetchOffset` page it (`LIMIT … OFFSET …`), and an offset alone reads to the end.
    @Test func objectIDsAndPages() throws {
        let container = try makeContainer()
        let seeded = try seedExpenses(container.newBackgroundContext(), count: 25, categories: 3)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Expense")
            request.sortDescriptors = [SortDescriptor(key: "externalID", ascending: false)]
            var all: [ManagedObjectID] = []
            let ids = try recorded(container) { all = try context.fetchObjectIDs(request) }
            #expect(ids == ["SELECT 0, t0.Z_PK FROM ZEXPENSE t0 ORDER BY t0.ZEXTERNALID DESC"])
            #expect(Set(all) == Set(seeded) && context.registeredObjectCount == 0)
            request.fetchLimit = 10
            request.fetchOffset = 20
            var page: [ManagedObject] = []
            let paged = try recorded(container) { page = try context.fetch(request) }
            #expect(paged.first?.hasSuffix("ORDER BY t0.ZEXTERNALID DESC LIMIT 10 OFFSET 20") == true, "\(paged)")
            #expect(page.map(\.objectID) == Array(all[20...]))
            request.fetchLimit = 0
            let rest = try recorded(container) { _ = try context.fetchObjectIDs(request) }
            #expect(rest == ["SELECT 0, t0.Z_PK FROM ZEXPENSE t0 ORDER BY t0.ZEXTERNALID DESC LIMIT -1 OFFSET 20"])
        }
    }

    /// A page with unsaved inserts: the offset and limit apply to the store's rows and the
    /// context's together, as the fetch returns them.
    @Test func aPageSeesTheContextsUnsavedObjects() throws {
        let container = try makeContainer()
        try seedExpenses(container.newBackgroundContext(), count: 5, categories: 1)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let e = context.insert(try context.entity(named: "Expense"))
            e["externalID"] = "ex-0a"
            var request = FetchRequest(entityName: "Expense")
            request.sortDescriptors = [SortDescriptor(key: "externalID")]
            request.fetchOffset = 1
            request.fetchLimit = 2
            #expect(try context.fetch(request).map { $0["externalID"] } == ["ex-0a", "ex-1"])
        }
    }

    /// `.dictionaryResultType` with a to-one's key path: one LEFT OUTER JOIN per relationship,
    /// keys as named, a null for a record without a related object; no object registered.
    @Test func dictionariesJoinTheRelatedTable() throws {
        let container = try makeContainer()
        try seedExpenses(container.newBackgroundContext(), count: 6, categories: 2)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let lone = context.insert(try context.entity(named: "Expense"))
            lone["externalID"] = "lone"
            lone["amount"] = .double(0.5)
            try context.save()
            context.reset()
            var request = FetchRequest(entityName: "Expense", predicate: try Predicate("amount < %@", 3.0))
            request.propertiesToFetch = ["externalID", "category.name", "note"]
            request.sortDescriptors = [SortDescriptor(key: "externalID")]
            var rows: [[String: Value]] = []
            let select = try recorded(container) { rows = try context.fetchDictionaries(request) }
            #expect(
                select == [
                    "SELECT t0.ZEXTERNALID, t1.ZNAME, t0.ZNOTE FROM ZEXPENSE t0 LEFT OUTER JOIN ZCATEGORY t1 "
                        + "ON t0.ZCATEGORY = t1.Z_PK WHERE t0.ZAMOUNT < ? ORDER BY t0.ZEXTERNALID"
                ])
            #expect(rows.map { $0["externalID"] } == ["ex-0", "ex-1", "ex-2", "lone"])
            #expect(
                rows.map { $0["category.name"] } == ["cat-0", "cat-1", "cat-0", .null] && rows[1]["note"] == "note 1")
            #expect(context.registeredObjectCount == 0)
            request.propertiesToFetch = ["category.colour"]
            #expect(throws: ContextError.self) { try context.fetchDictionaries(request) }
        }
    }
}
