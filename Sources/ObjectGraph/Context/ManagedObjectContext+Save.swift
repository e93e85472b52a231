import SQLiteKit

/// `save()`: the sequence Core Data's save request runs, step by step (docs/ENGINE.md).
///
/// 1. Nothing changed: nothing happens (no SQL).
/// 2. Uniqueness among the context's own objects, in memory (Core Data's `NSConstraintCache`
///    `validateForSave`): two objects with one key go to the merge policy. No SQL.
/// 3. Validation of every inserted and updated object against the model (`validateForSave`),
///    then key reservation for inserted objects, in its own short exclusive transaction.
/// 4. One `BEGIN EXCLUSIVE` transaction, in the order of Core Data's save request context: a
///    DELETE checking `Z_OPT` per deleted object, a reused INSERT per inserted object (without
///    its constrained columns), an `UPDATE OR FAIL` of the changed columns checking `Z_OPT` per
///    updated object (an object whose to-many changed, the category gaining expenses, is one:
///    its UPDATE sets `Z_OPT` alone), then `UPDATE OR FAIL … SET <constrained columns>` per
///    inserted row of a constrained entity and per updated row whose constrained values changed
///    (whose first UPDATE set them to NULL).
///    Zero rows changed is an optimistic-locking conflict for the merge policy.
/// 5. A key already in the store fails its constrained UPDATE: the transaction rolls back (a
///    failed attempt, `failedSaveAttempts`), and the save runs again in one exclusive
///    transaction that first reads the stored keys (then the conflicting rows) and hands the
///    conflicts to the merge policy. No query looks for conflicts before a save that has none.
/// 6. After the commit, the coordinator's post-save tasks (`PostSaveMaintenance`).
/// 7. Permanent IDs, fresh snapshots, and a did-save notification for the other contexts.
extension ManagedObjectContext {
    /// A key this save writes is already in the store (or another object's): the constrained
    /// `UPDATE OR FAIL` failed and the save's transaction rolled back.
    struct UniqueConstraintFailure: Error, CustomStringConvertible {
        let entity: String
        var description: String { "a \(entity) key this save writes is already in the store" }
    }

    /// What a merge policy decided for an object that met an optimistic-locking conflict,
    /// applied once the transaction has committed.
    private enum Resolution {
        /// Store values for columns not in `written`, ours for those in it. `bumped`: our UPDATE
        /// ran (columns written, or a to-many change that bumps `Z_OPT` alone).
        case merged(store: StoredRow, written: PropertyMask, bumped: Bool)
        /// Our changes were discarded: the object now holds the store's row.
        case discarded(store: StoredRow)
        /// The row is gone (deleted by someone else, or by us over their change).
        case gone
    }

    /// Writes every pending change to the store. Throws on a conflict the merge policy leaves
    /// unresolved (`.error`), leaving the context's changes in place.
    package func save() throws {
        assertOnQueue()
        processPendingChanges()   // `save:` processes before anything else
        // The lists are compacted and, once saved, emptied: the index of their positions goes.
        pendingIndex = nil
        compactChangeLists()
        guard !insertedList.isEmpty || !updatedList.isEmpty || !deletedList.isEmpty else { return }
        defer { foldObjectWork() }
        let policy = mergePolicy
        var merged = try resolveUniquenessConflicts(policy, store: nil)
        do {
            try saveOnce(policy)
        } catch is UniqueConstraintFailure {
            failedSaveAttempts += 1
            betweenSaveAttempts?()
            merged += try saveResolvingStoredConflicts(policy)
        }
        finishMerges(merged)
    }

    private func compactChangeLists() {
        insertedList.removeAll { !$0.isInserted }
        updatedList.removeAll { o in
            let keep = o.isUpdated && o.managedObjectContext === self && registry[o.objectID] === o
            if !keep { o.isListedUpdated = false }
            return !keep
        }
        deletedList.removeAll { !$0.isDeleted || $0.managedObjectContext !== self }
    }

