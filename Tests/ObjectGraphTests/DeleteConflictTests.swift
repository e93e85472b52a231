import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// A delete whose row someone else changed first.
@Suite struct DeleteConflictTests {
    /// A changes the amount and saves; B, which read the row before, deletes it under `policy`.
    func deleteAfterAnUpdate(_ policy: MergePolicy) throws -> (error: ContextError?, rows: Int, id: ManagedObjectID) {
        let two = try ReadByTwo(policy: policy) { $0["amount"] = .double(99) }
        let (container, id, b) = (two.container, two.id, two.b)
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
