import Foundation
import SQLiteKit

/// Uniqueness constraints in a save: among the context's own objects in memory before anything
/// is written, and against the store only after a constrained UPDATE failed.
extension ManagedObjectContext {
    /// Finds objects whose constrained values collide with another object of this context and,
    /// given `store` (the retried save's write transaction), with a stored row, and resolves
    /// them by `policy`. Returns the inserted objects merged into another (they take its ID after
    /// the save). With `.error` it throws and changes nothing.
    func resolveUniquenessConflicts(_ policy: MergePolicy, store: Connection?) throws -> [(
        ManagedObject, ManagedObject
    )] {
        var merged: [(ManagedObject, ManagedObject)] = []
        for entity in persistentStoreCoordinator.model.runtime where !entity.uniquenessConstraints.isEmpty {
            for constraint in entity.uniquenessConstraints {
                let constraintMask = PropertyMask(constraint)
                let candidates =
                    insertedList.filter { $0.isInserted && $0.entity === entity }
                    + updatedList.filter {
                        $0.isUpdated && $0.entity === entity && $0.changed.intersects(constraintMask)
                    }
                guard !candidates.isEmpty else { continue }

                let (first, keys, duplicates) = Self.inMemoryCollisions(candidates, constraint)
                let collisions =
                    try store.map { try storedConflicts(entity, constraint, keys: keys, first: first, $0) } ?? []
                let conflicts = duplicates.count + collisions.count
                guard conflicts > 0 else { continue }
                if policy == .error {
                    conflictCount += conflicts
                    let names = (duplicates.map(\.0) + collisions.map(\.0)).map { o in
                        constraint.map { o.values[$0].description }.joined(separator: "+")
                    }
                    throw ContextError.constraintConflict(entity: entity.name, values: names)
                }
                conflictCount += conflicts
                for (duplicate, survivor) in duplicates {
                    merge(duplicate, into: survivor, policy: policy)
                    merged.append((duplicate, survivor))
                }
                for (o, row) in collisions {
                    if o.isInserted {
                        let existing = adopt(row, entity: entity)
                        merge(o, into: existing, policy: policy)
                        merged.append((o, existing))
                    } else {
                        // An update that moved its key onto another row's: the key change is
                        // undone, whatever the policy (taking over the other row is not modelled).
                        for i in constraint { o.setValue(o.committed?[i] ?? .null, at: i) }
                    }
                }
                repoint()
            }
        }
        return merged
    }

    /// The context's own objects that share a constraint's values: the first object of each key,
    /// the keys in the order the objects came (not the dictionary's: SQLite builds the IN list's
    /// index faster from keys that arrive sorted, as imported keys often do), and each later
    /// object with the first one of its key. NULLs never collide.
    private static func inMemoryCollisions(_ candidates: [ManagedObject], _ constraint: [Int])
        -> (first: [ConstraintKey: ManagedObject], keys: [ConstraintKey], duplicates: [(ManagedObject, ManagedObject)])
    {
        var first: [ConstraintKey: ManagedObject] = [:]
        first.reserveCapacity(candidates.count)
        var keys: [ConstraintKey] = []
        keys.reserveCapacity(candidates.count)
        var duplicates: [(ManagedObject, ManagedObject)] = []
        for o in candidates {
            guard let key = ConstraintKey(constraint, o.values) else { continue }
            // One hash for a new key; a repeated one puts the first object back.
            if let survivor = first.updateValue(o, forKey: key) {
                first[key] = survivor
                duplicates.append((o, survivor))
            } else {
                keys.append(key)
            }
        }
        return (first, keys, duplicates)
    }

    /// Core Data's conflict discovery after a failed save, in two queries. First the keys only
    /// (`+[NSSQLiteAdapter generateStatementForCheckingUniqueProperties:onObjects:usingSQLCore:]`:
    /// `SELECT Z_PK, <key columns> FROM <T> WHERE (<column> IN (?, …))`), which finds the stored
    /// rows holding a key of this save; then the rows of those alone, as the merge policy fetches
    /// the conflicting database objects (`self IN %@`, `SELECT <row> … WHERE Z_PK IN (…)`) to build
    /// an `NSConstraintConflict` each. Both run in the retried save's transaction.
    private func storedConflicts(
        _ e: Entity, _ constraint: [Int], keys: [ConstraintKey],
        first: [ConstraintKey: ManagedObject],
        _ transaction: Connection
    ) throws -> [(ManagedObject, StoredRow)] {
        var holders: [(ManagedObject, Int64)] = []
        for (primaryKey, key) in try storedKeys(e, constraint: constraint, keys: keys, transaction) {
            guard let o = first[key], o.objectID.primaryKey != primaryKey else { continue }
            holders.append((o, primaryKey))
        }
        guard !holders.isEmpty else { return [] }
        let rows = try storedRows(e, primaryKeys: holders.map(\.1), transaction)
        return holders.compactMap { o, primaryKey in rows[primaryKey].map { (o, $0) } }
    }