    /// One attempt: keys reserved, then every write in one transaction. Throws
    /// `UniqueConstraintFailure` (rolled back) when a key is already in the store.
    private func saveOnce(_ policy: MergePolicy) throws {
        compactChangeLists()
        let inserts = insertedList.sorted { $0.entity.id < $1.entity.id }   // stable: insertion order within
        let updates = updatedList
        let deletes = deletedList
        guard !inserts.isEmpty || !updates.isEmpty || !deletes.isEmpty else { return }
        try loadTouchedFaults(updates, nil)
        try prepareForPushChanges(inserts: inserts, updates: updates, deletes: deletes)
        try reserveKeys(for: inserts.filter { $0.objectID.isTemporaryID && $0.reservedKey == 0 })
        var resolutions: [ObjectIdentifier: Resolution] = [:]
        try persistentStoreCoordinator.performSave { connection in
            resolutions = try write(inserts: inserts, updates: updates, deletes: deletes, policy: policy, connection)
        }
        conflictCount += resolutions.count
        finishSave(inserts: inserts, updates: updates, deletes: deletes, resolutions: resolutions)
    }

    /// The save again after a constraint failure: in one exclusive transaction, the stored rows
    /// holding the save's keys are found (keys first, then the conflicting rows) and the
    /// conflicts handed to the merge policy, then everything is written. Holding the lock from
    /// the check to the commit means no other writer can insert a key in between, so the second
    /// attempt is the last. Core Data releases the store before its context's merge policy runs
    /// and saves again in a new transaction (docs/ENGINE.md); the engine leans to the lock so
    /// that failed attempts do not depend on timing. The keys reserved by the failed
    /// attempt stay reserved, as they are in the store's `Z_PRIMARYKEY`.
    private func saveResolvingStoredConflicts(_ policy: MergePolicy) throws -> [(ManagedObject, ManagedObject)] {
        var merged: [(ManagedObject, ManagedObject)] = []
        var inserts: [ManagedObject] = []
        var updates: [ManagedObject] = []
        var deletes: [ManagedObject] = []
        var resolutions: [ObjectIdentifier: Resolution] = [:]
        // Every stored key is resolved under the lock: a failure now is thrown as it is.
        try persistentStoreCoordinator.performSave { connection in
            merged = try resolveUniquenessConflicts(policy, store: connection)
            compactChangeLists()
            inserts = insertedList.sorted { $0.entity.id < $1.entity.id }
            updates = updatedList
            deletes = deletedList
            try loadTouchedFaults(updates, connection)
            try prepareForPushChanges(inserts: inserts, updates: updates, deletes: deletes)
            try assignKeys(to: inserts.filter { $0.objectID.isTemporaryID && $0.reservedKey == 0 }, connection)
            resolutions = try write(inserts: inserts, updates: updates, deletes: deletes, policy: policy, connection)
        }
        conflictCount += resolutions.count
        finishSave(inserts: inserts, updates: updates, deletes: deletes, resolutions: resolutions)
        return merged
    }

    /// Objects updated only because a relationship to them changed may still be faults: their
    /// versions (and the values the did-save notification carries) are read before the write,
    /// one `Z_PK IN (…)` query per entity per 500 objects.
    private func loadTouchedFaults(_ updates: [ManagedObject], _ transaction: Connection?) throws {
        var faults: [Int: [ManagedObject]] = [:]
        for o in updates where o.isFault { faults[o.entity.id, default: []].append(o) }
        for (_, objects) in faults {
            try countingFaulted { try load(objects, entity: objects[0].entity, on: transaction) }
            // A row deleted meanwhile stays a fault: it has nothing left to update.
            for o in objects where o.isFault { forget(o) }
        }
    }

    /// Step 4, inside the write transaction: every statement of the save, in Core Data's order,
    /// and the merge policy's answers to optimistic-locking conflicts.
    private func write(
        inserts: [ManagedObject], updates: [ManagedObject], deletes: [ManagedObject], policy: MergePolicy,
        _ connection: Connection
    ) throws -> [ObjectIdentifier: Resolution] {
        defer { clearSaveGeneratedStatements(inserts: inserts, deletes: deletes, connection) }
        var resolutions: [ObjectIdentifier: Resolution] = [:]
        var conflicts: [ManagedObject] = []
        var statement: (entity: Entity, delete: Statement)?
        for o in deletes {
            if statement?.entity !== o.entity { statement = (o.entity, try connection.statement(o.entity.deleteSQL)) }
            if try !writeDelete(o, version: o.version, statement!.delete, connection) { conflicts.append(o) }
        }
        try assignOrderKeys(inserts: inserts, updates: updates, connection)
        try writeInserts(inserts, connection)
        try writeJoinRows(deletes: deletes, key: key, connection)
        var last: LastUpdate?
        for o in updates where try !writeUpdate(o, mask: o.changed, version: o.version, connection, last: &last) {
            conflicts.append(o)
        }
        if !conflicts.isEmpty {
            guard policy != .error else {
                conflictCount += conflicts.count
                throw ContextError.mergeConflict(conflicts.map(\.objectID))
            }
            for o in conflicts {
                resolutions[ObjectIdentifier(o)] = try resolveLockingConflict(o, policy: policy, connection)
            }
        }
        try writeConstrainedValues(inserts: inserts, updates: updates, resolutions: resolutions, connection)
        if let history = persistentStoreCoordinator.history {
            try recordHistory(
                history, inserts: inserts, updates: updates, deletes: deletes, resolutions: resolutions,
                connection)
        }
        return resolutions
    }

