import SQLiteKit

/// Where a consumer of persistent history stands: the number of the last transaction it has
/// seen (`NSPersistentHistoryToken`). Tokens compare in commit order.
package struct HistoryToken: Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
    package let transactionNumber: Int64
    package init(transactionNumber: Int64) { self.transactionNumber = transactionNumber }
    package static func < (a: HistoryToken, b: HistoryToken) -> Bool { a.transactionNumber < b.transactionNumber }
    package var description: String { "<history token \(transactionNumber)>" }
}

/// One changed object of a history transaction (`NSPersistentHistoryChange`).
package struct HistoryChange: Sendable, Equatable {
    package let changeType: HistorySchema.ChangeType
    package let changedObjectID: ManagedObjectID
    /// For an update: the changed columns' mask as stored (a bit per column, to-ones first).
    package let updatedColumns: [UInt8]?
}

/// One save or batch request as history recorded it (`NSPersistentHistoryTransaction`).
package struct HistoryTransaction: Sendable {
    package let token: HistoryToken
    /// Seconds since 2001-01-01 (`NSDate`'s reference date), when the write committed.
    package let timestamp: Double
    package let author: String?
    package let contextName: String?
    package internal(set) var changes: [HistoryChange]

    /// The transaction as a did-save notification holding object IDs only, to merge into a
    /// context with `mergeChanges(fromContextDidSave:)` (`objectIDNotification()`): the
    /// context refetches what it shows, since history records no values.
    package func objectIDNotification() -> DidSaveNotification {
        var inserted: [ManagedObjectID] = []
        var updated: [ManagedObjectID] = []
        var deleted: [ManagedObjectID] = []
        for change in changes {
            switch change.changeType {
            case .insert: inserted.append(change.changedObjectID)
            case .update: updated.append(change.changedObjectID)
            case .delete: deleted.append(change.changedObjectID)
            }
        }
        return DidSaveNotification(
            insertedObjectIDs: inserted, updatedObjectIDs: updated, deletedObjectIDs: deleted,
            states: [], sourceContext: -1)
    }
}

/// `NSPersistentHistoryChangeRequest`: fetch the transactions after a token, or delete those
/// before one.
package struct PersistentHistoryChangeRequest: Sendable {
    enum Kind: Sendable {
        case fetch(after: HistoryToken?)
        case delete(before: HistoryToken)
    }

    let kind: Kind

    /// Every transaction committed after `token` (all of them for nil), oldest first, each
    /// with its changes.
    package static func fetchHistory(after token: HistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(kind: .fetch(after: token))
    }

    /// Deletes the transactions (and their changes) committed before `token`'s; `token`'s own
    /// stays. An app passes the oldest token every consumer has reached.
    package static func deleteHistory(before token: HistoryToken) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(kind: .delete(before: token))
    }
}

/// What a history request returned.
package enum PersistentHistoryResult: Sendable {
    case transactions([HistoryTransaction])
    /// Transactions deleted.
    case deleted(Int)

    package var transactions: [HistoryTransaction] {
        if case .transactions(let t) = self { return t }
        return []
    }
}

/// A history request on a store opened without `--history` (NSPersistentHistoryTrackingKey).
package struct HistoryTrackingOff: Error, CustomStringConvertible {
    package var description: String {
        "persistent history tracking is off for this store (open it with history tracking)"
    }
}

extension ManagedObjectContext {
    /// Runs a history request on the store: a fetch on a reader connection, a delete in a write
    /// transaction.
    package func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        assertOnQueue()
        let coordinator = persistentStoreCoordinator
        guard coordinator.options.persistentHistoryTracking else { throw HistoryTrackingOff() }
        switch request.kind {
        case .fetch(let token):
            return .transactions(try coordinator.performRead { try fetchHistory(after: token, $0) })
        case .delete(let token):
            return .deleted(
                try coordinator.performWrite { connection in
                    let changes = try connection.statement(
                        "DELETE FROM \(HistorySchema.changeTable) WHERE ZTRANSACTIONID < ?")
                    changes.bind(token.transactionNumber, at: 1)
                    try changes.run()
                    let transactions = try connection.statement(
                        "DELETE FROM \(HistorySchema.transactionTable) WHERE Z_PK < ?")
                    transactions.bind(token.transactionNumber, at: 1)
                    try transactions.run()
                    return connection.db.changes
                })
        }
    }

    private func fetchHistory(after token: HistoryToken?, _ connection: Connection) throws -> [HistoryTransaction] {
        let after = token?.transactionNumber ?? 0
        let t = try connection.statement(
            "SELECT t.Z_PK, t.ZTIMESTAMP, a.ZNAME, c.ZNAME FROM \(HistorySchema.transactionTable) t "
                + "LEFT JOIN \(HistorySchema.stringTable) a ON a.Z_PK = t.ZAUTHORTS "
                + "LEFT JOIN \(HistorySchema.stringTable) c ON c.Z_PK = t.ZCONTEXTNAMETS WHERE t.Z_PK > ? ORDER BY t.Z_PK"
        )
        t.bind(after, at: 1)
        var transactions: [HistoryTransaction] = []
        var index: [Int64: Int] = [:]
        while try t.step() {
            let number = Int64(t.int(at: 0))
            index[number] = transactions.count
            transactions.append(
                HistoryTransaction(
                    token: HistoryToken(transactionNumber: number), timestamp: t.double(at: 1),
                    author: t.text(at: 2), contextName: t.text(at: 3), changes: []))
        }
        t.reset()
        guard !transactions.isEmpty else { return [] }
        let c = try connection.statement(
            "SELECT ZTRANSACTIONID, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZCOLUMNS FROM \(HistorySchema.changeTable) "
                + "WHERE ZTRANSACTIONID > ? AND ZTRANSACTIONID <= ? ORDER BY ZTRANSACTIONID, Z_PK")
        c.bind(after, at: 1)
        c.bind(transactions.last!.token.transactionNumber, at: 2)
        let store = persistentStoreCoordinator.storeIndex
        while try c.step() {
            guard let i = index[Int64(c.int(at: 0))], let type = HistorySchema.ChangeType(rawValue: c.int(at: 1)) else {
                continue
            }
            let id = ManagedObjectID(store: store, entityID: c.int(at: 2), primaryKey: Int64(c.int(at: 3)))
            transactions[i].changes.append(
                HistoryChange(changeType: type, changedObjectID: id, updatedColumns: c.blob(at: 4)))
        }
        c.reset()
        return transactions
    }
}
