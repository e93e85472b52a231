import Testing

@testable import ObjectGraph

/// The coordinator's row cache (Core Data's `NSPersistentStoreCache`): saves and fetches put
/// rows there, a fault looks there before it queries, and a row lives while a context holds it.
@Suite struct RowCacheTests {
    /// The writer still holds the rows it saved: another context's faults are filled from the
    /// cache, with no query at all, and see the saved values.
    @Test func aFaultOfARowAnotherContextHoldsIssuesNoQuery() throws {
        let container = try makeContainer()
        let writer = container.newBackgroundContext()
        let ids = try seedExpenses(writer, count: 3, categories: 1)
        let reader = container.newBackgroundContext()
        container.counters.startRecording()
        let amounts = reader.performAndWait { ids.map { reader.object(with: $0)["amount"] } }
        #expect(container.counters.stopRecording() == [])
        #expect(amounts == [.double(0), .double(1), .double(2)])
        #expect(reader.performAndWait { reader.rowCacheHits } == 3)
    }

    /// Once no context holds a row it is gone from the cache: the writer reset, so a fault
    /// costs its query again (and its row is cached while the reader holds it).
    @Test func aRowNobodyHoldsIsReleasedAndItsFaultQueriesTheStore() throws {
        let container = try makeContainer()
        let writer = container.newBackgroundContext()
        let ids = try seedExpenses(writer, count: 2, categories: 1)
        #expect(container.persistentStoreCoordinator.rowCache.count == 3)
        writer.performAndWait { writer.reset() }
        #expect(container.persistentStoreCoordinator.rowCache.count == 0)
        let reader = container.newBackgroundContext()
        container.counters.startRecording()
        _ = reader.performAndWait { reader.object(with: ids[0])["amount"] }
        // (The reader connection's pragmas come first: no other connection was open to read.)
        #expect(
            container.counters.stopRecording().filter { !$0.hasPrefix("PRAGMA") } == [
                "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCATEGORY, t0.ZAMOUNT, t0.ZDATE, t0.ZEXTERNALID, t0.ZNOTE FROM ZEXPENSE t0 WHERE  t0.Z_PK = ?"
            ])
        #expect(reader.performAndWait { reader.rowCacheHits } == 0)
        #expect(container.persistentStoreCoordinator.rowCache.count == 1)
    }

    /// A fetch caches every row it read: a second context's faults of them cost nothing, and
    /// an update saved by the fetching context is what the second one sees.
    @Test func fetchedRowsAreCachedAndASavedUpdateReplacesThem() throws {
        let container = try makeContainer()
        let ids = try seedExpenses(container.newBackgroundContext(), count: 4, categories: 2)   // released at its end
        let fetcher = container.newBackgroundContext()
        try fetcher.performAndWait {
            let all = try fetcher.fetch(FetchRequest(entityName: "Expense"))
            all[0]["amount"] = .double(42)
            try fetcher.save()
        }
        let reader = container.newBackgroundContext()
        container.counters.startRecording()
        let first = reader.performAndWait { reader.object(with: ids[0])["amount"] }
        #expect(container.counters.stopRecording() == [])
        #expect(first == .double(42))
    }

    /// A deleted row leaves the cache with the save that deleted it, whoever else held it.
    @Test func aSavedDeleteForgetsTheRow() throws {
        let container = try makeContainer()
        let writer = container.newBackgroundContext()
        let ids = try seedExpenses(writer, count: 2, categories: 1)
        let holder = container.newBackgroundContext()
        _ = holder.performAndWait { holder.object(with: ids[0])["amount"] }
        try writer.performAndWait {
            writer.delete(writer.object(with: ids[0]))
            try writer.save()
        }
        #expect(container.persistentStoreCoordinator.rowCache.row(for: ids[0]) == nil)
        #expect(container.persistentStoreCoordinator.rowCache.row(for: ids[1]) != nil)
    }

    /// Batch requests change rows behind the contexts: the cache is emptied, and the next fault
    /// reads the store's row.
    @Test func aBatchUpdateEmptiesTheCache() throws {
        let container = try makeContainer()
        let writer = container.newBackgroundContext()
        let ids = try seedExpenses(writer, count: 2, categories: 1)
        _ = try writer.performAndWait {
            try writer.execute(
                BatchUpdateRequest(entityName: "Expense", predicate: nil, propertiesToUpdate: ["amount": .double(7)]))
        }
        #expect(container.persistentStoreCoordinator.rowCache.count == 0)
        let reader = container.newBackgroundContext()
        #expect(reader.performAndWait { reader.object(with: ids[1])["amount"] } == .double(7))
    }
}
