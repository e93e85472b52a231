import SQLiteKit

/// The fetches that return less than whole objects: faults pre-populated with some properties
/// (`propertiesToFetch`), object IDs (`.managedObjectIDResultType`) and dictionaries
/// (`.dictionaryResultType`), as list screens, searches and exports use them.
extension ManagedObjectContext {
    // MARK: Object IDs

    /// `resultType = .managedObjectIDResultType` with `includesPropertyValues = false`: the
    /// matching rows' IDs, `SELECT 0, t0.Z_PK …` (`t0.Z_ENT` where the table is shared), no
    /// object made or registered, nothing cached.
    /// Reads the store only (the context's unsaved objects are not looked at).
    package func fetchObjectIDs(_ request: FetchRequest) throws -> [ManagedObjectID] {
        assertOnQueue()
        let entity = try self.entity(named: request.entityName)
        let compiled = try CompiledPredicate(request.predicate, entity: entity, table: CompiledPredicate.fetchAlias)
        let sql = try selectSQL(entity.keyOnlyColumns, from: entity, request, compiled, limited: true)
        let store = persistentStoreCoordinator.storeIndex
        return try persistentStoreCoordinator.performRead { connection in
            let s = try connection.statement(sql)
            for (i, v) in compiled.bindings.enumerated() { s.bind(v, at: Int32(i + 1)) }
            var out: [ManagedObjectID] = []
            while try s.step() {
                let entityID = rowEntity(s, entity, at: RowColumn.entity).id
                out.append(
                    ManagedObjectID(store: store, entityID: entityID, primaryKey: Int64(s.int(at: RowColumn.key))))
            }
            s.reset()
            return out
        }
    }

    // MARK: Dictionaries

    /// `resultType = .dictionaryResultType` with `propertiesToFetch`: one dictionary per row,
    /// keyed by the names as given, no managed object made or registered. A to-one's key path
    /// (`category.name`) joins the destination's table, `LEFT OUTER JOIN … ON t0.<FK> = t1.Z_PK`
    /// as Core Data's SQL reads a relationship's table. Reads the store only (Apple: pending
    /// changes are not supported with dictionary results).
    /// `.dictionaryResultType` with the evaluated object's ID beside `propertiesToFetch` (the key
    /// cache of "Implementing Find-or-Create Efficiently": every key and its object ID, fetched
    /// once, no object made): each row's object ID and its values in `propertiesToFetch` order.
    package func fetchObjectIDsAndValues(_ request: FetchRequest) throws -> [(id: ManagedObjectID, values: [Value])] {
        assertOnQueue()
        let entity = try self.entity(named: request.entityName)
        let select = try DictionarySelect(entity, request, model: persistentStoreCoordinator.model, objectIDs: true)
        let store = persistentStoreCoordinator.storeIndex
        return try persistentStoreCoordinator.performRead { connection in
            let s = try connection.statement(select.sql)
            for (i, v) in select.bindings.enumerated() { s.bind(v, at: Int32(i + 1)) }
            var out: [(id: ManagedObjectID, values: [Value])] = []
            while try s.step() {
                let id = ManagedObjectID(store: store, entityID: s.int(at: 0), primaryKey: Int64(s.int(at: 1)))
                out.append((id, select.keys.enumerated().map { s.value(at: Int32($0 + 2), as: $1.type) }))
            }
            s.reset()
            return out
        }
    }

    package func fetchDictionaries(_ request: FetchRequest) throws -> [[String: Value]] {
        assertOnQueue()
        let entity = try self.entity(named: request.entityName)
        let select = try DictionarySelect(entity, request, model: persistentStoreCoordinator.model)
        return try persistentStoreCoordinator.performRead { connection in
            let s = try connection.statement(select.sql)
            for (i, v) in select.bindings.enumerated() { s.bind(v, at: Int32(i + 1)) }
            var out: [[String: Value]] = []
            while try s.step() {
                var row: [String: Value] = Dictionary(minimumCapacity: select.keys.count)
                for (i, key) in select.keys.enumerated() { row[key.name] = s.value(at: Int32(i), as: key.type) }
                out.append(row)
            }
            s.reset()
            return out
        }
    }

    // MARK: Faults pre-populated with some properties

    /// Registers the row `s` is on (columns as `partial.columns`) as a fault holding the named
    /// properties. A registered object that is no fault keeps its state, as a full fetch does.
    func prepopulate(_ s: Statement, entity: Entity, _ partial: PartialRow) -> ManagedObject {
        let rowEntity = entity.hasSubentities ? rowEntity(s, entity, at: RowColumn.entity) : entity
        let o = object(primaryKey: Int64(s.int(at: RowColumn.key)), entity: rowEntity)
        guard o.isFault else { return o }
        if o.prefetched.isEmpty { o.prefetched = Array(repeating: .null, count: rowEntity.attributes.count) }
        for (i, column) in partial.attributes { o.prefetched[i] = s.value(at: column, as: entity.attributes[i].type) }
        if !rowEntity.externalAttributes.isEmpty {
            rowEntity.decodeExternal(&o.prefetched, persistentStoreCoordinator.externalStorage)
        }
        let runtime = persistentStoreCoordinator.model.runtime
        for t in partial.toOnes {
            guard !s.isNull(at: t.column) else {
                o.toOne[t.index] = nil
                continue
            }
            let destination = t.entityKey.map { s.int(at: $0) } ?? entity.toOne[t.index].destination
            o.toOne[t.index] = object(primaryKey: Int64(s.int(at: t.column)), entity: runtime[destination - 1])
        }
        o.prefetchedMask.formUnion(partial.mask)
        o.version = Int64(s.int(at: RowColumn.version))
        return o
    }
}

