import SQLiteKit

/// Fetching, faults and prefetching: where a context pays for reads.
extension ManagedObjectContext {
    // MARK: Fetch

    /// The objects matching `request`, in one query (plus one per prefetched relationship).
    /// Unsaved inserts and changes of this context are taken into account, as in Core Data.
    package func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        assertOnQueue()
        // Core Data processes pending changes before a fetch that includes them, unless it can
        // coalesce them (decompiled `executeFetchRequest:`, `_attemptCoalesceChangesForFetch`).
        if request.includesPendingChanges { processPendingChangesForFetch() }
        let entity = try self.entity(named: request.entityName)
        let compiled = try CompiledPredicate(request.predicate, entity: entity, table: CompiledPredicate.fetchAlias)
        let keysOnly = request.fetchBatchSize > 0 || !request.includesPropertyValues
        let partial = keysOnly ? nil : try request.propertiesToFetch.map { try PartialRow(entity, properties: $0) }
        let columns = keysOnly ? entity.keyOnlyColumns : partial?.columns ?? entity.readColumns
        let hasPending =
            request.includesPendingChanges && !(insertedList.isEmpty && updatedList.isEmpty && deletedList.isEmpty)
        let sql = try selectSQL(columns, from: entity, request, compiled, limited: !hasPending)