    /// The key-only query: the stored `(Z_PK, key)` pairs holding any of `keys`, one statement
    /// per 4096 keys. The list is padded to a power of two by repeating a key, so that a handful
    /// of prepared statements serve every batch size.
    private func storedKeys(
        _ e: Entity, constraint: [Int], keys: [ConstraintKey],
        _ transaction: Connection
    ) throws -> [(Int64, ConstraintKey)] {
        var found: [(Int64, ConstraintKey)] = []
        var start = 0
        while start < keys.count {
            let chunk = keys[start..<min(keys.count, start + 4096)]
            start += chunk.count
            let slots = CompiledPredicate.paddedLength(chunk.count)
            let s = try transaction.statement(uniquenessCheckSQL(e, constraint: constraint, slots: slots))
            var index: Int32 = 1
            s.startTextRound()
            for slot in 0..<slots {
                let key = chunk[chunk.startIndex + min(slot, chunk.count - 1)]
                s.bindInRound(key.first, at: index)
                index += 1
                for v in key.rest ?? [] {
                    s.bindInRound(v, at: index)
                    index += 1
                }
            }
            while try s.step() {
                let values = constraint.indices.map {
                    s.value(at: Int32(1 + $0), as: e.attributes[constraint[$0]].type)
                }
                if let key = ConstraintKey(values) { found.append((Int64(s.int(at: 0)), key)) }
            }
            s.reset()
        }
        return found
    }

    /// The conflicting objects' rows by key (`SELECT <row> … WHERE Z_PK IN (…)`, padded as above).
    private func storedRows(_ e: Entity, primaryKeys: [Int64], _ transaction: Connection) throws -> [Int64: StoredRow] {
        var rows: [Int64: StoredRow] = [:]
        var start = 0
        while start < primaryKeys.count {
            let chunk = primaryKeys[start..<min(primaryKeys.count, start + 4096)]
            start += chunk.count
            let slots = CompiledPredicate.paddedLength(chunk.count)
            let s = try transaction.statement(
                e.selectRows(e.rowColumns, where: "Z_PK", "IN (\(CompiledPredicate.placeholders(slots)))"))
            for slot in 0..<slots { s.bind(chunk[chunk.startIndex + min(slot, chunk.count - 1)], at: Int32(slot + 1)) }
            while try s.step() {
                let row = StoredRow(s, entity: e, storage: persistentStoreCoordinator.externalStorage)
                rows[row.primaryKey] = row
            }
            s.reset()
        }
        return rows
    }

    /// The key-only check's SELECT for `slots` keys, built once per (entity, constraint, slots):
    /// the text of a thousand placeholders is not rebuilt on every save. A key of several
    /// columns is matched as a row value (`(a, b) IN (VALUES (?, ?), …)`): Core Data's
    /// multi-column check (`generateStatementForCheckingMulticolumnConstraint:`) was not read.
    private func uniquenessCheckSQL(_ e: Entity, constraint: [Int], slots: Int) -> String {
        let key = UniquenessCheckKey(entity: e.id, constraint: constraint, slots: slots)
        if let sql = uniquenessCheckStatements[key] { return sql }
        let columns = constraint.map { e.attributeColumns[$0] }
        let one = "(" + CompiledPredicate.placeholders(columns.count) + ")"
        let list =
            columns.count == 1
            ? CompiledPredicate.placeholders(slots)
            : "VALUES " + Array(repeating: one, count: slots).joined(separator: ",")
        let target = columns.count == 1 ? columns[0] : "(" + columns.joined(separator: ", ") + ")"
        let sql = "SELECT Z_PK, \(columns.joined(separator: ", ")) FROM \(e.tableName) WHERE (\(target) IN (\(list)))"
        uniquenessCheckStatements[key] = sql
        return sql
    }

    /// The registered object for a stored row, filled with the row when it was a fault.
    private func adopt(_ row: StoredRow, entity: Entity) -> ManagedObject {
        let o = object(primaryKey: row.primaryKey, entity: entity)
        if o.isFault {
            o.values = entity.defaults
            row.apply(to: o, keeping: PropertyMask(), context: self)
            o.version = row.version
            o.isFault = false
            o.batch = nil
            commitSnapshot(o)
            holdRow(o)
        }
        return o
    }

