import Foundation
import SQLiteKit

/// Writes persistent history inside the write transaction that made the changes, as Core Data's
/// `NSSQLiteConnection` does (`processSaveRequest:`, after the rows and the constrained values):
/// the transaction's strings first (interned once per connection), one ATRANSACTION row, then
/// one ACHANGE row per inserted, updated or deleted object. Every row's key is reserved in
/// `Z_PRIMARYKEY` (`SELECT Z_MAX` + `UPDATE OR FAIL`): one reservation for the transaction,
/// one per new string, one per group of changes of one type.
///
/// `@unchecked Sendable`: its caches are used only inside a write transaction, which holds the
/// coordinator's writer lock; nothing else touches them.
final class HistoryRecorder: @unchecked Sendable {
    /// `Z_PK` of each string already in ATRANSACTIONSTRING, so that a save interns its author
    /// and context name without a query once they are known.
    private var stringKeys: [String: Int64] = [:]
    /// The changed-columns mask of one change, reused.
    private var columns: [UInt8] = []
    /// What Core Data records as the bundle ID and process ID of every transaction.
    private let bundleID = "loadgen"
    private let processID = String(ProcessInfo.processInfo.processIdentifier)

    /// Transactions and changes recorded since the coordinator opened.
    private(set) var transactions = 0
    private(set) var changes = 0

    /// Starts a history transaction for the write in progress: its `Z_PK` is the number every
    /// change row of the write refers to (and the token consumers fetch after).
    func begin(author: String?, contextName: String?, _ connection: Connection) throws -> HistoryWrite {
        let keys = [
            try key(author, connection), try key(bundleID, connection), try key(contextName, connection),
            try key(processID, connection),
        ]
        let transaction = try reserve([(HistorySchema.transactionEntity, 1)], connection)[
            HistorySchema.transactionEntity]!
        let s = try connection.statement(HistorySchema.insertTransaction)
        s.bind(transaction, at: 1)
        for (i, k) in keys.enumerated() {
            if let k { s.bind(k, at: Int32(i + 2)) } else { s.bindNull(at: Int32(i + 2)) }
        }
        s.bind(Date().timeIntervalSinceReferenceDate, at: 6)
        try s.run()
        transactions += 1
        return HistoryWrite(
            transaction: transaction, insertChange: try connection.statement(HistorySchema.insertChange))
    }

    /// Reserves the keys of the next `count` change rows, as Core Data does once per change type
    /// (`insertChanges:type:transactionID:context:`).
    func reserveChanges(_ count: Int, in write: HistoryWrite, _ connection: Connection) throws {
        guard count > 0 else { return }
        write.nextKey = try reserve([(HistorySchema.changeEntity, count)], connection)[HistorySchema.changeEntity]!
        write.keysLeft = count
    }

    /// One ACHANGE row. `changedColumns` (updates only) is the entity's mask of changed
    /// attributes and to-ones (`PropertyMask`) and to-manys (`toMany`, by index); it is stored a
    /// bit per property in column order (to-ones, then attributes), then the to-manys, least
    /// significant bit first. Its key comes from `reserveChanges` (or `block` more when none
    /// is left: a batch insert's changes).
    func record(
        _ type: HistorySchema.ChangeType, entity: Entity, primaryKey: Int64, changedColumns: PropertyMask?,
        toMany: PropertyMask = PropertyMask(), in write: HistoryWrite, block: Int = 1, _ connection: Connection
    ) throws {
        if write.keysLeft == 0 { try reserveChanges(block, in: write, connection) }
        let s = write.insertChange
        s.bind(write.nextKey, at: 1)
        s.bind(type.rawValue, at: 2)
        s.bind(entity.id, at: 3)
        s.bind(primaryKey, at: 4)
        s.bind(write.transaction, at: 5)
        bindMask(changedColumns, toMany: toMany, entity: entity, to: s, at: 6)
        try s.run()
        write.nextKey += 1
        write.keysLeft -= 1
        changes += 1
    }

