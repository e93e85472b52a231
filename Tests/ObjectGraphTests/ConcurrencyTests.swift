import Foundation
import Host
import Report
import SQLiteKit
import Testing

@testable import ObjectGraph

@Suite struct ConcurrencyTests {
    @Test func eightContextsSavingAtOnceLoseNothing() async throws {
        let container = try makeContainer()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                let context = container.newBackgroundContext(name: "writer-\(writer)")
                group.addTask {
                    try? await context.perform {
                        let entity = try context.entity(named: "Expense")
                        for i in 0..<1_000 {
                            let e = context.insert(entity)
                            e["externalID"] = .string("w\(writer)-\(i)")
                            if i % 100 == 99 { try context.save() }
                        }
                    }
                }
            }
        }
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 8_000)
        #expect(try container.rows("SELECT count(DISTINCT Z_PK) FROM ZEXPENSE") == 8_000)
        #expect(try container.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Expense'") == 8_000)
    }

    @Test func aSecondCoordinatorMeetsBusyAndRetries() throws {
        let first = try makeContainer()
        let second = try PersistentContainer(
            model: first.persistentStoreCoordinator.model,
            options: StoreOptions(path: first.path))
        let holding = DispatchSemaphore(value: 0)
        let holder = Thread {
            // The first coordinator's writer holds the write lock until the second coordinator
            // has met it (an event, not a time: its busy handler counts the retry).
            try? first.persistentStoreCoordinator.performWrite { _ in
                holding.signal()
                while second.persistentStoreCoordinator.busyRetries == 0 { usleep(1_000) }
            }
        }
        holder.start()
        holding.wait()
        let context = second.newBackgroundContext()
        try context.performAndWait {
            let e = try context.insertNewObject(forEntityName: "Expense")
            e["externalID"] = "after the lock"
            try context.save()
        }
        #expect(second.persistentStoreCoordinator.busyRetries > 0)
        #expect(try second.rows("SELECT count(*) FROM ZEXPENSE") == 1)
    }

    /// In a process of its own, so that other tests' allocations do not count.
    @Test func resetForgetsEverythingAndTheHeapComesBack() async {
        await #expect(processExitsWith: .success) {
            Heap.useSingleArenaForMeasurement()
            let container = try makeContainer()
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let expense = try context.entity(named: "Expense")
                let category = try context.entity(named: "Category")
                // Warm up caches (statements, dictionaries) so they do not count as growth.
                _ = context.insert(expense)
                try context.save()
                context.reset()
                let before = Heap.allocatedBytes(flushingThreadCache: true)
                let sqliteBefore = Database.memoryUsed
                let c = context.insert(category)
                c["name"] = "big"
                for i in 0..<100_000 {
                    let e = context.insert(expense)
                    e["externalID"] = .string("external-id-\(i)")
                    e["note"] = .string("a note long enough to need the heap #\(i)")
                    try e.setObject(c, forKey: "category")
                }
                try context.save()
                let during = Heap.allocatedBytes(flushingThreadCache: true)
                guard context.registeredObjectCount == 100_001, during - before > 20_000_000 else { exit(3) }
                context.reset()
                // SQLite's page cache grew with the big transaction; that memory is SQLite's, not the graph's.
                let after = Heap.allocatedBytes(flushingThreadCache: true) - (Database.memoryUsed - sqliteBefore)
                guard context.registeredObjectCount == 0, after - before < 500_000 else { exit(4) }
            }
        }
    }

    @Test func wrongQueueAccessTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ConcurrencyDebug.isEnabled = true
            let container = try makeContainer()
            let context = container.newBackgroundContext(name: "writer")
            _ = try context.insertNewObject(forEntityName: "Expense")   // not inside perform
        }
        // The trap, not any failure: it names the violation and the context.
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("CoreData concurrency violation") && stderr.contains("'writer'"))
    }

    @Test func insidePerformIsFine() throws {
        let container = try makeContainer()
        let context = container.newBackgroundContext(name: "writer")
        try context.performAndWait { _ = try context.insertNewObject(forEntityName: "Expense") }
        let nested = context.performAndWait { context.performAndWait { context.hasChanges } }
        #expect(nested)
    }
}