    /// Core Data drops each entity's INSERT and DELETE statements when a save ends, committed or
    /// not (`-[NSSQLiteConnection _clearSaveGeneratedCachedStatements]` at the end of
    /// `_executeSaveChangesRequest`, which runs `-[NSSQLiteStatementCache
    /// _clearSaveGeneratedCachedStatements]` per entity: `cacheInsertStatement:nil`,
    /// `cacheDeletionStatement:nil`, `clearCaches:` on each): the next save prepares them again.
    /// The engine drops the ones this save used. (UPDATE statements are not in that cache: how
    /// Core Data keeps them between rows and saves was not read; the engine keeps them.)
    private func clearSaveGeneratedStatements(
        inserts: [ManagedObject], deletes: [ManagedObject], _ connection: Connection
    ) {
        var last: Entity?
        for o in inserts where o.entity !== last {
            last = o.entity
            connection.evict(o.entity.saveInsertSQL)
        }
        last = nil
        for o in deletes where o.entity !== last {
            last = o.entity
            connection.evict(o.entity.deleteSQL)
            connection.evict(o.entity.deleteOverwritingSQL)
        }
    }

    // MARK: Step 3: key reservation

    /// Reserves `Z_PK`s for `objects` in one short exclusive transaction: per entity, read
    /// `Z_MAX` and compare-and-set it past the block handed out. Each object's key is left in
    /// its `reservedKey` until the save commits.
    func reserveKeys(for objects: [ManagedObject]) throws {
        guard !objects.isEmpty else { return }
        try persistentStoreCoordinator.performWrite { connection in try assignKeys(to: objects, connection) }
    }

    /// Reserves and hands out the keys on a connection already in a write transaction.
    private func assignKeys(to objects: [ManagedObject], _ connection: Connection) throws {
        guard !objects.isEmpty else { return }
        // Entity IDs are 1…n: per-entity tallies in an array, not a dictionary (this runs per object).
        // A hierarchy has one key space, its root's (`Z_MAX` counts on the root's row in a real
        // store's `Z_PRIMARYKEY`; its sub-entities' rows stay 0).
        var next = [Int64](repeating: 0, count: persistentStoreCoordinator.model.runtime.count + 1)
        for o in objects { next[o.entity.rootID] += 1 }
        let blocks = next.indices.filter { next[$0] > 0 }.map { (entity: $0, count: Int(next[$0])) }
        let firstKeys = try reserve(blocks, connection)
        for (entity, first) in firstKeys { next[entity] = first }
        for o in objects {
            o.reservedKey = next[o.entity.rootID]
            next[o.entity.rootID] += 1
        }
    }

    // MARK: Step 4: the writes

    /// The key an object has, or the one this save reserved for it.
    @inline(__always)
    private func key(_ o: ManagedObject) -> Int64? {
        o.objectID.primaryKey ?? (o.reservedKey != 0 ? o.reservedKey : nil)
    }