        var results: [ManagedObject] = try persistentStoreCoordinator.performRead { connection in
            let s = try connection.statement(sql)
            for (i, v) in compiled.bindings.enumerated() { s.bind(v, at: Int32(i + 1)) }
            var out: [ManagedObject] = []
            while try s.step() {
                if keysOnly {
                    out.append(
                        object(
                            primaryKey: Int64(s.int(at: RowColumn.key)),
                            entity: rowEntity(s, entity, at: RowColumn.entity)))
                } else if let partial {
                    out.append(prepopulate(s, entity: entity, partial))
                } else {
                    out.append(materialize(s, entity: entity))
                }
            }
            s.reset()
            return out
        }
        // A keys-first fetch (`fetchBatchSize`, or no property values) makes no object with values:
        // Core Data's `_PFBatchFaultingArray` holds object IDs until a batch is touched
        // (`NSSQLFetchRequestContext initWithRequest:…` fetches keys only, decompiled iOS 18.2), so
        // its objects count once, when their values are loaded (`faulted`), not twice.
        if !keysOnly { objectWork.fetched += results.count }
        defer { foldObjectWork() }
        if request.fetchBatchSize > 0 { groupFaults(results, size: request.fetchBatchSize) }
        if hasPending { results = try applyPendingChanges(results, request: request, entity: entity) }
        for path in request.relationshipKeyPathsForPrefetching { try prefetch(path, of: results, entity: entity) }
        flushRowCache()
        return results
    }

    /// `SELECT <columns> FROM <table> t0 [WHERE …] [ORDER BY …] [LIMIT n] [OFFSET m]`, as Core
    /// Data writes a fetch (`… FROM ZBOOK t0 WHERE  t0.ZTITLE LIKE ? ORDER BY t0.ZTITLE`; the
    /// predicate compiled with `CompiledPredicate.fetchAlias`); the limit and offset only when
    /// `limited` (unsaved changes may move rows in or out: applied after).
    func selectSQL(
        _ columns: String, from entity: Entity, _ request: FetchRequest, _ compiled: CompiledPredicate,
        limited: Bool
    ) throws -> String {
        // Built in one buffer with room for the common case: a fetch per record (find-or-create,
        // many-writers) makes this string every time, and each temporary or regrowth is an
        // allocation per record (the ` t0.` alias pushed the WHERE clause past Swift's 15 inline
        // bytes: one more per fetch, measured in the nightly's writers lines).
        var sql = ""
        sql.reserveCapacity(columns.utf8.count + entity.tableName.utf8.count + compiled.sql.utf8.count + 64)
        sql += "SELECT "
        sql += columns
        sql += " FROM "
        sql += entity.tableName
        sql += " t0"
        if !compiled.sql.isEmpty {
            sql += " WHERE "
            sql += compiled.sql
        }
        if !request.sortDescriptors.isEmpty {
            sql +=
                " ORDER BY "
                + (try request.sortDescriptors.map {
                    try "t0." + CompiledPredicate.column($0.key, entity) + ($0.ascending ? "" : " DESC")
                }).joined(separator: ", ")
        }
        guard limited else { return sql }
        // SQLite takes an OFFSET only after a LIMIT: -1 is no limit.
        if request.fetchLimit > 0 {
            sql += " LIMIT \(request.fetchLimit)"
        } else if request.fetchOffset > 0 {
            sql += " LIMIT -1"
        }
        if request.fetchOffset > 0 { sql += " OFFSET \(request.fetchOffset)" }
        return sql
    }

    /// `SELECT COUNT(*) FROM <table>` as Core Data counts (fatbobman.com's SQLDebug log; with a
    /// predicate `… t0 WHERE  t0.<column> = ?`, the fetch's form): no objects are made. Unsaved
    /// inserts and deletes are counted in.
    package func count(for request: FetchRequest) throws -> Int {
        assertOnQueue()
        // As a fetch does (`_countForFetchRequest_:error:`).
        if request.includesPendingChanges { processPendingChangesForFetch() }
        let entity = try self.entity(named: request.entityName)
        let compiled = try CompiledPredicate(request.predicate, entity: entity, table: CompiledPredicate.fetchAlias)
        let sql = "SELECT COUNT(*) FROM \(entity.tableName)" + (compiled.sql.isEmpty ? "" : " t0 WHERE " + compiled.sql)
        var count = try persistentStoreCoordinator.performRead { connection -> Int in
            let s = try connection.statement(sql)
            for (i, v) in compiled.bindings.enumerated() { s.bind(v, at: Int32(i + 1)) }
            let n = try s.step() ? s.int(at: 0) : 0
            s.reset()
            return n
        }
        if request.includesPendingChanges {
            let matcher = try PendingMatcher(request.predicate, entity: entity)
            let matches = { (o: ManagedObject) in o.entity === entity && matcher.matches(o) }
            count += insertedList.filter { $0.isInserted && matches($0) }.count
            count -= deletedList.filter { $0.isDeleted && !$0.isFault && matches($0) }.count
        }
        return count
    }

    // MARK: Rows to objects

    /// The registered object for a row key, or a new fault.
    func object(primaryKey: Int64, entity: Entity) -> ManagedObject {
        object(
            with: ManagedObjectID(
                store: persistentStoreCoordinator.storeIndex, entityID: entity.id, primaryKey: primaryKey))
    }

    /// Registers the row `s` is on (columns as `entity.readColumns`). A registered object keeps
    /// its in-memory state; a fault is filled. A row of a sub-entity (read through an entity
    /// with sub-entities, `Z_ENT` first) becomes an object of that sub-entity.
    func materialize(_ s: Statement, entity: Entity) -> ManagedObject {
        let rowEntity = entity.hasSubentities ? rowEntity(s, entity, at: RowColumn.entity) : entity
        let object = self.object(primaryKey: Int64(s.int(at: RowColumn.key)), entity: rowEntity)
        if object.isFault {
            fill(object, from: s, layout: entity.hasSubentities ? rowEntity.hierarchyLayout : rowEntity.rowLayout)
        }
        return object
    }

    /// The entity whose `Z_ENT` column `at` holds, within `entity`'s hierarchy.
    func rowEntity(_ s: Statement, _ entity: Entity, at column: Int32) -> Entity {
        guard entity.hasSubentities else { return entity }
        let id = s.int(at: column)
        return (entity.id...entity.subentityMaxID).contains(id)
            ? persistentStoreCoordinator.model.runtime[id - 1] : entity
    }

    /// Fills a fault from a row, linking its to-ones (to registered objects or new faults).
    func fill(_ object: ManagedObject, from s: Statement, layout: RowLayout) {
        let entity = object.entity
        object.version = Int64(s.int(at: RowColumn.version))
        let targets = linkToOnes(
            of: object,
            entityID: { i in
                layout.entityKey[i] < 0 || s.isNull(at: layout.entityKey[i]) ? nil : s.int(at: layout.entityKey[i])
            },
            key: { i in s.isNull(at: layout.toOne[i]) ? nil : Int64(s.int(at: layout.toOne[i])) }
        )
        var values: [Value] = []
        values.reserveCapacity(entity.attributes.count)
        for (i, a) in entity.attributes.enumerated() { values.append(s.value(at: layout.attributes[i], as: a.type)) }
        if !entity.externalAttributes.isEmpty {
            entity.decodeExternal(&values, persistentStoreCoordinator.externalStorage)
        }
        object.values = values
        object.committed = values
        object.committedToOne = targets
        object.isFault = false
        object.batch = nil
        object.forgetPrefetched()
        holdRow(object)
        awake(fromFetch: object)
    }

    /// Runs `load`, counting the objects whose values it loaded as faulted.
    func countingFaulted(_ load: () throws -> Void) rethrows {
        let loadedBefore = objectWork.awakeFromFetch
        defer { objectWork.faulted += objectWork.awakeFromFetch - loadedBefore }
        try load()
    }

    /// `awakeFromFetch`, sent to an object whose values were just loaded.
    @inline(__always)
    func awake(fromFetch object: ManagedObject) {
        object.entity.lifecycle.awakeFromFetch(object)
        objectWork.awakeFromFetch += 1
    }

    /// Points a fault's to-ones at the registered objects (or new faults) for the keys of its
    /// row, `key(i)` for to-one `i` (of the entity `entityID(i)` names, when the destination has
    /// sub-entities and the row says which), joining their inverse to-manys. Returns the targets' IDs.
    func linkToOnes(of object: ManagedObject, entityID: (Int) -> Int? = { _ in nil }, key: (Int) -> Int64?)
        -> [ManagedObjectID?]
    {
        var targets: [ManagedObjectID?] = []
        targets.reserveCapacity(object.entity.toOne.count)
        for (i, rel) in object.entity.toOne.enumerated() {
            guard let primaryKey = key(i) else {
                targets.append(nil)
                continue
            }
            let runtime = persistentStoreCoordinator.model.runtime
            let target = self.object(primaryKey: primaryKey, entity: runtime[(entityID(i) ?? rel.destination) - 1])
            targets.append(target.objectID)
            object.toOne[i] = target
            if let inverse = rel.inverseToMany { target.addMember(object, toMany: inverse) }
        }
        return targets
    }

    /// Reads one row by key (one query) and registers it; nil when there is no such row. A fault
    /// it fills is logged as Core Data logs one (`fault fulfilled from database for : …`).
    func fetchRow(entity: Entity, primaryKey: Int64) throws -> ManagedObject? {
        try persistentStoreCoordinator.performRead { connection in
            let s = try connection.statement(entity.selectRows(entity.readColumns, where: "Z_PK", "= ?"))
            s.bind(primaryKey, at: 1)
            defer { flushRowCache() }
            guard try s.step() else {
                s.reset()
                return nil
            }
            // Only a fault comes here (a fire, `existingObject(with:)` of one not loaded).
            let object = materialize(s, entity: entity)
            s.reset()
            SQLDebugLog.note(
                "fault fulfilled from database for : <\(object.objectID.uriRepresentation)>", on: connection.db)
            return object
        }
    }

    // MARK: Faults

    /// Fills a fault: one query for it alone, or one for its whole fetch batch. A row that no
    /// longer exists, or a store that cannot be read, traps as Core Data raises ("could not
    /// fulfill a fault"): a property read has no way to report an error.
    func fireFault(_ object: ManagedObject) {
        guard object.isFault else { return }
        let loadedBefore = objectWork.awakeFromFetch
        defer { objectWork.faulted += objectWork.awakeFromFetch - loadedBefore }
        do {
            if let batch = object.batch {
                batch.walk.leave(for: batch, in: self)
                try load(batch.members.filter(\.isFault), entity: object.entity)
                for member in batch.members { member.batch = nil }
            } else if objectFromRowCache(entity: object.entity, primaryKey: object.objectID.primaryKey ?? -1) == nil {
                _ = try fetchRow(entity: object.entity, primaryKey: object.objectID.primaryKey ?? -1)
            }
        } catch {
            preconditionFailure("could not fulfill a fault for \(object.objectID): \(error)")
        }
        precondition(!object.isFault, "could not fulfill a fault for \(object.objectID): the row is gone")
    }

    /// Loads faults of one entity with `Z_PK IN (…)`, 500 keys per query; on `transaction`
    /// when given (a save's write transaction, which holds the writer), else on a reader.
    func load(_ faults: [ManagedObject], entity: Entity, on transaction: Connection? = nil) throws {
        var start = 0
        while start < faults.count {
            let chunk = faults[start..<min(faults.count, start + 500)]
            start += chunk.count
            let sql = entity.selectRows(
                entity.readColumns, where: "Z_PK", "IN (" + CompiledPredicate.placeholders(chunk.count) + ")")
            func read(_ connection: Connection) throws {
                let s = try connection.statement(sql)
                for (i, o) in chunk.enumerated() { s.bind(o.objectID.primaryKey ?? -1, at: Int32(i + 1)) }
                while try s.step() { _ = materialize(s, entity: entity) }
                s.reset()
            }
            if let transaction { try read(transaction) } else { try persistentStoreCoordinator.performRead(read) }
        }
        flushRowCache()
    }

    private func groupFaults(_ objects: [ManagedObject], size: Int) {
        var start = 0
        let walk = BatchWalk()
        while start < objects.count {
            let slice = Array(objects[start..<min(objects.count, start + size)]).filter(\.isFault)
            let batch = FaultBatch(slice, walk: walk)
            for o in slice { o.batch = batch }
            start += size
        }
    }

    /// Turns an unchanged object back into a fault: its values and its place in its related
    /// objects' to-manys are given up, to be read again when touched. Objects with unsaved
    /// changes stay as they are.
    func turnIntoFault(_ o: ManagedObject) {
        guard !o.isFault, o.changed.isEmpty, !o.isInserted, !o.isDeleted, o.managedObjectContext === self else {
            return
        }
        releaseRow(o)
        for (i, rel) in o.entity.toOne.enumerated() {
            if let inverse = rel.inverseToMany { o.toOne[i]?.removeMember(o, toMany: inverse) }
            o.toOne[i] = nil
        }
        o.values = []
        o.committed = nil
        o.committedToOne = nil
        o.isFault = true
        o.forgetPrefetched()
    }

    // MARK: Relationships

    /// Loads every member of a to-many from the store (one query) and merges them with the
    /// members set in memory.
    func loadToMany(of object: ManagedObject, index: Int) {
        let loadedBefore = objectWork.awakeFromFetch
        defer { objectWork.faulted += objectWork.awakeFromFetch - loadedBefore }
        let rel = object.entity.toMany[index]
        let destination = persistentStoreCoordinator.model.runtime[rel.destination - 1]
        if destination.toOne[rel.inverseToOne].orderKeyColumn != nil {
            return loadOrderedMembers(of: object, index: index)
        }
        object.markLoaded(toMany: index)
        guard let pk = object.objectID.primaryKey else { return }
        let column = destination.toOne[rel.inverseToOne].column
        do {
            try persistentStoreCoordinator.performRead { connection in
                let s = try connection.statement(destination.selectRows(destination.readColumns, where: column, "= ?"))
                s.bind(pk, at: 1)
                while try s.step() {
                    let member = materialize(s, entity: destination)
                    // In memory the member may point elsewhere now; memory wins.
                    if member.toOne.indices.contains(rel.inverseToOne), member.toOne[rel.inverseToOne] === object {
                        object.addMember(member, toMany: index)
                    }
                }
                s.reset()
            }
            flushRowCache()
        } catch {
            preconditionFailure("could not fulfill the to-many fault \(object.entity.name).\(rel.name): \(error)")
        }
    }

    /// `relationshipKeyPathsForPrefetching`: one query per key path for all results at once.
    private func prefetch(_ path: String, of results: [ManagedObject], entity: Entity) throws {
        if let i = entity.toOneIndex(path) {
            let destination = persistentStoreCoordinator.model.runtime[entity.toOne[i].destination - 1]
            var seen = Set<ObjectIdentifier>()
            let faults = results.compactMap { $0.isFault ? nil : $0.toOne[i] }.filter {
                $0.isFault && seen.insert(ObjectIdentifier($0)).inserted
            }
            let loadedBefore = objectWork.awakeFromFetch
            try load(faults, entity: destination)
            objectWork.fetched += objectWork.awakeFromFetch - loadedBefore
        } else if let i = entity.toManyIndex(path) {
            let rel = entity.toMany[i]
            let parents = results.filter {
                !$0.isFault && $0.objectID.primaryKey != nil && !$0.loadedToMany.contains(i)
            }
            guard !parents.isEmpty else { return }
            let destination = persistentStoreCoordinator.model.runtime[rel.destination - 1]
            let column = destination.toOne[rel.inverseToOne].column
            let sql = destination.selectRows(
                destination.readColumns, where: column,
                "IN (" + CompiledPredicate.placeholders(parents.count) + ")")
            try persistentStoreCoordinator.performRead { connection in
                let s = try connection.statement(sql)
                for (j, p) in parents.enumerated() { s.bind(p.objectID.primaryKey!, at: Int32(j + 1)) }
                while try s.step() {
                    _ = materialize(s, entity: destination)
                    objectWork.fetched += 1
                }
                s.reset()
            }
            for p in parents { p.markLoaded(toMany: i) }
        } else {
            throw ContextError.unknownKey(path, entity: entity.name)
        }
    }

    // MARK: Pending changes

    /// Unsaved objects that may match: for `attribute == value` (alone or in an AND) the objects
    /// the pending index files under that value, otherwise every updated and inserted object (in
    /// that order).
    private func forEachPendingCandidate(for predicate: PendingMatcher, entity: Entity, _ body: (ManagedObject) -> Void)
    {
        guard let (attribute, value) = predicate.indexableEquality,
            Self.filesExactly(value, entity.attributes[attribute].type),
            insertedList.count + updatedList.count > 32
        else {
            pendingObjectsExamined += updatedList.count + insertedList.count
            updatedList.forEach(body)
            insertedList.forEach(body)
            return
        }
        if pendingIndex?.entity != entity.id || pendingIndex?.attribute != attribute {
            pendingIndex = PendingIndex(entity: entity.id, attribute: attribute)
        }
        pendingObjectsExamined += pendingIndex!.catchUp(inserted: insertedList, updated: updatedList)
        let candidates = pendingIndex!.candidates(value)
        pendingObjectsExamined += candidates.count
        candidates.forEach(body)
    }

    /// Whether unsaved objects filed by `value` (Value's Hashable) are every object the predicate's
    /// comparison could match: a text, an integer or bytes compared with an attribute that stores
    /// that kind. (A number of another kind, 5 against 5.0, compares equal but files apart.)
    private static func filesExactly(_ value: Value, _ type: AttributeType) -> Bool {
        switch (value, type.storage) {
        case (.string, .text), (.integer, .integer), (.data, .bytes): return true
        default: return false
        }
    }

    /// Core Data's fetches see the context's unsaved work: inserted objects that match join the
    /// results, deleted ones leave, changed ones are judged by their in-memory values.
    private func applyPendingChanges(_ fetched: [ManagedObject], request: FetchRequest, entity: Entity) throws
        -> [ManagedObject]
    {
        let predicate = try PendingMatcher(request.predicate, entity: entity)
        var seen = Set<ObjectIdentifier>()
        var out: [ManagedObject] = []
        for o in fetched where !o.isDeleted {
            if !o.changed.isEmpty && !o.isFault && !predicate.matches(o) { continue }
            if seen.insert(ObjectIdentifier(o)).inserted { out.append(o) }
        }
        forEachPendingCandidate(for: predicate, entity: entity) { o in
            guard o.entity === entity, !o.isFault, o.isInserted || o.isUpdated, predicate.matches(o) else { return }
            if seen.insert(ObjectIdentifier(o)).inserted { out.append(o) }
        }
        if !request.sortDescriptors.isEmpty && out.count > 1 {
            for o in out where o.isFault { fireFault(o) }
            let order = ObjectOrder(request, entity: entity)
            out.sort(by: order.precedes)
        }
        if request.fetchOffset > 0 { out.removeFirst(min(request.fetchOffset, out.count)) }
        if request.fetchLimit > 0 && out.count > request.fetchLimit { out.removeLast(out.count - request.fetchLimit) }
        return out
    }
}
