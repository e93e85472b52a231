import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// Entities wider than one 64-bit word of change tracking, as shipped models have them (an
/// order of 64 attributes): Core Data has no limit on an entity's properties, and neither has
/// the engine's `PropertyMask`.
@Suite struct WideEntityTests {
    /// `Wide`: 100 string attributes `a0 … a99` and 40 to-ones `r0 … r39` to `Node`, each with
    /// its to-many inverse `w0 … w39`: 140 tracked positions, the to-ones from position 100.
    static func model() throws -> ManagedObjectModel {
        let wide = EntityDescription(
            "Wide", attributes: (0..<100).map { AttributeDescription("a\($0)", .string) },
            relationships: (0..<40).map { RelationshipDescription("r\($0)", to: "Node", inverse: "w\($0)") })
        let node = EntityDescription(
            "Node", attributes: [AttributeDescription("name", .string)],
            relationships: (0..<40).map {
                RelationshipDescription("w\($0)", to: "Wide", inverse: "r\($0)", toMany: true)
            })
        return try ManagedObjectModel([wide, node])
    }

    @Test func theMaskHoldsPositionsPastOneWordAndEqualSetsAreEqual() {
        var mask = PropertyMask()
        mask.insert(3)
        mask.insert(130)
        #expect(mask.contains(3) && mask.contains(130) && !mask.contains(66) && !mask.contains(194))
        mask.remove(130)
        #expect(
            mask == PropertyMask([3]),
            "a cleared high position leaves no trace: the save's statement cache keys on masks")
        let a = PropertyMask([1, 70, 140])
        let b = PropertyMask([70, 200])
        #expect(a.union(b) == PropertyMask([1, 70, 140, 200]))
        #expect(a.intersection(b) == PropertyMask([70]) && a.intersects(b))
        #expect(a.subtracting(b) == PropertyMask([1, 140]))
        #expect(PropertyMask([140]).subtracting(PropertyMask([140])).isEmpty)
        #expect(!PropertyMask([1]).intersects(PropertyMask([65])))
        #expect(PropertyMask.all(130).contains(129) && !PropertyMask.all(130).contains(130))
    }

    @Test func anUpdateOfAHighAttributeAndAHighToOneSetsOnlyThoseColumns() throws {
        let container = try makeContainer(try Self.model())
        let context = container.newBackgroundContext()
        let id = try context.performAndWait {
            let w = try context.insertNewObject(forEntityName: "Wide")
            for i in 0..<100 { w["a\(i)"] = .string("v\(i)") }
            let n = try context.insertNewObject(forEntityName: "Node")
            try w.setObject(n, forKey: "r39")
            try context.save()
            return w.objectID
        }
        #expect(try container.rows("SELECT count(*) FROM ZWIDE WHERE ZA99 = 'v99' AND ZR39 = 1") == 1)
        let reader = container.newBackgroundContext()
        container.counters.startRecording()
        try reader.performAndWait {
            let w = try reader.existingObject(with: id)
            let n = try reader.insertNewObject(forEntityName: "Node")
            w["a70"] = "changed"
            try w.setObject(n, forKey: "r35")
            w["a80"] = "changed"
            w["a80"] = "v80"
            #expect(
                w.changedValues().keys.sorted() == ["a70", "r35"], "a value set back to the stored one is no change")
            try reader.save()
        }
        let sql = container.counters.stopRecording()
        #expect(
            sql.contains("UPDATE OR FAIL ZWIDE SET ZR35 = ?, ZA70 = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"),
            "\(sql)")
        #expect(
            try container.rows(
                "SELECT count(*) FROM ZWIDE WHERE ZA70 = 'changed' AND ZA80 = 'v80' AND ZR35 = 2 AND Z_OPT = 2") == 1)
    }

    @Test func storeTrumpKeepsTheOtherSidesHighColumnAndWritesOurs() throws {
        let container = try makeContainer(try Self.model())
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        let id = try first.performAndWait {
            let w = try first.insertNewObject(forEntityName: "Wide")
            try first.save()
            return w.objectID
        }
        try second.performAndWait { _ = try second.existingObject(with: id)["a0"] }
        try first.performAndWait {
            let w = try first.existingObject(with: id)
            w["a90"] = "first"
            try first.save()
        }
        second.mergePolicy = .mergeByPropertyStoreTrump
        try second.performAndWait {
            let w = try second.existingObject(with: id)
            w["a90"] = "second"
            w["a91"] = "second"
            try second.save()
            #expect(second.conflictCount == 1)
        }
        #expect(try container.rows("SELECT count(*) FROM ZWIDE WHERE ZA90 = 'first' AND ZA91 = 'second'") == 1)
    }
}
