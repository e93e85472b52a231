import Foundation
import Testing

@testable import ObjectGraph

/// The object layer Core Data pays per object beside SQL (issue 43), counted exactly: each test
/// pins how often the work is done, never how long it takes.
@Suite struct ObjectLayerTests {
    /// A store holding `n` expenses, and a fresh context on it.
    func filled(_ n: Int) throws -> (PersistentContainer, ManagedObjectContext) {
        let container = try makeContainer()
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            for i in 0..<n {
                let e = try writer.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string("ex-\(i)")
            }
            try writer.save()
        }
        return (container, container.newBackgroundContext())
    }

    /// Counts the objects-did-change notifications `context` posts, by key.
    final class ChangeObserver: @unchecked Sendable {
        // Touched only by the posting context's queue (NotificationCenter calls the block on the
        // poster's thread) and read after that context's block has returned.
        private(set) var posts: [[String: Int]] = []
        private var token: NSObjectProtocol?

        init(_ context: ManagedObjectContext) {
            token = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.objectsDidChange, object: context, queue: nil
            ) {
                [unowned self] note in
                let info = note.userInfo ?? [:]
                var counts: [String: Int] = [:]
                for (key, value) in info { counts["\(key)"] = (value as? Set<ManagedObject>)?.count ?? -1 }
                self.posts.append(counts)
            }
        }

        deinit { if let token { NotificationCenter.default.removeObserver(token) } }
    }

    /// A save of N updated objects posts one objects-did-change notification naming the N.
    @Test func aSaveOfNUpdatesPostsOneNotificationNamingThem() throws {
        let (_, context) = try filled(5)
        let observer = ChangeObserver(context)
        try context.performAndWait {
            let all = try context.fetch(FetchRequest(entityName: "Expense"))
            for e in all { e["note"] = .string("changed") }
            let before = context.objectWork
            try context.save()
            #expect(context.objectWork.changeNotifications - before.changeNotifications == 1)
            #expect(context.objectWork.objectsInChangeNotifications - before.objectsInChangeNotifications == 5)
        }
        #expect(observer.posts == [["updated": 5]], "\(observer.posts)")
    }

    /// The save's validation loop: one pass validates every saved object once and sends each
    /// `willSave`, the changes are processed again (nothing new: the loop ends), and each gets
    /// `didSave` after the commit. A category that gained members is an updated object too.
    @Test func aSaveValidatesUntilCleanAndTellsEachObject() throws {
        let (_, context) = try filled(5)
        try context.performAndWait {
            for e in try context.fetch(FetchRequest(entityName: "Expense")) { e["note"] = .string("changed") }
            let before = context.objectWork
            try context.save()
            let w = context.objectWork
            #expect(w.validationPasses - before.validationPasses == 1 && w.validated - before.validated == 5)
            #expect(w.willSave - before.willSave == 5 && w.didSave - before.didSave == 5)
            let c = try context.insertNewObject(forEntityName: "Category")
            for i in 0..<3 {
                let e = try context.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string("more-\(i)")
                try e.setObject(c, forKey: "category")
            }
            try context.save()
            #expect(context.objectWork.validated - w.validated == 4 && context.objectWork.didSave - w.didSave == 4)
            #expect(context.objectWork.validationPasses - w.validationPasses == 1)
        }
    }

    /// One snapshot per object at its first change, none again until the save clears it: N
    /// updated objects take N, whatever else changes; an insert takes one; a category that only
    /// gains a member takes one too. `committedValues(forKeys:)` reads it.
    @Test func anObjectIsSnapshottedOnceAtItsFirstChange() throws {
        let (_, context) = try filled(5)
        try context.performAndWait {
            let all = try context.fetch(FetchRequest(entityName: "Expense"))
            let stored = all[0].committedValues(forKeys: ["note", "amount"])
            for e in all {
                e["note"] = .string("one")
                e["note"] = .string("two")
                e["amount"] = .double(1)
            }
            #expect(context.objectWork.snapshots == 5)
            #expect(
                all[0].committedValues(forKeys: ["note", "amount"]) == stored && stored["note"] != .string("two"),
                "\(stored)")
            try context.save()
            #expect(all[0].committedValues(forKeys: ["note"]) == ["note": .string("two")])
            all[0]["note"] = .string("three")
            #expect(context.objectWork.snapshots == 6)
            let c = try context.insertNewObject(forEntityName: "Category")
            #expect(context.objectWork.snapshots == 7)
            try context.save()
            try all[1].setObject(c, forKey: "category")   // the expense and the category each change
            #expect(context.objectWork.snapshots == 9)
        }
    }

    /// A save builds one row per object it writes, inserted or updated, and binds from it; the
    /// row cache then holds that row at the version written.
    @Test func aSaveBuildsARowPerObjectItWrites() throws {
        let (container, context) = try filled(5)
        try context.performAndWait {
            let all = try context.fetch(FetchRequest(entityName: "Expense"))
            for e in all { e["note"] = .string("changed") }
            _ = try context.insertNewObject(forEntityName: "Expense")
            let before = context.objectWork.rowsPopulated
            try context.save()
            #expect(context.objectWork.rowsPopulated - before == 6)
            let cached = container.persistentStoreCoordinator.rowCache.row(for: all[0].objectID)
            #expect(cached?.version == 2 && cached?.values == all[0].values, "\(String(describing: cached))")
        }
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE WHERE ZNOTE = 'changed' AND Z_OPT = 2") == 5)
    }

    /// An insert is registered by its temporary ID (found by it at once) and moved to its
    /// permanent ID by the save; a deleted insert leaves the table.
    @Test func anInsertIsRegisteredByItsTemporaryIDUntilTheSave() throws {
        let (_, context) = try filled(0)
        try context.performAndWait {
            let e = try context.insertNewObject(forEntityName: "Expense")
            let gone = try context.insertNewObject(forEntityName: "Expense")
            let temporary = e.objectID
            #expect(
                context.temporaryRegistry.count == 2 && context.object(with: temporary) === e
                    && context.registeredObjectCount == 2)
            context.delete(gone)
            try context.save()
            #expect(
                context.temporaryRegistry.isEmpty && context.registry[e.objectID] === e
                    && context.registeredObjectCount == 1)
        }
    }

    /// An observed attribute tells its observer the old and new value of each set; others and
    /// other objects tell nobody.
    @Test func anObservedAttributeTellsItsObserver() throws {
        let (_, context) = try filled(2)
        try context.performAndWait {
            let all = try context.fetch(FetchRequest(entityName: "Expense"))
            var seen: [(Value, Value)] = []
            let token = all[0].addObserver(forKey: "note") { old, new in seen.append((old, new)) }
            all[0]["note"] = .string("a")
            all[0]["note"] = .string("b")
            all[0]["amount"] = .double(2)
            all[1]["note"] = .string("c")
            all[0].removeObserver(token)
            all[0]["note"] = .string("d")
            #expect(seen.map(\.1) == [.string("a"), .string("b")] && seen[1].0 == .string("a"))
            #expect(context.objectWork.observerNotifications == 2)
        }
    }

    /// A fetch of N rows makes N objects, each registered once and woken from fetch once; a
    /// fault filled later is woken when filled; an insert is woken from insert.
    @Test func aFetchOfNRowsMakesNObjects() throws {
        let (_, context) = try filled(6)
        try context.performAndWait {
            let all = try context.fetch(FetchRequest(entityName: "Expense"))
            #expect(all.count == 6 && context.registeredObjectCount == 6 && context.objectWork.awakeFromFetch == 6)
            _ = try context.fetch(FetchRequest(entityName: "Expense"))
            #expect(context.registeredObjectCount == 6, "the same rows are the same objects")
            _ = try context.insertNewObject(forEntityName: "Expense")
            #expect(context.objectWork.awakeFromInsert == 1)
        }
    }

    /// A keys-first fetch (`fetchBatchSize`) holds IDs until a batch is touched, as Core Data's
    /// `_PFBatchFaultingArray` does: walking all N rows counts N objects, not 2N (issue 54, item 7).
    @Test func aKeysFirstFetchCountsOneObjectPerRow() throws {
        let (_, context) = try filled(50)
        try context.performAndWait {
            var request = FetchRequest(entityName: "Expense")
            request.fetchBatchSize = 20
            let all = try context.fetch(request)
            #expect(context.objectWork.fetched == 0, "the keys make no object with values")
            for o in all { _ = o.value(forKey: "externalID") }
            #expect(context.objectWork.fetched + context.objectWork.faulted == 50, "\(context.objectWork)")
            #expect(context.objectWork.objects == 50)
        }
    }

    /// Every save posts its did-save notifications, listened to or not: the saved objects and
    /// their IDs in sets under their keys.
    @Test func aSavePostsItsObjectsAndTheirIDs() throws {
        let (_, context) = try filled(4)
        // written on the saving queue, read after
        final class Box: @unchecked Sendable { var ids: [String: Int] = [:] }
        let box = Box()
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectIDs, object: context, queue: nil
        ) { note in
            for (key, value) in note.userInfo ?? [:] {
                box.ids["\(key)"] = (value as? Set<ManagedObjectID>)?.count ?? -1
            }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try context.performAndWait {
            let all = try context.fetch(FetchRequest(entityName: "Expense"))
            for e in all.dropFirst() { e["note"] = .string("changed") }
            context.delete(all[0])
            _ = try context.insertNewObject(forEntityName: "Expense")
            let before = context.objectWork
            try context.save()
            #expect(context.objectWork.saveNotifications - before.saveNotifications == 1)
            #expect(context.objectWork.objectsInSaveNotifications - before.objectsInSaveNotifications == 5)
        }
        #expect(box.ids == ["inserted_objectIDs": 1, "updated_objectIDs": 3, "deleted_objectIDs": 1], "\(box.ids)")
    }

    /// A fetch that includes pending changes coalesces inserts and updates (no processing, as
    /// `_attemptCoalesceChangesForFetch` allows), so a find-or-create that fetches per record
    /// posts nothing until its save names every new object; a pending delete makes the fetch
    /// process first.
    @Test func aFetchProcessesPendingChangesOnlyWhenADeleteIsPending() throws {
        let (_, context) = try filled(1)
        let observer = ChangeObserver(context)
        try context.performAndWait {
            for i in 0..<3 {
                var request = FetchRequest(entityName: "Expense", predicate: .equal("externalID", "new-\(i)"))
                request.fetchLimit = 1
                #expect(try context.fetch(request).isEmpty)
                let e = try context.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string("new-\(i)")
            }
            #expect(context.objectWork.changeNotifications == 0)
            try context.save()
            #expect(context.objectWork.changeNotifications == 1 && context.objectWork.objectsInChangeNotifications == 3)
            let old = try context.fetch(FetchRequest(entityName: "Expense", predicate: .equal("externalID", "ex-0")))
            context.delete(old[0])
            _ = try context.fetch(FetchRequest(entityName: "Expense"))
            #expect(context.objectWork.changeNotifications == 2)
        }
        #expect(observer.posts == [["inserted": 3], ["deleted": 1]], "\(observer.posts)")
    }

    /// Reset and rollback post nothing of what they discard.
    @Test func discardedChangesAreNotPosted() throws {
        let (_, context) = try filled(2)
        try context.performAndWait {
            for e in try context.fetch(FetchRequest(entityName: "Expense")) { e["note"] = .string("x") }
            context.rollback()
            _ = try context.insertNewObject(forEntityName: "Expense")
            context.reset()
            #expect(!context.processPendingChanges())
            #expect(context.objectWork.changeNotifications == 0)
        }
    }

    /// Issue 43, item 2: a merge does what `_coreMergeChangesFromDidSaveDictionary:` does per
    /// object. Of 6 objects a view holds (4 loaded, 2 faults), 5 are updated by another context:
    /// the 4 loaded ones are refreshed (the unchanged turned into faults, the one with changes of
    /// its own keeping them), the fault is left; each inserted ID gets an object, let go when
    /// nothing holds it; the merge names what it inserted and refreshed in one notification, and
    /// a results controller sorted by `externalID` takes a move, the inserts and the updates.
    @Test func aMergeRefreshesWhatTheViewHoldsAndPostsWhatItDid() throws {
        let (container, writer) = try filled(6)
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        var request = FetchRequest(entityName: "Expense")
        request.sortDescriptors = [SortDescriptor(key: "externalID")]
        let controller = try followingController(request, in: view)
        let edited = view.performAndWait { () -> ManagedObject in
            let all = controller.fetchedObjects
            for o in all.suffix(2) { view.refresh(o, mergeChanges: false) }   // two of them faults again
            all[1]["note"] = "mine"
            return all[1]
        }
        let observer = ChangeObserver(view)
        let before = view.performAndWait { view.objectWork }
        try writer.performAndWait {
            for e in try writer.fetch(FetchRequest(entityName: "Expense")).prefix(5) { e["amount"] = 7 }
            try writer.fetch(FetchRequest(entityName: "Expense", predicate: .equal("externalID", "ex-0")))[0][
                "externalID"] = "ex-9"
            for i in 0..<2 { try writer.insertNewObject(forEntityName: "Expense")["externalID"] = .string("new-\(i)") }
            try writer.save()
        }
        view.performAndWait {   // after the merge queued by the save
            #expect(view.objectWork.refreshed - before.refreshed == 4)
            #expect(edited["note"] == "mine" && edited["amount"] != .null)
            #expect(
                controller.fetchedObjects.map { $0["externalID"] }
                    == ["ex-1", "ex-2", "ex-3", "ex-4", "ex-5", "ex-9", "new-0", "new-1"].map { Value.string($0) })
            #expect(controller.index(of: edited) == 0)
        }
        #expect(observer.posts == [["inserted": 2, "refreshed": 4]], "\(observer.posts)")
        // ex-0 → ex-9 moved, new-0 and new-1 inserted, 3 loaded ones updated in place (the fault
        // among the 5 was left a fault: not judged).
        #expect(view.performAndWait { controller.reportedChanges } == 1 + 2 + 3)
    }

    /// `ObjectWork`'s sum and difference are written field by field (for speed): a field added
    /// must be added there too. Every field of a sum of ones is 2.
    @Test func objectWorkAddsEveryCount() {
        #expect(
            Mirror(reflecting: ObjectWork()).children.count == 17,
            "a count was added to ObjectWork: add it to ObjectWork.combine and to this test")
        var one = ObjectWork()
        one.changeNotifications = 1
        one.objectsInChangeNotifications = 1
        one.validated = 1
        one.validationPasses = 1
        one.awakeFromInsert = 1
        one.awakeFromFetch = 1
        one.fetched = 1
        one.faulted = 1
        one.willSave = 1
        one.didSave = 1
        one.rowsPopulated = 1
        one.snapshots = 1
        one.observerNotifications = 1
        one.refreshed = 1
        one.saveNotifications = 1
        one.objectsInSaveNotifications = 1
        one.removed = 1
        #expect(Mirror(reflecting: one + one).children.allSatisfy { $0.value as? Int == 2 })
        #expect(one + one - one == one)
    }

    /// A merged insert a screen keeps may point at another insert of the same save that nothing
    /// else holds (a new expense in a new category): that one stays registered, a usable fault,
    /// while inserts nothing holds are let go.
    @Test func aKeptInsertKeepsTheInsertItPointsAt() throws {
        let container = try makeContainer()
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let controller = try followingController(FetchRequest(entityName: "Expense"), in: view)
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            let category = try writer.insertNewObject(forEntityName: "Category")
            category["name"] = "Travel"
            let unused = try writer.insertNewObject(forEntityName: "Category")
            unused["name"] = "Unused"
            let e = try writer.insertNewObject(forEntityName: "Expense")
            e["externalID"] = "ex-new"
            try e.setObject(category, forKey: "category")
            try writer.save()
        }
        view.performAndWait {
            let shown = controller.fetchedObjects
            #expect(shown.count == 1)
            let category = shown.first?.object(forKey: "category")
            #expect(category?.managedObjectContext === view && category?["name"] == "Travel")
            #expect(view.registeredObjectCount == 2, "the expense and its category; the unused category was let go")
        }
    }
}
