import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// Fetches that include unsaved objects: correct, and linear in the number of them.
@Suite struct PendingChangesTests {
    func findOrCreate(_ key: String, in context: ManagedObjectContext, entity: Entity) throws -> ManagedObject {
        var request = FetchRequest(entityName: "Expense", predicate: .equal("externalID", key))
        request.fetchLimit = 1
        if let found = try context.fetch(request).first { return found }
        let e = context.insert(entity)
        e["externalID"] = .string(key)
        return e
    }

    /// 3,000 find-or-creates between two saves: each fetch judges the few unsaved objects with
    /// its key, not all of them. Scanning would judge about 4.5 million.
    @Test func findOrCreateBetweenSavesIsLinear() throws {
        let container = try makeContainer(BundledModels.expenses(key: .indexed))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let entity = try context.entity(named: "Expense")
            var next = 0
            for i in 0..<3_000 {
                // Every third record repeats the key before it: it must find that unsaved object.
                let key = i % 3 == 2 ? "k\(next - 1)" : "k\(next)"
                if i % 3 != 2 { next += 1 }
                _ = try findOrCreate(key, in: context, entity: entity)
            }
            #expect(context.pendingObjectsExamined < 4 * 3_000, "\(context.pendingObjectsExamined) examined")
            try context.save()
        }
        // 3,000 records, every third a repeat: 2,000 keys, each once.
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 2_000)
        #expect(try container.rows("SELECT count(DISTINCT ZEXTERNALID) FROM ZEXPENSE") == 2_000)
    }

    /// A key of two attributes (`externalID == x AND note == y`): the index narrows by one part and
    /// the whole predicate judges; linear as a key of one. A number compared with a number of
    /// another kind (5 against 5.0) is not filed: every unsaved object is judged, and it is found.
    @Test func aKeyOfSeveralAttributesIsLinearToo() throws {
        let container = try makeContainer(BundledModels.expenses(key: .indexed))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let entity = try context.entity(named: "Expense")
            for i in 0..<3_000 {
                let key = "k\(i / 2)"
                let source = "s\(i % 2)"
                var request = FetchRequest(
                    entityName: "Expense", predicate: .and([.equal("externalID", key), .equal("note", source)]))
                request.fetchLimit = 1
                #expect(try context.fetch(request).isEmpty, "\(key) \(source) is new")
                let e = context.insert(entity)
                e["externalID"] = .string(key)
                e["note"] = .string(source)
                e["amount"] = .double(Double(i))
            }
            #expect(context.pendingObjectsExamined < 4 * 3_000, "\(context.pendingObjectsExamined) examined")
            let twice = FetchRequest(
                entityName: "Expense", predicate: .and([.equal("externalID", "k7"), .equal("note", "s1")]))
            #expect(try context.fetch(twice).count == 1)
            let mixed = FetchRequest(entityName: "Expense", predicate: .equal("amount", 15))
            #expect(try context.fetch(mixed).count == 1, "amount 15.0 is found by the integer 15")
        }
    }

    /// An unsaved object whose key changes after the index filed it is found by its new key only.
    @Test func aChangedKeyMovesInTheIndex() throws {
        let container = try makeContainer(BundledModels.expenses(key: .indexed))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let entity = try context.entity(named: "Expense")
            for i in 0..<100 { _ = try findOrCreate("k\(i)", in: context, entity: entity) }
            let moved = try findOrCreate("k7", in: context, entity: entity)
            moved["externalID"] = "renamed"
            #expect(
                try context.fetch(FetchRequest(entityName: "Expense", predicate: .equal("externalID", "k7"))).isEmpty)
            #expect(
                try context.fetch(FetchRequest(entityName: "Expense", predicate: .equal("externalID", "renamed"))) == [
                    moved
                ])
            // Deleted and saved objects leave the pending results.
            context.delete(moved)
            #expect(
                try context.fetch(FetchRequest(entityName: "Expense", predicate: .equal("externalID", "renamed")))
                    .isEmpty)
            try context.save()
            #expect(
                try context.fetch(FetchRequest(entityName: "Expense", predicate: .equal("externalID", "k8"))).count == 1
            )
        }
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 99)
    }
}

/// The statement layer refuses to run with a parameter it could not bind.
@Suite struct StatementTests {
    @Test func aRefusedBindFailsTheStepAndWritesNothing() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (a INTEGER)")
        let insert = try db.prepare("INSERT INTO t (a) VALUES (?)")
        insert.bind(1, at: 1)
        try insert.run()
        insert.bind(2, at: 2)   // there is no parameter 2: SQLITE_RANGE
        #expect {
            try insert.run()
        } throws: { error in
            (error as? SQLiteError)?.code == .range && "\(error)".contains("parameter 2")
        }
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 1)
        insert.bind(3, at: 1)
        try insert.run()   // usable again once bound right
        #expect(try db.scalarInt("SELECT sum(a) FROM t") == 4)
    }

    @Test func resultCodesAreTyped() {
        #expect(ResultCode.lockedSharedCache.primary == .locked)
        #expect(ResultCode.lockedSharedCache.rawValue == 262)
        #expect(ResultCode.busy.description.contains("locked"))
    }

    /// Taking the store's writer from inside its own transaction would deadlock: it traps with
    /// a message that says what happened.
    @Test func reenteringTheWriterTrapsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try makeContainer()
            try container.persistentStoreCoordinator.performWrite { _ in
                try container.persistentStoreCoordinator.performWrite { _ in }
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("performWrite inside performWrite"))
    }
}