/// The columns a fetch with `propertiesToFetch` reads (the entity, `t0.Z_PK, t0.Z_OPT` as
/// `RowColumn` places them, then each named property's columns) and where each lands.
struct PartialRow {
    let columns: String
    let attributes: [(index: Int, column: Int32)]
    let toOnes: [(index: Int, column: Int32, entityKey: Int32?)]
    /// The properties' positions, as `ManagedObject.prefetchedMask` holds them.
    let mask: PropertyMask

    init(_ entity: Entity, properties: [String]) throws {
        var names = [entity.entityColumn, "t0.Z_PK", "t0.Z_OPT"]
        var attributes: [(Int, Int32)] = []
        var toOnes: [(Int, Int32, Int32?)] = []
        var mask = PropertyMask()
        for property in properties {
            if let i = entity.attributeIndex(property) {
                attributes.append((i, Int32(names.count)))
                names.append("t0." + entity.attributeColumns[i])
                mask.insert(i)
            } else if let i = entity.toOneIndex(property) {
                let rel = entity.toOne[i]
                let entityKey = rel.entityKeyColumn.map { _ in Int32(names.count + 1) }
                toOnes.append((i, Int32(names.count), entityKey))
                names.append("t0." + rel.column)
                if let ek = rel.entityKeyColumn { names.append("t0." + ek) }
                mask.insert(entity.toOnePosition(i))
            } else {
                throw ContextError.unknownKey(property, entity: entity.name)
            }
        }
        columns = names.joined(separator: ", ")
        self.attributes = attributes
        self.toOnes = toOnes
        self.mask = mask
    }
}

/// The SELECT of a dictionary fetch: the named attributes of `t0`, and of `t1`, `t2`, … for each
/// to-one a key path goes through (one join per relationship, however many of its attributes).
struct DictionarySelect {
    let sql: String
    let bindings: [Value]
    let keys: [(name: String, type: AttributeType)]

    /// With `objectIDs`, each row also reads `t0.Z_ENT, t0.Z_PK` first: the evaluated object
    /// (`NSExpressionDescription` of `NSExpression.expressionForEvaluatedObject()`, an object-ID
    /// result), as an import's key cache asks it.
    init(_ entity: Entity, _ request: FetchRequest, model: ManagedObjectModel, objectIDs: Bool = false) throws {
        guard let properties = request.propertiesToFetch, !properties.isEmpty else {
            throw ContextError.unknownKey(
                "propertiesToFetch (a dictionary fetch names what it reads)", entity: entity.name)
        }
        var columns: [String] = objectIDs ? ["t0.Z_ENT", "t0.Z_PK"] : []
        var keys: [(String, AttributeType)] = []
        var joins: [(toOne: Int, alias: String)] = []
        for property in properties {
            let parts = property.split(separator: ".", maxSplits: 1).map(String.init)
            if parts.count == 1, let i = entity.attributeIndex(property) {
                columns.append("t0." + entity.attributeColumns[i])
                keys.append((property, entity.attributes[i].type))
                continue
            }
            guard parts.count == 2, let r = entity.toOneIndex(parts[0]) else {
                throw ContextError.unknownKey(property, entity: entity.name)
            }
            let destination = model.runtime[entity.toOne[r].destination - 1]
            guard let a = destination.attributeIndex(parts[1]) else {
                throw ContextError.unknownKey(parts[1], entity: destination.name)
            }
            let alias = joins.first { $0.toOne == r }?.alias ?? "t\(joins.count + 1)"
            if !joins.contains(where: { $0.toOne == r }) { joins.append((r, alias)) }
            columns.append("\(alias).\(destination.attributeColumns[a])")
            keys.append((property, destination.attributes[a].type))
        }
        var sql = "SELECT \(columns.joined(separator: ", ")) FROM \(entity.tableName) t0"
        for (r, alias) in joins {
            let destination = model.runtime[entity.toOne[r].destination - 1]
            sql += " LEFT OUTER JOIN \(destination.tableName) \(alias) ON t0.\(entity.toOne[r].column) = \(alias).Z_PK"
        }
        // The predicate's columns are the entity's own: named through t0 (a joined table may
        // have a column of the same name).
        let compiled = try CompiledPredicate(request.predicate, entity: entity, table: "t0")
        if !compiled.sql.isEmpty { sql += " WHERE " + compiled.sql }
        if !request.sortDescriptors.isEmpty {
            sql +=
                " ORDER BY "
                + (try request.sortDescriptors.map {
                    "t0." + (try CompiledPredicate.column($0.key, entity)) + ($0.ascending ? "" : " DESC")
                }).joined(separator: ", ")
        }
        if request.fetchLimit > 0 {
            sql += " LIMIT \(request.fetchLimit)"
        } else if request.fetchOffset > 0 {
            sql += " LIMIT -1"
        }
        if request.fetchOffset > 0 { sql += " OFFSET \(request.fetchOffset)" }
        self.sql = sql
        bindings = compiled.bindings
        self.keys = keys
    }
}
