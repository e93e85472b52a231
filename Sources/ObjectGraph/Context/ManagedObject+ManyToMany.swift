import SQLiteKit

/// Many-to-many relationships: each pair a row of the join table Core Data lays out
/// (`Z_<n><NAME>`, a column per side), written by the save; members read with one query of the
/// join table, as faults.
extension ManagedObject {
    /// The members of many-to-many `m`, read from the join table on first use.
    func manyToManyMembers(_ m: Int) -> Set<ManagedObject> {
        let context = checkedContext()
        if isFault { context.fireFault(self) }
        if !loadedManyToMany.contains(m) { context.loadManyToMany(of: self, m) }
        return manyToMany[m] ?? []
    }

    /// Joins (or parts) `member` and this object through many-to-many `m`, both sides kept in
    /// step, and records the pair for the save. Both objects become updated, as the other side of
    /// a changed relationship is in Core Data.
    func relate(_ member: ManagedObject, manyToMany m: Int, joined: Bool) throws {
        let context = checkedContext()
        guard member.managedObjectContext === context else {
            throw ContextError.crossContextRelationship(
                relationship: entity.manyToMany[m].name, source: objectID,
                destination: member.objectID)
        }
        let r = entity.manyToMany[m]
        setMember(member, m, joined)
        member.setMember(self, r.inverse, joined)
        let (owner, other) = r.namesTable ? (self, member) : (member, self)
        context.joinChanges.note(
            JoinPair(owner: owner, member: other, relationship: r.namesTable ? m : r.inverse), joined: joined)
        touch(toMany: entity.toMany.count + m, in: context)
        member.touch(toMany: member.entity.toMany.count + r.inverse, in: context)
    }

    /// Takes `member` in or out of many-to-many `m`'s set, when that set is loaded (a set read
    /// later applies the context's pending pairs).
    private func setMember(_ member: ManagedObject, _ m: Int, _ joined: Bool) {
        guard loadedManyToMany.contains(m) || isInserted else { return }
        if manyToMany.isEmpty { manyToMany = Array(repeating: nil, count: entity.manyToMany.count) }
        loadedManyToMany.insert(m)
        if manyToMany[m] == nil { manyToMany[m] = [] }
        if joined { manyToMany[m]!.insert(member) } else { manyToMany[m]!.remove(member) }
    }
}

/// A many-to-many pair under its table-naming side: relationship `relationship` of `owner`'s
/// entity (the side whose name the join table bears) holds `member`.
struct JoinPair: Hashable {
    let owner: ManagedObject
    let member: ManagedObject
    let relationship: Int
}

/// The pairs a context joined or parted since its last save, in the order they were first
/// changed (so a save writes them in the same order every run); a pair joined then parted
/// cancels out.
struct JoinChanges {
    private var order: [JoinPair] = []
    /// A pair cancelled out stays in `order` (and here, as nil) so that noting it again does
    /// not list it twice.
    private var state: [JoinPair: Bool?] = [:]

    var isEmpty: Bool { order.isEmpty }

    mutating func note(_ pair: JoinPair, joined: Bool) {
        switch state[pair] {
        case nil:
            state[pair] = .some(joined)
            order.append(pair)
        case .some(.some(let pending)) where pending != joined:
            state[pair] = .some(nil)
        case .some(.none):
            state[pair] = .some(joined)
        default:
            break
        }
    }

    /// Pending pairs in order, `joined` true for a pair to insert, false for one to delete.
    var pending: [(pair: JoinPair, joined: Bool)] {
        order.compactMap { pair in state[pair].flatMap { $0 }.map { (pair, $0) } }
    }

    mutating func removeAll() {
        order.removeAll()
        state.removeAll()
    }
}

extension ManagedObjectContext {
    /// One query of the join table for the members' keys; each becomes a registered object or a
    /// fault (the engine's choice: the rows are read when touched). The context's unsaved pairs
    /// are applied over what the store holds.
    func loadManyToMany(of object: ManagedObject, _ m: Int) {
        let r = object.entity.manyToMany[m]
        let destination = persistentStoreCoordinator.model.runtime[r.destination - 1]
        var members: Set<ManagedObject> = []
        if let pk = object.objectID.primaryKey {
            do {
                try persistentStoreCoordinator.performRead { connection in
                    let s = try connection.statement(r.membersSQL)
                    s.bind(pk, at: 1)
                    let runtime = persistentStoreCoordinator.model.runtime
                    while try s.step() {
                        let entity = destination.hasSubentities ? runtime[s.int(at: 1) - 1] : destination
                        members.insert(self.object(primaryKey: Int64(s.int(at: 0)), entity: entity))
                    }
                    s.reset()
                }
            } catch {
                preconditionFailure("could not fulfill the to-many fault \(object.entity.name).\(r.name): \(error)")
            }
        }
        for (pair, joined) in joinChanges.pending {
            let other: ManagedObject?
            if pair.owner === object && r.namesTable && pair.relationship == m {
                other = pair.member
            } else if pair.member === object && !r.namesTable && pair.relationship == r.inverse {
                other = pair.owner
            } else {
                other = nil
            }
            guard let other else { continue }
            if joined { members.insert(other) } else { members.remove(other) }
        }
        if object.manyToMany.isEmpty {
            object.manyToMany = Array(repeating: nil, count: object.entity.manyToMany.count)
        }
        object.manyToMany[m] = members
        object.loadedManyToMany.insert(m)
    }

    /// In the save's transaction, after the inserts (every key known): the pairs of deleted
    /// objects go (`DELETE … WHERE <own column> = ?` per many-to-many of each), then the parted
    /// pairs, then the joined ones. Nothing when no pair changed and nothing with a join table
    /// was deleted.
    func writeJoinRows(deletes: [ManagedObject], key: (ManagedObject) -> Int64?, _ connection: Connection) throws {
        for o in deletes {
            for r in o.entity.manyToMany {
                let s = try connection.statement(r.deleteAllSQL)
                s.bind(o.objectID.primaryKey ?? -1, at: 1)
                try s.run()
            }
        }
        guard !joinChanges.isEmpty else { return }
        let pending = joinChanges.pending
        for joined in [false, true] {
            for (pair, change) in pending where change == joined && !pair.owner.isDeleted && !pair.member.isDeleted {
                let r = pair.owner.entity.manyToMany[pair.relationship]
                guard let a = key(pair.owner), let b = key(pair.member) else { continue }
                let s = try connection.statement(joined ? r.insertSQL : r.deleteSQL)
                s.bind(a, at: 1)
                s.bind(b, at: 2)
                try s.run()
            }
        }
    }
}
