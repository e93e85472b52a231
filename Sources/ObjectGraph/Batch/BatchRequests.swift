import SQLiteKit

/// What a batch request reports (`resultType`: `NSBatchInsertRequestResultType`,
/// `NSBatchUpdateRequestResultType`, `NSBatchDeleteRequestResultType`): whether it succeeded,
/// how many rows it changed, or their object IDs. Only the IDs cost anything beyond the
/// statement: a capture table and triggers for an insert or update, a fetch first for a delete.
package enum BatchResultType: String, Sendable, Codable, CaseIterable {
    /// `.statusOnly`: the default of all three requests.
    case statusOnly = "status"
    /// `.count` (`.updatedObjectsCountResultType`, `.resultTypeCount`).
    case count
    /// `.objectIDs` (`.updatedObjectIDsResultType`, `.resultTypeObjectIDs`): what
    /// `mergeChanges(fromRemoteContextSave:into:)` needs.
    case objectIDs = "ids"
}

/// The outcome of a batch request: rows affected, and their IDs when asked for. A batch insert
/// lists the rows it inserted (not rows an upsert updated, nor keys it ignored).
package struct BatchResult: Sendable {
    package var count = 0
    package var objectIDs: [ManagedObjectID] = []
}

/// The values of one row of a batch insert, by attribute name: the reused mutable dictionary
/// Core Data hands its `dictionaryHandler`. Names are resolved by a short scan of the entity's
/// attributes rather than by hashing, and nothing is allocated per row.
package struct BatchInsertRow {
    let entity: Entity
    var values: [Value]

    init(entity: Entity) {
        self.entity = entity
        values = entity.defaults.map { $0 }   // a buffer of its own, reused for every row
    }

    /// Back to the defaults for the next row, in the same buffer (no allocation per row).
    mutating func clear() {
        for i in values.indices { values[i] = entity.defaults[i] }
    }

    /// `row["amount"] = .double(12.5)`. Relationships cannot be set by a batch insert.
    package subscript(key: String) -> Value {
        get { values[index(key)] }
        set { values[index(key)] = newValue }
    }

    /// Sets attribute `index` (`entity.attributeIndex(_:)`).
    package subscript(index: Int) -> Value {
        get { values[index] }
        set { values[index] = newValue }
    }

    private func index(_ key: String) -> Int {
        for (i, a) in entity.attributes.enumerated() where a.name == key { return i }
        preconditionFailure("\(entity.name) has no attribute '\(key)' (batch inserts set attributes only)")
    }
}

/// `NSBatchInsertRequest`: rows straight into the store, no managed objects, no relationships,
/// no did-save notification. Keys are reserved in blocks; with a uniqueness constraint the
/// INSERT becomes `INSERT OR IGNORE` (error, store-trump and rollback policies) or an upsert
/// (`ON CONFLICT … DO UPDATE`, object-trump and overwrite).
package final class BatchInsertRequest {
    package let entityName: String
    package var resultType: BatchResultType = .statusOnly
    let handler: (inout BatchInsertRow) -> Bool

    /// Rows from a handler called until it returns true (done), as Core Data's
    /// `dictionaryHandler`: fill the row, return false to insert it and be called again.
    package init(entityName: String, dictionaryHandler: @escaping (inout BatchInsertRow) -> Bool) {
        self.entityName = entityName
        self.handler = dictionaryHandler
    }

    /// Rows from an array of dictionaries.
    package convenience init(entityName: String, objects: [[String: Value]]) {
        var next = 0
        self.init(entityName: entityName) { row in
            guard next < objects.count else { return true }
            for (k, v) in objects[next] { row[k] = v }
            next += 1
            return false
        }
    }
}

/// `NSBatchUpdateRequest`: one `UPDATE … WHERE predicate` in the store.
package struct BatchUpdateRequest: Sendable {
    package var entityName: String
    package var predicate: Predicate?
    package var propertiesToUpdate: [String: Value]
    package var resultType: BatchResultType = .statusOnly

    package init(entityName: String, predicate: Predicate? = nil, propertiesToUpdate: [String: Value]) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
    }
}

/// `NSBatchDeleteRequest`: `DELETE FROM T WHERE Z_PK IN (SELECT Z_PK … WHERE predicate)`.
package struct BatchDeleteRequest: Sendable {
    package var entityName: String
    package var predicate: Predicate?
    package var resultType: BatchResultType = .statusOnly

    package init(entityName: String, predicate: Predicate? = nil) {
        self.entityName = entityName
        self.predicate = predicate
    }
}

extension ManagedObjectContext {
    /// Keys reserved at a time by a batch insert.
    static let batchKeyBlock = 1_024