    /// Points every relationship to a merged object at the object it was merged into, in one
    /// pass: objects that point at a new duplicate changed (or are new), so they are in the change
    /// lists. `mergedInto` marks the merged ones, so no table of them is needed.
    private func repoint() {
        for list in [insertedList, updatedList] {
            for o in list where (o.isInserted || o.isUpdated) && o.mergedInto == nil {
                for (i, target) in o.toOne.enumerated() {
                    if let survivor = target?.mergedInto { try? o.setObject(survivor, at: i) }
                }
            }
        }
    }

    /// Folds `duplicate` (an inserted object) into `survivor`: by policy its values win or not.
    /// The duplicate leaves the context; `repoint` moves relationships to it.
    func merge(_ duplicate: ManagedObject, into survivor: ManagedObject, policy: MergePolicy) {
        let mine = policy == .mergeByPropertyObjectTrump || policy == .overwrite
        if mine {
            let e = duplicate.entity
            for i in e.attributes.indices where policy == .overwrite || duplicate.changed.contains(i) {
                survivor.setValue(duplicate.values[i], at: i)
            }
            for i in e.toOne.indices
            where duplicate.toOne[i] != nil
                && (policy == .overwrite || duplicate.changed.contains(e.toOnePosition(i)))
            {
                try? survivor.setObject(duplicate.toOne[i], at: i)
            }
        }
        for (i, rel) in duplicate.entity.toOne.enumerated() {
            if let inverse = rel.inverseToMany { duplicate.toOne[i]?.removeMember(duplicate, toMany: inverse) }
            // A one-to-one partner of the dropped copy points at the survivor when the survivor
            // points at it, else at nothing (the dropped copy is deleted, its rule nullifies).
            if let inverse = rel.inverseToOne, let partner = duplicate.toOne[i], partner.toOne[inverse] === duplicate {
                partner.setPrimitiveToOne(survivor.toOne[i] === partner ? survivor : nil, at: inverse, in: self)
            }
        }
        // Its many-to-many pairs leave with it (none is written for a key it never gets); under a
        // policy where its values win, the survivor takes its members.
        for m in duplicate.entity.manyToMany.indices {
            for member in duplicate.manyToMany.indices.contains(m) ? duplicate.manyToMany[m] ?? [] : [] {
                try? duplicate.relate(member, manyToMany: m, joined: false)
                if mine { try? survivor.relate(member, manyToMany: m, joined: true) }
            }
        }
        duplicate.isInserted = false
        duplicate.mergedInto = survivor
        if registry[duplicate.objectID] === duplicate { registry[duplicate.objectID] = nil }
        if temporaryRegistry[duplicate.objectID] === duplicate { temporaryRegistry[duplicate.objectID] = nil }
    }
}

/// The constrained values of an object: one value without an array (the common case), or several.
///
/// Equal as the store's UNIQUE index sees them: text by its bytes (SQLite's BINARY collation),
/// not by Swift's canonical equivalence, which would take "é" and "e\u{301}" for one key and
/// merge two rows the store keeps apart.
struct ConstraintKey: Hashable {
    let first: Value
    let rest: [Value]?

    static func == (a: ConstraintKey, b: ConstraintKey) -> Bool {
        guard a.first.hasSameStoredValue(as: b.first) else { return false }
        switch (a.rest, b.rest) {
        case (nil, nil): return true
        case (let x?, let y?): return x.count == y.count && zip(x, y).allSatisfy { $0.hasSameStoredValue(as: $1) }
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        first.hashStoredValue(into: &hasher)
        for v in rest ?? [] { v.hashStoredValue(into: &hasher) }
    }

    /// The key of constrained values read back in the constraint's order; nil when one is NULL.
    init?(_ values: [Value]) {
        self.init(Array(values.indices), values)
    }

    /// Nil when a value is NULL (SQLite lets NULLs repeat in a UNIQUE index).
    init?(_ constraint: [Int], _ values: [Value]) {
        first = values[constraint[0]]
        if first.isNull { return nil }
        if constraint.count == 1 {
            rest = nil
        } else {
            let others = constraint.dropFirst().map { values[$0] }
            if others.contains(where: \.isNull) { return nil }
            rest = others
        }
    }
}

/// Uniqueness-check statements by (entity, constraint, padded key count), built once per context.
struct UniquenessCheckKey: Hashable {
    let entity: Int
    let constraint: [Int]
    let slots: Int
}

extension Value {
    /// Equality as a UNIQUE index compares: text byte for byte, everything else as `==`.
    func hasSameStoredValue(as other: Value) -> Bool {
        guard case .string(var a) = self, case .string(var b) = other else { return self == other }
        return a.withUTF8 { x in
            b.withUTF8 { y in x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
            }
        }
    }

    /// A hash consistent with `hasSameStoredValue(as:)`: text hashed as its bytes.
    func hashStoredValue(into hasher: inout Hasher) {
        guard case .string(var text) = self else { return hasher.combine(self) }
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