    private func writeInserts(_ inserts: [ManagedObject], _ connection: Connection) throws {
        var statement: Statement?
        var entity: Entity?
        for o in inserts {
            if o.entity !== entity {
                entity = o.entity
                statement = try connection.statement(o.entity.saveInsertSQL)
            }
            let s = statement!
            let row = StoredRow(populating: o, primaryKey: key(o)!, version: 1, key: key)
            o.savedRow = row
            objectWork.rowsPopulated += 1
            s.bind(key(o)!, at: 1)
            s.bind(o.entity.id, at: 2)
            s.bind(1, at: 3)
            var index: Int32 = 4
            for target in o.toOne {
                if let fk = target.flatMap(key) { s.bind(fk, at: index) } else { s.bindNull(at: index) }
                index += 1
            }
            if _slowPath(o.entity.hasExternalAttributes) {
                try bindFramed(o, s, from: &index)
            } else if o.entity.constrainedMask.isEmpty {
                s.bind(row.values[...], from: index)
                index += Int32(row.values.count)
            } else {
                // The constrained columns stay NULL here: writeConstrainedValues sets them. Text
                // goes through the statement's buffer, as the full row's would.
                s.startTextRound()
                for i in row.values.indices where !o.entity.constrainedMask.contains(i) {
                    s.bindInRound(row.values[i], at: index)
                    index += 1
                }
            }
            for column in o.entity.keyColumns {
                bindKeyColumn(column, of: o, s, at: index)
                index += 1
            }
            try s.run()
        }
    }

    /// An inserted object's values of an entity with external-storage attributes, framed (and
    /// written to files past the threshold), constrained columns left NULL.
    private func bindFramed(_ o: ManagedObject, _ s: Statement, from index: inout Int32) throws {
        let values = try o.entity.columnValues(o.values, persistentStoreCoordinator.externalStorage)
        s.startTextRound()
        for i in values.indices where !o.entity.constrainedMask.contains(i) {
            s.bindInRound(values[i], at: index)
            index += 1
        }
    }

    /// A to-one's entity key (the target's `Z_ENT`) or order key (the position this save gave).
    @inline(__always)
    private func bindKeyColumn(
        _ column: (toOne: Int, isOrder: Bool), of o: ManagedObject, _ s: Statement, at index: Int32
    ) {
        if column.isOrder, let key = o.orderKeys[column.toOne] {
            s.bind(key, at: index)
        } else if !column.isOrder, let target = o.toOne[column.toOne] {
            s.bind(target.entity.id, at: index)
        } else {
            s.bindNull(at: index)
        }
    }

    /// `UPDATE OR FAIL T SET <constrained columns> = ? WHERE Z_PK = ?` for every inserted row of
    /// a constrained entity and every updated row whose constrained values this save writes,
    /// after all other writes, as Core Data's `updateConstrainedValuesForRow:`. A key already in
    /// the store fails here (`UniqueConstraintFailure`): the save rolls back and resolves it.
    private func writeConstrainedValues(
        inserts: [ManagedObject], updates: [ManagedObject],
        resolutions: [ObjectIdentifier: Resolution], _ connection: Connection
    ) throws {
        var statement: Statement?
        var entity: Entity?
        func write(_ o: ManagedObject) throws {
            guard let sql = o.entity.constrainedUpdateSQL else { return }
            if o.entity !== entity {
                entity = o.entity
                statement = try connection.statement(sql)
            }
            let s = statement!
            var index: Int32 = 1
            s.startTextRound()
            for i in o.entity.constrainedAttributes {
                s.bindInRound(o.values[i], at: index)
                index += 1
            }
            s.bind(key(o)!, at: index)
            do {
                try s.run()
            } catch let error as SQLiteError where error.isConstraint {
                s.reset()
                throw UniqueConstraintFailure(entity: o.entity.name)
            }
        }
        for o in inserts { try write(o) }
        for o in updates where writtenColumns(o, resolutions).intersects(o.entity.constrainedMask) { try write(o) }
    }

    /// The save's history, last in its transaction: one transaction row, then a change row per
    /// inserted object, per updated object and per deleted object, each group's keys reserved
    /// at once. An object whose to-many alone changed (the category gaining an expense) is an
    /// update with that relationship in its mask: `processSaveRequest:` adds the to-many
    /// changes of the save plan to the objects' property masks and records every updated row
    /// that has one.
    private func recordHistory(
        _ history: HistoryRecorder, inserts: [ManagedObject], updates: [ManagedObject],
        deletes: [ManagedObject], resolutions: [ObjectIdentifier: Resolution],
        _ connection: Connection
    ) throws {
        let write = try history.begin(author: transactionAuthor, contextName: name, connection)
        try history.reserveChanges(inserts.count, in: write, connection)
        for o in inserts {
            try history.record(
                .insert, entity: o.entity, primaryKey: key(o)!, changedColumns: nil, in: write, connection)
        }
        let updated = updates.filter { o in
            switch resolutions[ObjectIdentifier(o)] {
            case .discarded?, .gone?: false
            case nil, .merged?: !writtenColumns(o, resolutions).isEmpty || !o.touchedToMany.isEmpty
            }
        }
        try history.reserveChanges(updated.count, in: write, connection)
        for o in updated {
            try history.record(
                .update, entity: o.entity, primaryKey: o.objectID.primaryKey!,
                changedColumns: writtenColumns(o, resolutions), toMany: o.touchedToMany, in: write, connection)
        }
        let deleted = deletes.filter { o in
            if case .discarded? = resolutions[ObjectIdentifier(o)] { return false }
            return true
        }
        try history.reserveChanges(deleted.count, in: write, connection)
        for o in deleted {
            try history.record(
                .delete, entity: o.entity, primaryKey: o.objectID.primaryKey!, changedColumns: nil, in: write,
                connection)
        }
    }

