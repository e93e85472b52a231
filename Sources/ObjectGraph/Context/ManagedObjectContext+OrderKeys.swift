import SQLiteKit

/// Ordered to-manys (Xcode's "Ordered"): each member's position is kept in its row, in the
/// `Z_FOK_<to-one>` column beside the to-one that points at the owner (Core Data's foreign
/// order key, `NSSQLForeignOrderKey`: `Z_FOK_` + the to-one's upper-cased name, an INTEGER).
///
/// How Core Data keeps them (decompiled iOS 18.2 `CoreData.framework`, docs/ENGINE.md):
/// - setting a member's to-one fires the owner's ordered to-many fault, as inverse maintenance
///   asks the set whether it holds the member (`-[NSManagedObject _maintainInverseRelationship:
///   forProperty:oldDestination:newDestination:]` → `-[_NSFaultingMutableOrderedSet containsObject:]`
///   → `willRead`): every member's ID and order key read, every member registered as a fault;
/// - the save gives each member without a key one (`-[NSSQLSavePlan _populateOrderKeysInOrderedSet:…]`
///   → `-[_NSFaultingMutableOrderedSet _populateOrderKeysUsingSnapshot:orderKeys:newIndexes:
///   reorderedIndexes:]`): members with stored keys keep them, new ones at the end take the last
///   key + 1024; a set with no stored keys is numbered from scratch, 2048, 3072, …
/// So an import pays, per owner it adds to, a query returning every member and an object per
/// member, and at save a walk of the members: work that grows with the owner.
package enum OrderKey {
    /// The spacing of order keys (`_populateOrderKeysUsingSnapshot:…`: 1024).
    package static let step: Int64 = 1024
    /// The first key of a set numbered from scratch: twice the step (as decompiled; one app's
    /// import notes report 2048 for a single member).
    package static let first: Int64 = 2 * step
}

extension ManagedObjectContext {
    // MARK: The owner's fault

    /// Fires `owner`'s ordered to-many `index` unless it is loaded (an inserted owner's always
    /// is): what setting a member's to-one does first in Core Data.
    @inline(__always)
    func fireOrderedToMany(of owner: ManagedObject, index: Int) {
        guard !owner.loadedToMany.contains(index) else { return }
        loadOrderedMembers(of: owner, index: index)
    }

    /// The relationship fault of an ordered to-many: the owner's row if it is a fault, then
    /// `SELECT Z_PK[, Z_ENT], Z_FOK_<to-one> FROM <members> WHERE <to-one> = ?` (the relationship
    /// fault request fetches each member's object ID and `inverseOrderKey:`), each member
    /// registered (a fault unless registered already) with its stored key. A member that points
    /// elsewhere in memory is left out: memory wins, as in `loadToMany`.
    func loadOrderedMembers(of owner: ManagedObject, index: Int) {
        if owner.isFault { fireFault(owner) }
        let rel = owner.entity.toMany[index]
        owner.markLoaded(toMany: index)
        guard let pk = owner.objectID.primaryKey else { return }
        let destination = persistentStoreCoordinator.model.runtime[rel.destination - 1]
        let toOne = destination.toOne[rel.inverseToOne]
        let keyColumn = destination.hasSubentities ? "Z_PK, Z_ENT" : "Z_PK"
        let sql =
            "SELECT \(keyColumn), \(toOne.orderKeyColumn!) FROM \(destination.tableName) WHERE \(toOne.column) = ?"
        let orderAt = Int32(destination.hasSubentities ? 2 : 1)
        do {
            try persistentStoreCoordinator.performRead { connection in
                let s = try connection.statement(sql)
                s.bind(pk, at: 1)
                while try s.step() {
                    let member = object(primaryKey: Int64(s.int(at: 0)), entity: rowEntity(s, destination, at: 1))
                    objectWork.faulted += 1
                    if !member.isFault && member.toOne[rel.inverseToOne] !== owner { continue }
                    if !member.changed.contains(member.entity.toOnePosition(rel.inverseToOne)) {
                        member.orderKeys[rel.inverseToOne] = s.isNull(at: orderAt) ? nil : Int64(s.int(at: orderAt))
                    }
                    owner.addMember(member, toMany: index)
                }
                s.reset()
            }
        } catch {
            preconditionFailure("could not fulfill the to-many fault \(owner.entity.name).\(rel.name): \(error)")
        }
    }

    // MARK: Keys at save

    /// Gives every object of the save that joined an ordered to-many its key: after the last
    /// key of the owner's members, in the order the objects were inserted or changed; from
    /// `OrderKey.first` when the owner has no member with a key. The last key is found by a walk
    /// of the owner's members, once per owner per save (the keys Core Data populates for the
    /// whole set); when some stored member's key is not known here (its to-many was loaded
    /// another way, by prefetching), by `SELECT MAX(Z_FOK_…) … WHERE <to-one> = ?` in the write
    /// transaction.
    func assignOrderKeys(inserts: [ManagedObject], updates: [ManagedObject], _ connection: Connection) throws {
        guard persistentStoreCoordinator.model.hasOrderKeys else { return }
        var last: [OrderSlot: Int64] = [:]
        for list in [inserts, updates] {
            for o in list where o.entity.hasOrderKeys {
                for column in o.entity.keyColumns where column.isOrder {
                    let i = column.toOne
                    guard o.isInserted || o.changed.contains(o.entity.toOnePosition(i)) else { continue }
                    guard let owner = o.toOne[i] else {
                        o.orderKeys[i] = nil
                        continue
                    }
                    let slot = OrderSlot(owner: ObjectIdentifier(owner), toOne: i)
                    let previous = try last[slot] ?? lastOrderKey(of: owner, member: o.entity, toOne: i, connection)
                    o.orderKeys[i] = previous + OrderKey.step
                    last[slot] = previous + OrderKey.step
                }
            }
        }
    }

    /// The key before the first new member's: the last stored member's, or `first − step`.
    private func lastOrderKey(of owner: ManagedObject, member e: Entity, toOne i: Int, _ connection: Connection) throws
        -> Int64
    {
        let position = e.toOnePosition(i)
        var highest: Int64?
        if let inverse = e.toOne[i].inverseToMany, owner.isInserted || owner.loadedToMany.contains(inverse) {
            for m in owner.toMany[inverse] ?? [] where !m.isInserted && !m.changed.contains(position) {
                guard let key = m.orderKeys[i] else { return try highestStoredOrderKey(e, i, owner, connection) }
                highest = max(highest ?? key, key)
            }
        } else {
            return try highestStoredOrderKey(e, i, owner, connection)
        }
        return highest ?? OrderKey.first - OrderKey.step
    }

    private func highestStoredOrderKey(_ e: Entity, _ toOne: Int, _ owner: ManagedObject, _ connection: Connection)
        throws -> Int64
    {
        let r = e.toOne[toOne]
        let s = try connection.statement("SELECT MAX(\(r.orderKeyColumn!)) FROM \(e.tableName) WHERE \(r.column) = ?")
        s.bind(owner.objectID.primaryKey ?? -1, at: 1)
        defer { s.reset() }
        return try s.step() && !s.isNull(at: 0) ? Int64(s.int(at: 0)) : OrderKey.first - OrderKey.step
    }
}

/// An owner's ordered to-many, as the to-one of its members that points at it.
private struct OrderSlot: Hashable {
    let owner: ObjectIdentifier
    let toOne: Int
}