    /// One ACHANGE row per row of `entity` matching `whereSQL`, for a batch update or delete (run
    /// before the statement it records; `whereSQL` empty: every row): the rows are counted, their
    /// keys reserved, and the rows written with one `INSERT … SELECT`, numbered in key order.
    func recordMatching(
        _ type: HistorySchema.ChangeType, entity: Entity, changedColumns: PropertyMask?, whereSQL: String,
        bindings: [Value], in write: HistoryWrite, _ connection: Connection
    ) throws {
        let filter = entity.tableName + (whereSQL.isEmpty ? "" : " WHERE " + whereSQL)
        let count = try connection.statement("SELECT count(*) FROM \(filter)")
        for (i, v) in bindings.enumerated() { count.bind(v, at: Int32(i + 1)) }
        let rows = try count.step() ? Int(count.int(at: 0)) : 0
        count.reset()
        guard rows > 0 else { return }
        try reserveChanges(rows, in: write, connection)
        // The first key, the transaction and the mask are bound, in a one-row subquery that
        // comes before the predicate's parameters: the text is the same for every request of one
        // shape, so the statement is prepared once.
        let sql =
            "INSERT INTO \(HistorySchema.changeTable) (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, "
            + "ZTRANSACTIONID, ZCOLUMNS) SELECT h.first + row_number() OVER (ORDER BY Z_PK) - 1, \(HistorySchema.changeEntity), "
            + "1, \(type.rawValue), \(entity.id), Z_PK, h.id, h.mask FROM (SELECT ? AS first, ? AS id, ? AS mask) h, \(filter)"
        let s = try connection.statement(sql)
        s.bind(write.nextKey, at: 1)
        s.bind(write.transaction, at: 2)
        bindMask(changedColumns, toMany: PropertyMask(), entity: entity, to: s, at: 3)
        for (i, v) in bindings.enumerated() { s.bind(v, at: Int32(i + 4)) }
        try s.run()
        write.keysLeft = 0
        changes += connection.db.changes
    }

    /// The write rolled back: strings it interned are gone with it.
    func rolledBack() { stringKeys.removeAll() }

    private func key(_ string: String?, _ connection: Connection) throws -> Int64? {
        guard let string else { return nil }
        if let k = stringKeys[string] { return k }
        let reserved = try reserve([(HistorySchema.stringEntity, 1)], connection)[HistorySchema.stringEntity]!
        let insert = try connection.statement(HistorySchema.insertString)
        insert.bind(reserved, at: 1)
        insert.bind(string, at: 2)
        try insert.run()
        var k = reserved
        if connection.db.changes == 0 {
            // Interned by another connection: its row has the key.
            let select = try connection.statement(HistorySchema.selectString)
            select.bind(string, at: 1)
            defer { select.reset() }
            guard try select.step() else {
                throw SQLiteError(code: .error, message: "transaction string '\(string)' was not stored")
            }
            k = Int64(select.int(at: 0))
        }
        stringKeys[string] = k
        return k
    }

    /// Binds an update's column mask (`ZCOLUMNS`, see `record`), or NULL for an insert or delete.
    private func bindMask(
        _ changedColumns: PropertyMask?, toMany: PropertyMask, entity: Entity, to s: Statement, at index: Int32
    ) {
        if let changedColumns {
            fillColumns(changedColumns, toMany: toMany, entity: entity)
            columns.withUnsafeBytes { s.bindBlob($0, at: index) }
        } else {
            s.bindNull(at: index)
        }
    }

    private func fillColumns(_ mask: PropertyMask, toMany: PropertyMask, entity: Entity) {
        let count = entity.toOne.count + entity.attributes.count + entity.toMany.count
        columns.removeAll(keepingCapacity: true)
        columns.append(contentsOf: repeatElement(0, count: (count + 7) / 8))
        func set(_ bit: Int) { columns[bit / 8] |= UInt8(1) << UInt8(bit % 8) }
        for i in entity.toOne.indices where mask.contains(entity.toOnePosition(i)) { set(i) }
        for i in entity.attributes.indices where mask.contains(i) { set(entity.toOne.count + i) }
        for i in entity.toMany.indices where toMany.contains(i) {
            set(entity.toOne.count + entity.attributes.count + i)
        }
    }
}

/// One write's history transaction: its `Z_PK`, the change INSERT its rows reuse (prepared
/// once per write, not looked up by its text per row), and the change keys reserved and not yet
/// used. A class: the recorder hands out its keys one by one.
final class HistoryWrite {
    let transaction: Int64
    fileprivate let insertChange: Statement
    fileprivate var nextKey: Int64 = 0
    fileprivate var keysLeft = 0

    init(transaction: Int64, insertChange: Statement) {
        self.transaction = transaction
        self.insertChange = insertChange
    }
}