    /// The columns this save wrote for an updated object: every change, or what the merge
    /// policy kept of them after a conflict, or none when it discarded them or the row is gone.
    private func writtenColumns(_ o: ManagedObject, _ resolutions: [ObjectIdentifier: Resolution]) -> PropertyMask {
        switch resolutions[ObjectIdentifier(o)] {
        case nil: o.changed
        case .merged(_, let mask, _)?: mask
        case .discarded?, .gone?: PropertyMask()
        }
    }

    /// `UPDATE OR FAIL … SET <columns in mask>, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?`, a
    /// changed constrained column set to NULL (`writeConstrainedValues` sets its value); with no
    /// columns (a to-many change) it sets `Z_OPT` alone. False when no row matched: someone else changed or deleted it first.
    private func writeUpdate(
        _ o: ManagedObject, mask: PropertyMask, version: Int64, _ connection: Connection,
        last: inout LastUpdate?
    ) throws -> Bool {
        let e = o.entity
        let shape = UpdateKey(entity: e.id, mask: mask)
        let s: Statement
        if let last, last.key == shape {
            s = last.statement
        } else {
            s = try connection.statement(updateSQL(e, mask: mask))
            last = LastUpdate(key: shape, statement: s)
        }
        let row = StoredRow(populating: o, primaryKey: o.objectID.primaryKey!, version: version + 1, key: key)
        o.savedRow = row
        objectWork.rowsPopulated += 1
        var index: Int32 = 1
        for i in e.toOne.indices where mask.contains(e.toOnePosition(i)) {
            if let fk = row.toOne[i] { s.bind(fk, at: index) } else { s.bindNull(at: index) }
            index += 1
        }
        for column in e.keyColumns where mask.contains(e.toOnePosition(column.toOne)) {
            bindKeyColumn(column, of: o, s, at: index)
            index += 1
        }
        for i in e.attributes.indices where mask.contains(i) {
            // A constrained column is set to NULL here, as `updateRow:` binds it, and to its
            // value by the constrained UPDATE after every other write.
            if e.constrainedMask.contains(i) {
                s.bindNull(at: index)
            } else if _slowPath(e.hasExternalAttributes) && e.externalAttributes.contains(i) {
                s.bind(try persistentStoreCoordinator.externalStorage.encode(row.values[i]), at: index)
            } else {
                s.bind(row.values[i], at: index)
            }
            index += 1
        }
        s.bind(version + 1, at: index)
        s.bind(o.objectID.primaryKey!, at: index + 1)
        s.bind(version, at: index + 2)
        try s.run()
        return connection.db.changes == 1
    }

    /// Runs `s` (the entity's `deleteSQL`, or `deleteOverwritingSQL` when `version` is nil)
    /// for `o`. False when no row matched: someone else changed or deleted it first.
    private func writeDelete(_ o: ManagedObject, version: Int64?, _ s: Statement, _ connection: Connection) throws
        -> Bool
    {
        s.bind(o.objectID.primaryKey!, at: 1)
        if let version { s.bind(version, at: 2) }
        try s.run()
        return connection.db.changes == 1
    }