    /// Runs a batch insert in one exclusive transaction. The context's objects are not touched.
    package func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        assertOnQueue()
        let entity = try self.entity(named: request.entityName)
        let sql = batchInsertSQL(entity, policy: mergePolicy)
        let wantsIDs = request.resultType == .objectIDs
        let store = persistentStoreCoordinator.storeIndex
        let history = persistentStoreCoordinator.history
        // Object IDs come back through Core Data's capture table; without them, no triggers.
        let capture =
            wantsIDs ? ObjectIDCapture(.insert, entity: entity, attributes: Array(entity.attributes.indices)) : nil
        defer { persistentStoreCoordinator.rowCache.forgetAll() }   // an upsert updates rows
        return try persistentStoreCoordinator.performWrite { connection in
            var result = BatchResult()
            let historyWrite = try history?.begin(author: transactionAuthor, contextName: name, connection)
            try capture?.begin(connection)
            let s = try connection.statement(sql)
            var row = BatchInsertRow(entity: entity)
            var next: Int64 = 0
            var last: Int64 = -1
            while !request.handler(&row) {
                if next > last {
                    next = try reserve([(entity.rootID, Self.batchKeyBlock)], connection)[entity.rootID]!
                    last = next + Int64(Self.batchKeyBlock) - 1
                    s.reset()
                }
                try bind(row, key: next, of: entity, to: s)
                // For history, only a real insert (not an ignore, not an upsert's update) sets the
                // last inserted rowid, so it is cleared to 0 (no key is 0) first: the rowid left by
                // an earlier insert into another table may equal it.
                if historyWrite != nil { connection.db.lastInsertRowID = 0 }
                try s.run()
                result.count += connection.db.changes
                // An upsert's update of an existing row is not recorded: its key is not known
                // without reading it back.
                if let history, let historyWrite, connection.db.changes == 1, connection.db.lastInsertRowID == next {
                    try history.record(
                        .insert, entity: entity, primaryKey: next, changedColumns: nil, in: historyWrite,
                        block: Self.batchKeyBlock, connection)
                }
                next += 1
                row.clear()
            }
            if let capture { result.objectIDs = try capture.end(connection, store: store) }
            return result
        }
    }

    /// Binds one row of a batch insert under `key`; text is bound in place.
    @inline(__always)
    private func bind(_ row: BatchInsertRow, key: Int64, of entity: Entity, to s: Statement) throws {
        s.bind(key, at: 1)
        s.bind(entity.id, at: 2)
        s.bind(1, at: 3)
        var index = Int32(4)
        for _ in entity.toOne {
            s.bindNull(at: index)
            index += 1
        }
        if _slowPath(entity.hasExternalAttributes) {
            s.bind(try entity.columnValues(row.values, persistentStoreCoordinator.externalStorage)[...], from: index)
        } else {
            s.bind(row.values[...], from: index)
        }
        // No relationships: a to-one's entity and order keys stay NULL with it.
        for i in entity.keyColumns.indices { s.bindNull(at: index + Int32(row.values.count + i)) }
    }

    private func batchInsertSQL(_ e: Entity, policy: MergePolicy) -> String {
        var sql = e.insertSQL
        if let constraint = e.uniquenessConstraints.first {
            if policy == .mergeByPropertyObjectTrump || policy == .overwrite {
                let target = constraint.map { e.attributeColumns[$0] }.joined(separator: ", ")
                let sets = (e.toOne.map(\.column) + e.attributeColumns).filter { c in
                    !constraint.contains { e.attributeColumns[$0] == c } && !e.toOne.contains { $0.column == c }
                }.map { "\($0) = excluded.\($0)" }
                sql += " ON CONFLICT(\(target)) DO UPDATE SET " + (["Z_OPT = Z_OPT + 1"] + sets).joined(separator: ", ")
            } else {
                sql = sql.replacingOccurrences(of: "INSERT INTO", with: "INSERT OR IGNORE INTO")
            }
        }
        return sql
    }

    /// Runs a batch update: one statement in the store. Registered objects are not refreshed
    /// (merge the result's IDs with `mergeChanges(fromRemoteContextSave:into:)`).
    package func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        assertOnQueue()
        let entity = try self.entity(named: request.entityName)
        let compiled = try CompiledPredicate(request.predicate, entity: entity)
        let keys = request.propertiesToUpdate.keys.sorted()
        var sets: [String] = []
        for key in keys {
            guard let i = entity.attributeIndex(key) else { throw ContextError.unknownKey(key, entity: entity.name) }
            sets.append("\(entity.attributeColumns[i]) = ?")
        }
        sets.append("Z_OPT = Z_OPT + 1")
        let sql =
            "UPDATE \(entity.tableName) SET \(sets.joined(separator: ", "))"
            + (compiled.sql.isEmpty ? "" : " WHERE " + compiled.sql)
        let indexes = keys.map { entity.attributeIndex($0)! }
        let columns = PropertyMask(indexes)
        // Core Data captures the rows for their IDs, and for history when it is on.
        let wantsIDs = request.resultType == .objectIDs
        let capture =
            wantsIDs || persistentStoreCoordinator.history != nil
            ? ObjectIDCapture(.update, entity: entity, attributes: indexes) : nil
        return try run(
            sql, bindings: keys.map { request.propertiesToUpdate[$0]! } + compiled.bindings,
            entity: entity, ids: wantsIDs ? (capture.map(IDSource.capture) ?? .none) : .none,
            history: HistoryRecord(
                type: .update, columns: columns, whereSQL: compiled.sql, bindings: compiled.bindings),
            capture: capture)
    }

    /// Runs a batch delete: one statement in the store. Registered objects are not told
    /// (merge the result's IDs with `mergeChanges(fromRemoteContextSave:into:)`).
    package func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        assertOnQueue()
        let entity = try self.entity(named: request.entityName)
        let compiled = try CompiledPredicate(request.predicate, entity: entity)
        let filter = entity.tableName + (compiled.sql.isEmpty ? "" : " WHERE " + compiled.sql)
        let sql = "DELETE FROM \(entity.tableName) WHERE Z_PK IN (SELECT Z_PK FROM \(filter))"
        let triggers = try deleteTriggers(entity)
        // Asked for IDs, Core Data fetches the objects to delete first, then deletes.
        let ids: IDSource = request.resultType == .objectIDs ? .fetchFirst("SELECT Z_PK FROM \(filter)") : .none
        return try run(
            sql, bindings: compiled.bindings, entity: entity, ids: ids,
            before: triggers.map(\.create), after: triggers.map(\.drop),
            history: HistoryRecord(type: .delete, columns: nil, whereSQL: compiled.sql, bindings: compiled.bindings))
    }

    /// Where a batch update or delete gets the IDs it returns.
    private enum IDSource {
        case none
        /// The rows the statement changed, from Core Data's capture table.
        case capture(ObjectIDCapture)
        /// A fetch of the rows the statement is about to change (same bindings).
        case fetchFirst(String)
    }

    /// What a batch update or delete records in history: a change per row its predicate
    /// matches, written before the statement changes them.
    private struct HistoryRecord {
        let type: HistorySchema.ChangeType
        let columns: PropertyMask?
        let whereSQL: String
        let bindings: [Value]
    }

    /// The temporary triggers Core Data's batch delete wraps its DELETE in
    /// (`-[NSSQLiteAdapter generateTriggerForEntity:alreadyCreated:correlations:batchHistory:fragments:error:]`,
    /// decompiled iOS 18.2): `ZQ_<TABLE>_TRIGGER AFTER DELETE … FOR EACH ROW`, one fragment per
    /// relationship by its delete rule. Nullify: a to-one whose inverse is a to-many bumps the
    /// other row's `Z_OPT`; a one-to-one's other row loses its column (bumped); a to-many's members
    /// lose their foreign key (and order key) `WHERE <fk> = OLD.Z_PK`; a many-to-many's pairs go.
    /// Cascade: `DELETE FROM <destination> WHERE Z_PK = OLD.<fk>` (a to-one), `WHERE <fk> =
    /// OLD.Z_PK` (a to-many), a many-to-many's pairs with a trigger on the join table deleting
    /// each member; the destination's own rules follow by a trigger on its table. No Action:
    /// nothing. Deny, and a many-to-many side neither Nullify nor Cascade, fail the request
    /// (134060). Created before the DELETE, dropped after, in its transaction.
    private func deleteTriggers(_ e: Entity) throws -> [(create: String, drop: String)] {
        if let relationship = persistentStoreCoordinator.model.batchDeleteRefusal(of: e.name) {
            throw ContextError.unsupportedBatchDeleteRule(relationship: relationship)
        }
        var triggers: [(create: String, drop: String)] = []
        var done: Set<String> = []
        var pending = [e]
        while let entity = pending.popLast() {
            guard done.insert(entity.tableName).inserted else { continue }
            let (fragments, cascades, joins) = deleteFragments(entity)
            if !fragments.isEmpty { triggers.append(Self.trigger(on: entity.tableName, fragments)) }
            triggers += joins
            pending += cascades.filter { $0.tableName != entity.tableName }
        }
        return triggers
    }

    /// One entity's fragments, the entities its cascades reach, and its join tables' triggers.
    private func deleteFragments(_ e: Entity) -> (
        fragments: [String], cascades: [Entity], joins: [(create: String, drop: String)]
    ) {
        let model = persistentStoreCoordinator.model
        var fragments: [String] = []
        var cascades: [Entity] = []
        var joins: [(create: String, drop: String)] = []
        for r in e.toOne {
            let destination = model.runtime[r.destination - 1]
            switch r.deleteRule {
            case .noAction, .deny: continue   // a Deny was refused above (BatchDeleteRules)
            case .cascade:
                fragments.append("DELETE FROM \(destination.tableName) WHERE Z_PK = OLD.\(r.column); ")
                cascades.append(destination)
            case .nullify:
                if r.inverseToMany != nil {
                    fragments.append(
                        "UPDATE OR FAIL \(destination.tableName) SET Z_OPT = (Z_OPT + 1) WHERE Z_PK = OLD.\(r.column); "
                    )
                } else if let inverse = r.inverseToOne {
                    fragments.append(
                        "UPDATE OR FAIL \(destination.tableName) SET \(destination.toOne[inverse].column) = NULL, "
                            + "Z_OPT = (Z_OPT + 1) WHERE Z_PK = OLD.\(r.column); ")
                }
            }
        }
        for r in e.toMany {
            let destination = model.runtime[r.destination - 1]
            let fk = destination.toOne[r.inverseToOne]
            switch r.deleteRule {
            case .noAction, .deny: continue
            case .cascade:
                fragments.append("DELETE FROM \(destination.tableName) WHERE \(fk.column) = OLD.Z_PK; ")
                cascades.append(destination)
            case .nullify:
                let keys = [fk.entityKeyColumn, fk.orderKeyColumn].compactMap { $0 }.map { "\($0) = NULL, " }.joined()
                fragments.append(
                    "UPDATE OR FAIL \(destination.tableName) SET \(fk.column) = NULL, \(keys)Z_OPT = (Z_OPT + 1) "
                        + "WHERE \(fk.column) = OLD.Z_PK; ")
            }
        }
        for r in e.manyToMany {
            let destination = model.runtime[r.destination - 1]
            let inverse = destination.manyToMany[r.inverse]
            fragments.append("DELETE FROM \(r.table) WHERE \(r.ownColumn) = OLD.Z_PK; ")
            if r.deleteRule == .cascade {
                joins.append(
                    Self.trigger(
                        on: r.table, ["DELETE FROM \(destination.tableName) WHERE Z_PK = OLD.\(inverse.ownColumn); "]))
                cascades.append(destination)
            }
        }
        return (fragments, cascades, joins)
    }

    private static func trigger(on table: String, _ fragments: [String]) -> (create: String, drop: String) {
        let name = SQLIdentifier.quoted("ZQ_" + table.replacingOccurrences(of: "\"", with: "") + "_TRIGGER")
        return (
            "CREATE TEMPORARY TRIGGER IF NOT EXISTS \(name) AFTER DELETE ON \(table) FOR EACH ROW BEGIN "
                + fragments.joined() + "END", "DROP TRIGGER IF EXISTS \(name)"
        )
    }

    /// A batch update or delete in one exclusive transaction, followed by the post-save tasks
    /// (Core Data's `_executeBatchUpdateRequest` and `_executeBatchDeleteRequest` run them).
    private func run(
        _ sql: String, bindings: [Value], entity: Entity, ids: IDSource,
        before: [String] = [], after: [String] = [], history record: HistoryRecord,
        capture: ObjectIDCapture? = nil
    ) throws -> BatchResult {
        let store = persistentStoreCoordinator.storeIndex
        let history = persistentStoreCoordinator.history
        defer { persistentStoreCoordinator.rowCache.forgetAll() }
        return try persistentStoreCoordinator.performSave { connection in
            var result = BatchResult()
            if case .fetchFirst(let select) = ids {
                let s = try connection.statement(select)
                for (i, v) in bindings.enumerated() { s.bind(v, at: Int32(i + 1)) }
                while try s.step() {
                    result.objectIDs.append(
                        ManagedObjectID(store: store, entityID: entity.id, primaryKey: Int64(s.int(at: 0))))
                }
                s.reset()
            }
            if let history {
                let write = try history.begin(author: transactionAuthor, contextName: name, connection)
                try history.recordMatching(
                    record.type, entity: entity, changedColumns: record.columns, whereSQL: record.whereSQL,
                    bindings: record.bindings, in: write, connection)
            }
            try capture?.begin(connection)
            for statement in before { try connection.execute(statement) }
            defer { for statement in after { try? connection.execute(statement) } }
            let s = try connection.statement(sql)
            for (i, v) in bindings.enumerated() { s.bind(v, at: Int32(i + 1)) }
            try s.run()
            result.count = connection.db.changes
            if let capture {
                let captured = try capture.end(connection, store: store)
                if case .capture = ids { result.objectIDs = captured }
            }
            return result
        }
    }
}
