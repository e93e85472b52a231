import SQLiteKit

/// Ordered to-manys (Xcode's "Ordered"): each member's position is kept in its row, in the
/// `Z_FOK_<to-one>` column beside the to-one that points at the owner (Core Data's foreign
/// order key, `NSSQLForeignOrderKey`: `Z_FOK_` + the to-one's upper-cased name, an INTEGER).
extension ManagedObjectContext {
    /// Gives every object of the save that joined an ordered to-many its position there: after
    /// the members the owner already has, in the order the objects were inserted or changed. An
    /// owner inserted by this save has none; for a stored owner the save reads the highest
    /// position once (`SELECT MAX(Z_FOK_…) … WHERE <to-one> = ?`, in the write transaction).
    ///
    /// The engine's choices, since how Core Data computes order keys at save was not read:
    /// positions 1, 2, 3 … (one app's import notes report 2048 for a single member: Core Data
    /// spaces its keys), and one query per stored owner per save.
    func assignOrderKeys(inserts: [ManagedObject], updates: [ManagedObject], _ connection: Connection) throws {
        guard persistentStoreCoordinator.model.hasOrderKeys else { return }
        var last: [OrderSlot: Int64] = [:]
        for list in [inserts, updates] {
            for o in list where !o.entity.keyColumns.isEmpty {
                for column in o.entity.keyColumns where column.isOrder {
                    let i = column.toOne
                    guard o.isInserted || o.changed.contains(o.entity.toOnePosition(i)) else { continue }
                    guard let owner = o.toOne[i] else {
                        o.orderKeys[i] = nil
                        continue
                    }
                    let slot = OrderSlot(owner: ObjectIdentifier(owner), toOne: i)
                    let previous = try last[slot] ?? (owner.isInserted ? 0 : highestOrderKey(o.entity, i, owner, connection))
                    o.orderKeys[i] = previous + 1
                    last[slot] = previous + 1
                }
            }
        }
    }

    private func highestOrderKey(_ e: Entity, _ toOne: Int, _ owner: ManagedObject, _ connection: Connection) throws -> Int64 {
        let r = e.toOne[toOne]
        let s = try connection.statement("SELECT MAX(\(r.orderKeyColumn!)) FROM \(e.tableName) WHERE \(r.column) = ?")
        s.bind(owner.objectID.primaryKey ?? -1, at: 1)
        defer { s.reset() }
        return try s.step() && !s.isNull(at: 0) ? Int64(s.int(at: 0)) : 0
    }
}

/// An owner's ordered to-many, as the to-one of its members that points at it.
private struct OrderSlot: Hashable {
    let owner: ObjectIdentifier
    let toOne: Int
}