    /// The UPDATE for one set of changed columns, built once per (entity, mask).
    private func updateSQL(_ e: Entity, mask: PropertyMask) -> String {
        let key = UpdateKey(entity: e.id, mask: mask)
        if let sql = updateStatements[key] { return sql }
        var sets: [String] = []
        for (i, r) in e.toOne.enumerated() where mask.contains(e.toOnePosition(i)) { sets.append("\(r.column) = ?") }
        for c in e.keyColumns where mask.contains(e.toOnePosition(c.toOne)) {
            sets.append("\(c.isOrder ? e.toOne[c.toOne].orderKeyColumn! : e.toOne[c.toOne].entityKeyColumn!) = ?")
        }
        for (i, c) in e.attributeColumns.enumerated() where mask.contains(i) { sets.append("\(c) = ?") }
        sets.append("Z_OPT = ?")
        let sql = "UPDATE OR FAIL \(e.tableName) SET \(sets.joined(separator: ", ")) WHERE Z_PK = ? AND Z_OPT = ?"
        updateStatements[key] = sql
        return sql
    }

    /// A conflict on UPDATE or DELETE, resolved inside the transaction by the merge policy.
    private func resolveLockingConflict(_ o: ManagedObject, policy: MergePolicy, _ connection: Connection) throws
        -> Resolution
    {
        guard
            let store = try StoredRow.read(
                o.entity, primaryKey: o.objectID.primaryKey!, connection,
                storage: persistentStoreCoordinator.externalStorage)
        else {
            // Deleted by someone else: an update has nothing left to update, a delete is done.
            return .gone
        }
        if o.isDeleted {
            if policy == .mergeByPropertyObjectTrump || policy == .overwrite {
                _ = try writeDelete(
                    o, version: nil, try connection.statement(o.entity.deleteOverwritingSQL), connection)
                return .gone
            }
            return .discarded(store: store)
        }
        var mask: PropertyMask
        switch policy {
        case .error, .rollback:
            return .discarded(store: store)
        case .overwrite:
            mask = o.entity.allColumnsMask
        case .mergeByPropertyObjectTrump:
            mask = o.changed
        case .mergeByPropertyStoreTrump:
            // Keep only our changes to properties the other side left as we last saw them.
            mask = o.changed.subtracting(store.differences(from: o))
        }
        var last: LastUpdate?
        let bumped = !mask.isEmpty || !o.touchedToMany.isEmpty
        if bumped { _ = try writeUpdate(o, mask: mask, version: store.version, connection, last: &last) }
        return .merged(store: store, written: mask, bumped: bumped)
    }

    // MARK: Step 5: after the commit

    private func finishSave(
        inserts: [ManagedObject], updates: [ManagedObject], deletes: [ManagedObject],
        resolutions: [ObjectIdentifier: Resolution]
    ) {
        joinChanges.removeAll()
        registry.reserveCapacity(registry.count + inserts.count)
        for o in inserts where o.objectID.isTemporaryID {
            reassign(o, to: o.reservedKey)
            o.reservedKey = 0
        }
        // The did-save notification's inserted, updated and deleted sets are built for every save,
        // as Core Data's NSManagedObjectContextDidSave userInfo is; the values other contexts merge
        // (`states`) only when someone listens.
        var saved = SavedObjects(
            notify: persistentStoreCoordinator.hasObservers,
            counts: (inserts.count, updates.count, deletes.count))
        for o in inserts {
            o.isInserted = false
            o.version = 1
            commitSnapshot(o)
            holdRow(o)
            saved.inserted.append(o.objectID)
            if saved.notify { saved.states.append(state(of: o)) }
        }
        for o in updates {
            guard finishUpdate(o, resolutions[ObjectIdentifier(o)]) else {
                saved.deleted.append(o.objectID)
                continue
            }
            saved.updated.append(o.objectID)
            if saved.notify { saved.states.append(state(of: o)) }
        }
        for o in deletes where finishDelete(o, resolutions[ObjectIdentifier(o)]) { saved.deleted.append(o.objectID) }
        sendDidSave(inserts: inserts, updates: updates, deletes: deletes)
        postDidSave(
            inserted: inserts, updated: updates.filter { $0.managedObjectContext === self },
            deleted: deletes.filter(\.isDeleted))
        flushRowCache()
        insertedList.removeAll(keepingCapacity: true)
        updatedList.removeAll(keepingCapacity: true)
        deletedList.removeAll(keepingCapacity: true)
        saveCount += 1
        if saved.notify {
            persistentStoreCoordinator.post(
                DidSaveNotification(
                    insertedObjectIDs: saved.inserted, updatedObjectIDs: saved.updated, deletedObjectIDs: saved.deleted,
                    states: saved.states, sourceContext: identifier))
        }
    }

