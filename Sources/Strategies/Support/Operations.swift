import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Workload

/// What an update, delete or read works on: a store filled before the timed window, and the
/// records an update or delete targets — every record dated before `cutoff`, the date below
/// which `--fraction` of the keys fall ("the expenses older than …", a predicate an app would
/// write). Every strategy of an operation targets the same rows, and the checks know them.
package struct OperationTarget: Sendable, Codable {
    /// Records dated before this (seconds since 2001) are the targets.
    package var cutoff: Double
    /// How many rows that is.
    package var expected: Int
    /// Rows in the filled store.
    package var rows: Int
    /// A digest of every row the operation must not touch (for a read: of every row).
    package var untouchedDigest: UInt64
    /// How long filling the store took (not part of the measured window).
    package var fillSeconds: Double

    /// The note an update writes on every target.
    package static let updatedNote = "reviewed by loadgen"

    /// The targets as a predicate.
    package var predicate: ObjectGraph.Predicate { .compare("date", .less, .value(.date(cutoff))) }
}

/// Filling the store and checking it afterwards, for the operations on a filled store.
package enum OperationSetup {
    /// Fills `job`'s store with the workload's records (the raw insert on the constrained layout,
    /// categories related: fast, and the store a Core Data app would have) and finds the targets.
    package static func prepare(_ job: StrategyJob) throws -> OperationTarget {
        let start = Clock.nanoseconds()
        var fill = job
        fill.configuration.strategy = "raw-sqlite-unique"
        fill.counters = StatementCounters()   // the fill's SQL and rows are not the strategy's
        fill.progress = ProgressCounter()
        _ = try RawImport(keyConstraint: .unique, batchSize: Int.max).run(fill)
        let spec = job.workload
        let generator = Generator(spec: spec)
        var dates: [Double] = []
        dates.reserveCapacity(spec.uniqueKeys)
        var record = Record()
        for k in 0..<spec.uniqueKeys {
            generator.fill(keyIndex: k, into: &record)
            dates.append(record.date)
        }
        dates.sort()
        let wanted = Int((Double(dates.count) * (job.configuration.fraction ?? 0)).rounded())
        let cutoff = wanted < dates.count ? dates[wanted] : (dates.last ?? 0) + 1
        let expected = dates.prefix { $0 < cutoff }.count
        let db = try Database(path: job.store.path)
        let operation = job.configuration.operation
        let digest = try Self.digest(db, below: operation == .read ? nil : cutoff,
                                     categoryVersions: operation != .delete)
        let rows = try db.scalarInt("SELECT count(*) FROM ZEXPENSE")
        return OperationTarget(cutoff: cutoff, expected: job.configuration.operation == .read ? rows : expected, rows: rows,
                               untouchedDigest: digest, fillSeconds: Clock.seconds(since: start))
    }

    /// FNV-1a over every column of the expenses dated at or after `below` (all, when nil), in
    /// key order, and over the categories and key counters. Without `categoryVersions` the
    /// categories' `Z_OPT` is left out: a delete bumps it on the other side of each deleted
    /// expense's relationship, as Core Data's does (its names and keys must still not change).
    static func digest(_ db: Database, below cutoff: Double?, categoryVersions: Bool) throws -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ s: Statement, columns: Int32) {
            for c in 0..<columns {
                s.withBytes(at: c) { bytes in for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 } }
                hash = (hash ^ 0x1F) &* 0x100_0000_01b3
            }
        }
        let expenses = try db.prepare("SELECT Z_PK, Z_OPT, ZCATEGORY, ZAMOUNT, ZDATE, ZEXTERNALID, ZNOTE FROM ZEXPENSE "
                                      + (cutoff == nil ? "" : "WHERE ZDATE >= ?1 ") + "ORDER BY Z_PK")
        if let cutoff { expenses.bind(cutoff, at: 1) }
        while try expenses.step() { add(expenses, columns: 7) }
        let others = try db.prepare("SELECT Z_PK, ZNAME, Z_OPT FROM ZCATEGORY ORDER BY Z_PK")
        while try others.step() { add(others, columns: categoryVersions ? 3 : 2) }
        let keys = try db.prepare("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        while try keys.step() { add(keys, columns: 2) }
        return hash
    }

    /// What is wrong with the store after `operation` on `target` (empty when it is right).
    package static func problems(_ job: StrategyJob, _ target: OperationTarget, counters: StrategyCounters?) throws -> [String] {
        let db = try Database(path: job.store.path)
        db.setBusyTimeout(milliseconds: 10_000)
        var found: [String] = []
        let operation = job.configuration.operation
        if operation != .read,
           try digest(db, below: target.cutoff, categoryVersions: operation != .delete) != target.untouchedDigest {
            found.append("rows the \(operation.rawValue) must not touch changed")
        }
        let bind = { (sql: String) throws -> Int in
            let s = try db.prepare(sql)
            s.bind(target.cutoff, at: 1)
            return try s.step() ? s.int(at: 0) : 0
        }
        switch operation {
        case .update:
            let updated = try bind("SELECT count(*) FROM ZEXPENSE WHERE ZDATE < ?1 AND ZNOTE = '\(OperationTarget.updatedNote)'")
            let targets = try bind("SELECT count(*) FROM ZEXPENSE WHERE ZDATE < ?1")
            if targets != target.expected { found.append("\(targets) targeted rows, expected \(target.expected)") }
            if updated != targets { found.append("\(targets - updated) of \(targets) targeted rows not updated") }
        case .delete:
            let left = try bind("SELECT count(*) FROM ZEXPENSE WHERE ZDATE < ?1")
            if left > 0 { found.append("\(left) of \(target.expected) targeted rows not deleted") }
            let rows = try db.scalarInt("SELECT count(*) FROM ZEXPENSE")
            if rows != target.rows - target.expected { found.append("\(rows) rows left, expected \(target.rows - target.expected)") }
            let dangling = try db.scalarInt("SELECT count(*) FROM ZEXPENSE WHERE ZCATEGORY IS NOT NULL AND ZCATEGORY NOT IN (SELECT Z_PK FROM ZCATEGORY)")
            if dangling > 0 { found.append("\(dangling) rows point at a missing category") }
        case .read:
            if try digest(db, below: nil, categoryVersions: true) != target.untouchedDigest { found.append("a read changed the store") }
            if let read = counters?.objectsRead, read != target.expected {
                found.append("read \(read) objects, expected \(target.expected)")
            }
        case .import:
            break
        }
        return found
    }
}
