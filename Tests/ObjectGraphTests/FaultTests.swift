import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// What reads cost: a fault is a query unless something loaded its row already.
@Suite struct FaultTests {
    func categories(_ objects: [ManagedObject]) -> Int {
        Set(objects.compactMap { $0.object(forKey: "category")?.objectID }).count
    }

    @Test func touchingEachCategoryCostsAQueryPerUncachedCategory() throws {
        let container = try makeContainer()
        try seedExpenses(container.newBackgroundContext(), count: 300, categories: 37)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Expense")
            request.fetchLimit = 100
            request.sortDescriptors = [SortDescriptor(key: "externalID")]
            let before = container.counters.count(.select)
            let expenses = try context.fetch(request)
            #expect(expenses.count == 100)
            #expect(container.counters.count(.select) - before == 1)
            let distinct = categories(expenses)
            for e in expenses { _ = e.object(forKey: "category")!["name"] }
            #expect(container.counters.count(.select) - before == 1 + distinct)
            #expect(distinct == 37)
            // Touched again: cached, no more SQL.
            for e in expenses { _ = e.object(forKey: "category")!["name"] }
            #expect(container.counters.count(.select) - before == 1 + distinct)
        }
    }

    @Test func prefetchingCostsOneQueryInAll() throws {
        let container = try makeContainer()
        try seedExpenses(container.newBackgroundContext(), count: 300, categories: 37)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Expense")
            request.fetchLimit = 100
            request.relationshipKeyPathsForPrefetching = ["category"]
            let before = container.counters.count(.select)
            let expenses = try context.fetch(request)
            for e in expenses { _ = e.object(forKey: "category")!["name"] }
            #expect(container.counters.count(.select) - before == 2)
        }
    }

    @Test func countIsOneCountQuery() throws {
        let container = try makeContainer()
        try seedExpenses(container.newBackgroundContext(), count: 50, categories: 5)
        let context = container.newBackgroundContext()
        container.counters.startRecording()
        let n = try context.performAndWait {
            try context.count(for: FetchRequest(entityName: "Expense", predicate: try Predicate("amount >= %@", 10.0)))
        }
        let sql = container.counters.stopRecording().filter { !$0.hasPrefix("PRAGMA") }
        #expect(n == 40)
        #expect(sql == ["SELECT COUNT(*) FROM ZEXPENSE t0 WHERE  t0.ZAMOUNT >= ?"])
    }

    @Test func objectWithIsAFaultThatCostsOneQuery() throws {
        let container = try makeContainer()
        let ids = try seedExpenses(container.newBackgroundContext(), count: 10, categories: 2)
        let context = container.newBackgroundContext()
        context.performAndWait {
            let before = container.counters.count(.select)
            let e = context.object(with: ids[3])
            #expect(e.isFault)
            #expect(container.counters.count(.select) == before)
            #expect(e["externalID"] == "ex-3")
            #expect(!e.isFault)
            #expect(container.counters.count(.select) == before + 1)
            #expect(throws: ContextError.self) {
                _ = try context.existingObject(
                    with: ManagedObjectID(store: ids[0].store, entityID: ids[0].entityID, primaryKey: 999))
            }
        }
    }

    @Test func fetchBatchSizeLoadsABatchAtATime() throws {
        let container = try makeContainer()
        try seedExpenses(container.newBackgroundContext(), count: 95, categories: 1)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Expense")
            request.fetchBatchSize = 20
            let before = container.counters.count(.select)
            let all = try context.fetch(request)
            #expect(all.count == 95 && all.allSatisfy(\.isFault))
            for e in all { _ = e["amount"] }
            // One query for the keys, then one per batch of 20.
            #expect(container.counters.count(.select) - before == 1 + 5)
        }
    }

    @Test func toManyLoadsOnceAndFollowsInverse() throws {
        let container = try makeContainer()
        try seedExpenses(container.newBackgroundContext(), count: 30, categories: 3)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let cat = try context.fetch(FetchRequest(entityName: "Category", predicate: .equal("name", "cat-1")))[0]
            #expect(cat.objects(forKey: "expenses").count == 10)
            let e = try context.insertNewObject(forEntityName: "Expense")
            try e.setObject(cat, forKey: "category")
            #expect(cat.objects(forKey: "expenses").count == 11)
            try e.setObject(nil, forKey: "category")
            #expect(cat.objects(forKey: "expenses").count == 10)
        }
    }

    /// Members given to a to-many before it loads are kept aside and join it when it loads,
    /// unless by then they point elsewhere.
    @Test func membersAddedBeforeTheToManyLoadsJoinIt() throws {
        let container = try makeContainer()
        try seedExpenses(container.newBackgroundContext(), count: 30, categories: 3)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let cats = try context.fetch(
                FetchRequest(entityName: "Category", predicate: .in("name", ["cat-1", "cat-2"])))
            let (one, two) = cats[0]["name"] == "cat-1" ? (cats[0], cats[1]) : (cats[1], cats[0])
            let stays = try context.insertNewObject(forEntityName: "Expense")
            try stays.setObject(one, forKey: "category")
            let moves = try context.insertNewObject(forEntityName: "Expense")
            try moves.setObject(one, forKey: "category")
            try moves.setObject(two, forKey: "category")
            let dropped = try context.insertNewObject(forEntityName: "Expense")
            try dropped.setObject(one, forKey: "category")
            try dropped.setObject(nil, forKey: "category")
            let members = one.objects(forKey: "expenses")
            #expect(members.count == 11)
            #expect(members.contains(stays) && !members.contains(moves) && !members.contains(dropped))
            #expect(two.objects(forKey: "expenses").count == 11)
            #expect(two.objects(forKey: "expenses").contains(moves))
        }
    }

    @Test func predicatesParseAndMatchLikeSQL() throws {
        let container = try makeContainer()
        try seedExpenses(container.newBackgroundContext(), count: 40, categories: 4)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            func n(_ format: String, _ args: any PredicateArgument...) throws -> Int {
                try context.fetch(
                    FetchRequest(entityName: "Expense", predicate: Predicate(format: format, arguments: args))
                ).count
            }
            #expect(try n("amount < 10") == 10)
            #expect(try n("amount <= %@ AND NOT amount < %@", 20.0, 10.0) == 11)
            #expect(try n("externalID IN %@", PredicateList(["ex-1", "ex-2", "nope"])) == 2)
            #expect(try n("externalID IN {'ex-3', 'ex-4'} OR amount > 38") == 3)
            #expect(try n("note BEGINSWITH 'note 1'") == 11)
            #expect(try n("note != nil && externalID != 'ex-0'") == 39)
            #expect(try n("TRUEPREDICATE") == 40)
            let cat = try context.fetch(FetchRequest(entityName: "Category", predicate: .equal("name", "cat-2")))[0]
            #expect(try n("category == %@", cat) == 10)
            // Unsaved work counts: a new matching object joins, a deleted one leaves.
            let e = try context.insertNewObject(forEntityName: "Expense")
            e["amount"] = 5.5
            context.delete(
                try context.fetch(FetchRequest(entityName: "Expense", predicate: .equal("externalID", "ex-0")))[0])
            #expect(try n("amount < 10") == 10)
            #expect(throws: PredicateSyntaxError.self) { try Predicate("amount >> 3") }
            #expect(throws: PredicateSyntaxError.self) { try Predicate("amount == %@") }
            #expect(throws: ContextError.self) { _ = try n("price > 3") }
        }
    }
}