    /// An updated object after the commit, as its conflict (if any) was resolved: false when its
    /// row turned out to be gone (the object is forgotten, and reported deleted).
    private func finishUpdate(_ o: ManagedObject, _ resolution: Resolution?) -> Bool {
        switch resolution {
        case nil:
            o.version += 1
        case .merged(let store, let written, let bumped)?:
            o.savedRow = nil   // the row now mixes theirs and ours: the object's state is cached
            store.apply(to: o, keeping: written, context: self)
            o.version = store.version + (bumped ? 1 : 0)
        case .discarded(let store)?:
            o.savedRow = nil
            store.apply(to: o, keeping: PropertyMask(), context: self)
            o.version = store.version
        case .gone?:
            forget(o)
            return false
        }
        commitSnapshot(o)
        holdRow(o)
        return true
    }

    /// A deleted object after the commit: forgotten (true), or kept when the merge policy
    /// discarded its deletion (false).
    private func finishDelete(_ o: ManagedObject, _ resolution: Resolution?) -> Bool {
        if case .discarded(let store)? = resolution {
            o.isDeleted = false
            store.apply(to: o, keeping: PropertyMask(), context: self)
            o.version = store.version
            commitSnapshot(o)
            holdRow(o)
            return false
        }
        forget(o)
        return true
    }

    func commitSnapshot(_ o: ManagedObject) {
        o.committed = o.values
        o.committedToOne = o.toOne.map { $0?.objectID }
        o.changed = PropertyMask()
        o.touchedToMany = PropertyMask()
        o.isListedUpdated = false
        o.snapshot = nil   // `_clearOriginalSnapshotAndInitializeRec:`
    }

    private func state(of o: ManagedObject) -> DidSaveNotification.ObjectState {
        DidSaveNotification.ObjectState(
            objectID: o.objectID, version: o.version, values: o.values,
            toOne: o.committedToOne ?? [])
    }

    /// Unregisters a deleted object; it keeps its values so holders can still read them.
    func forget(_ o: ManagedObject) {
        forgetRow(o)
        registry[o.objectID] = nil
        o.isDeleted = true
        o.isListedUpdated = false
        o.managedObjectContext = nil
    }

    private func finishMerges(_ merged: [(ManagedObject, ManagedObject)]) {
        for (duplicate, survivor) in merged { duplicate.objectID = survivor.objectID }
    }
}

/// Update statements by (entity, changed-column mask), built once per context.
struct UpdateKey: Hashable {
    let entity: Int
    let mask: PropertyMask
}

/// The UPDATE a save used last, by shape: consecutive updates of one shape (a fix-up pass sets
/// the same relationship on every object) reuse it without the statement cache's look-up, which
/// hashes the SQL text.
struct LastUpdate {
    let key: UpdateKey
    let statement: Statement
}

/// Reserves keys on a connection already in a write transaction: per entity, `SELECT Z_MAX`
/// then the compare-and-set `UPDATE OR FAIL`, the text of `NSSQLiteConnection
/// generatePrimaryKeysForEntity:batch:`. Returns the first key of each block. Shared by saves,
/// batch inserts and persistent history.
func reserve(_ blocks: [(entity: Int, count: Int)], _ connection: Connection) throws -> [Int: Int64] {
    var first: [Int: Int64] = [:]
    let select = try connection.statement("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
    let update = try connection.statement("UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?")
    for (entity, count) in blocks {
        select.bind(entity, at: 1)
        let max = try select.step() ? Int64(select.int(at: 0)) : 0
        select.reset()
        update.bind(max + Int64(count), at: 1)
        update.bind(entity, at: 2)
        update.bind(max, at: 3)
        try update.run()
        guard connection.db.changes == 1 else {
            throw SQLiteError(code: .busy, message: "Z_PRIMARYKEY changed during key reservation for entity \(entity)")
        }
        first[entity] = max + 1
    }
    return first
}

/// What a save hands its did-save notification: the IDs by kind, and the objects' values when
/// someone listens.
private struct SavedObjects {
    let notify: Bool
    var inserted: [ManagedObjectID] = [], updated: [ManagedObjectID] = [], deleted: [ManagedObjectID] = []
    var states: [DidSaveNotification.ObjectState] = []

    init(notify: Bool, counts: (inserted: Int, updated: Int, deleted: Int)) {
        self.notify = notify
        inserted.reserveCapacity(counts.inserted)
        updated.reserveCapacity(counts.updated)
        deleted.reserveCapacity(counts.deleted)
    }
}
