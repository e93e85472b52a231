import Foundation
import SQLiteKit

/// Writes persistent history inside the write transaction that made the changes, as Core Data's
/// `NSSQLiteConnection` does (`processSaveRequest:`, after the rows and the constrained values):
/// the transaction's strings first (interned once per connection), one ATRANSACTION row, then
/// one ACHANGE row per inserted, updated or deleted object.
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
        let keys = [try key(author, connection), try key(bundleID, connection), try key(contextName, connection),
                    try key(processID, connection)]
        let s = try connection.statement(HistorySchema.insertTransaction)
        for (i, k) in keys.enumerated() {
            if let k { s.bind(k, at: Int32(i + 1)) } else { s.bindNull(at: Int32(i + 1)) }
        }
        s.bind(Date().timeIntervalSinceReferenceDate, at: 5)
        try s.run()
        transactions += 1
        return HistoryWrite(transaction: connection.db.lastInsertRowID,
                            insertChange: try connection.statement(HistorySchema.insertChange))
    }

    /// One ACHANGE row. `changedColumns` (updates only) is the entity's mask of changed
    /// attributes (bit i) and to-ones (bit 32 + i); it is stored as Core Data stores it, a bit
    /// per column in column order (to-ones, then attributes), least significant bit first.
    func record(_ type: HistorySchema.ChangeType, entity: Entity, primaryKey: Int64, changedColumns: UInt64?,
                in write: HistoryWrite) throws {
        let s = write.insertChange
        s.bind(type.rawValue, at: 1)
        s.bind(entity.id, at: 2)
        s.bind(primaryKey, at: 3)
        s.bind(write.transaction, at: 4)
        if let changedColumns {
            fillColumns(changedColumns, entity: entity)
            columns.withUnsafeBytes { s.bindBlob($0, at: 5) }
        } else {
            s.bindNull(at: 5)
        }
        try s.run()
        changes += 1
    }

    /// One ACHANGE row per row of `entity` matching `whereSQL`, in one `INSERT … SELECT`, for a
    /// batch update or delete (run before the statement it records; `whereSQL` empty: every row).
    func recordMatching(_ type: HistorySchema.ChangeType, entity: Entity, changedColumns: UInt64?, whereSQL: String,
                        bindings: [Value], in write: HistoryWrite, _ connection: Connection) throws {
        // The transaction and the mask are bound, in a one-row subquery that comes before the
        // predicate's parameters: the text is the same for every request of one shape, so the
        // statement is prepared once.
        let sql = "INSERT INTO \(HistorySchema.changeTable) (Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, "
            + "ZCOLUMNS) SELECT \(HistorySchema.changeEntity), 1, \(type.rawValue), \(entity.id), Z_PK, h.id, h.mask "
            + "FROM (SELECT ? AS id, ? AS mask) h, \(entity.tableName)" + (whereSQL.isEmpty ? "" : " WHERE " + whereSQL)
        let s = try connection.statement(sql)
        s.bind(write.transaction, at: 1)
        if let changedColumns {
            fillColumns(changedColumns, entity: entity)
            columns.withUnsafeBytes { s.bindBlob($0, at: 2) }
        } else {
            s.bindNull(at: 2)
        }
        for (i, v) in bindings.enumerated() { s.bind(v, at: Int32(i + 3)) }
        try s.run()
        changes += connection.db.changes
    }

    /// The write rolled back: strings it interned are gone with it.
    func rolledBack() { stringKeys.removeAll() }

    private func key(_ string: String?, _ connection: Connection) throws -> Int64? {
        guard let string else { return nil }
        if let k = stringKeys[string] { return k }
        let insert = try connection.statement(HistorySchema.insertString)
        insert.bind(string, at: 1)
        try insert.run()
        let select = try connection.statement(HistorySchema.selectString)
        select.bind(string, at: 1)
        defer { select.reset() }
        guard try select.step() else { throw SQLiteError(code: .error, message: "transaction string '\(string)' was not stored") }
        let k = Int64(select.int(at: 0))
        stringKeys[string] = k
        return k
    }

    private func fillColumns(_ mask: UInt64, entity: Entity) {
        let count = entity.toOne.count + entity.attributes.count
        columns.removeAll(keepingCapacity: true)
        columns.append(contentsOf: repeatElement(0, count: (count + 7) / 8))
        func set(_ bit: Int) { columns[bit / 8] |= UInt8(1) << UInt8(bit % 8) }
        for i in entity.toOne.indices where mask & (1 << UInt64(32 + i)) != 0 { set(i) }
        for i in entity.attributes.indices where mask & (1 << UInt64(i)) != 0 { set(entity.toOne.count + i) }
    }
}

/// One write's history transaction: its `Z_PK`, and the change INSERT its rows reuse (prepared
/// once per write, not looked up by its text per row).
struct HistoryWrite {
    let transaction: Int64
    fileprivate let insertChange: Statement
}

