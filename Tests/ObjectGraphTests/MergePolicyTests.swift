import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// Two contexts change the same object; the second save meets the conflict.
@Suite struct MergePolicyTests {
    struct Outcome {
        var threw: Error?
        var storeAmount: Double
        var storeNote: String
        var contextAmount: Value
        var contextStillHasChanges: Bool
        var conflicts: Int
        var id: ManagedObjectID
    }

    /// A saves amount = 1; then B (which read the object before A saved) saves amount = 2 and
    /// note = "B's note" under `policy`.
    func race(_ policy: MergePolicy) throws -> Outcome {
        let two = try ReadByTwo(policy: policy) { $0["amount"] = .double(1) }
        let (container, id, b) = (two.container, two.id, two.b)
        var outcome = Outcome(
            threw: nil, storeAmount: 0, storeNote: "", contextAmount: .null, contextStillHasChanges: false,
            conflicts: 0, id: id)
        try b.performAndWait {
            let e = try b.existingObject(with: id)
            e["amount"] = .double(2)
            e["note"] = "B's note"
            do { try b.save() } catch { outcome.threw = error }
            outcome.contextAmount = e["amount"]
            outcome.contextStillHasChanges = b.hasChanges
            outcome.conflicts = b.conflictCount
        }
        let db = try Database(path: container.path)
        let s = try db.prepare("SELECT ZAMOUNT, ZNOTE FROM ZEXPENSE")
        _ = try s.step()
        outcome.storeAmount = s.double(at: 0)
        outcome.storeNote = s.text(at: 0 + 1) ?? ""
        return outcome
    }

    @Test func errorPolicyFailsAndKeepsTheChanges() throws {
        let o = try race(.error)
        #expect(o.threw as? ContextError == ContextError.mergeConflict([o.id]))
        #expect(o.threw.map { "\($0)".contains("133020") } == true)
        #expect(o.conflicts == 1)
        #expect(o.contextStillHasChanges)
        #expect(o.contextAmount == .double(2))
        #expect(o.storeAmount == 1 && o.storeNote == "note 0")
    }

    @Test func objectTrumpWritesTheContextsChangedProperties() throws {
        let o = try race(.mergeByPropertyObjectTrump)
        #expect(o.threw == nil && !o.contextStillHasChanges && o.conflicts == 1)
        #expect(o.storeAmount == 2 && o.storeNote == "B's note")
    }

    @Test func storeTrumpKeepsTheStoresValueWhereBothChanged() throws {
        let o = try race(.mergeByPropertyStoreTrump)
        #expect(o.threw == nil && o.conflicts == 1)
        #expect(o.storeAmount == 1 && o.storeNote == "B's note")
        #expect(o.contextAmount == .double(1))
    }

    @Test func overwriteWritesTheWholeObject() throws {
        let o = try race(.overwrite)
        #expect(o.threw == nil && o.conflicts == 1)
        #expect(o.storeAmount == 2 && o.storeNote == "B's note")
    }

    @Test func rollbackDiscardsTheContextsChanges() throws {
        let o = try race(.rollback)
        #expect(o.threw == nil && o.conflicts == 1 && !o.contextStillHasChanges)
        #expect(o.storeAmount == 1 && o.storeNote == "note 0")
        #expect(o.contextAmount == .double(1))
    }

    @Test func failedSavePoisonsUntilRolledBack() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        let context = container.newBackgroundContext()
        try seedExpenses(context, count: 1, categories: 1)
        try context.performAndWait {
            let dup = try context.insertNewObject(forEntityName: "Expense")
            dup["externalID"] = "ex-0"
            #expect(throws: ContextError.self) { try context.save() }
            let other = try context.insertNewObject(forEntityName: "Expense")
            other["externalID"] = "ex-new"
            #expect(throws: ContextError.self) { try context.save() }   // still poisoned
            context.rollback()
            #expect(!context.hasChanges)
            let again = try context.insertNewObject(forEntityName: "Expense")
            again["externalID"] = "ex-new"
            try context.save()
        }
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 2)
    }

    @Test func constraintConflictsMergeUnderObjectTrump() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        try seedExpenses(container.newBackgroundContext(), count: 3, categories: 1)
        let context = container.newBackgroundContext()
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.performAndWait {
            let c = try context.insertNewObject(forEntityName: "Category")
            c["name"] = "cat-0"   // exists in the store
            for key in ["ex-1", "ex-9", "ex-9"] {   // one stored, one twice in memory
                let e = try context.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string(key)
                e["amount"] = .double(500)
                try e.setObject(c, forKey: "category")
            }
            try context.save()
            #expect(context.conflictCount == 3)
            #expect(c.objectID.primaryKey == 1)
        }
        #expect(try container.rows("SELECT count(*) FROM ZCATEGORY") == 1)
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 4)
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE WHERE ZAMOUNT = 500 AND ZCATEGORY = 1") == 2)
        #expect(try container.rows("SELECT Z_OPT FROM ZEXPENSE WHERE ZEXTERNALID = 'ex-1'") == 2)
    }

    /// The UNIQUE index compares text by bytes: keys Swift calls equal (canonically equivalent)
    /// but spelled with different bytes are two rows in the store, so the check must not merge them.
    @Test func keysCompareByTheirBytesAsTheIndexDoes() throws {
        let container = try makeContainer(BundledModels.expenses(key: .unique))
        let context = container.newBackgroundContext()
        context.mergePolicy = .mergeByPropertyObjectTrump
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)
        try context.performAndWait {
            for key in [composed, decomposed, composed] {
                let e = try context.insertNewObject(forEntityName: "Expense")
                e["externalID"] = .string(key)
            }
            try context.save()
            #expect(context.conflictCount == 1)   // the composed key twice, nothing else
        }
        #expect(try container.rows("SELECT count(*) FROM ZEXPENSE") == 2)
    }
}
