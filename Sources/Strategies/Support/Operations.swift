import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Workload

/// What an update, delete or read works on: a store filled before the timed window, and the
/// records an update or delete targets — every record whose target attribute (the expenses'
/// date) is below `cutoff`, the value below which `--fraction` of the keys fall ("the expenses
/// older than …", a predicate an app would write). Every strategy of an operation targets the
/// same rows, and the checks know them.
package struct OperationTarget: Sendable, Codable {
    /// The attribute targets are selected by, and how its values are held.
    package var attribute: String
    package var kind: FieldType
    /// Records whose attribute is below this are the targets.
    package var cutoff: Double
    /// How many rows that is.
    package var expected: Int
    /// Rows in the filled store.
    package var rows: Int
    /// A digest of every row the operation must not touch (for a read: of every row).
    package var untouchedDigest: UInt64
    /// How long filling the store took (not part of the measured window).
    package var fillSeconds: Double

    /// The text an update writes on every target.
    package static let updatedNote = "reviewed by loadgen"

    /// The cutoff as a value of the attribute's kind.
    package var cutoffValue: Value {
        switch kind {
        case .date: return .date(cutoff)
        case .integer16, .integer32, .integer64: return .integer(Int64(cutoff.rounded(.up)))
        default: return .double(cutoff)
        }
    }

    /// The targets as a predicate.
    package var predicate: ObjectGraph.Predicate { .compare(attribute, .less, .value(cutoffValue)) }

    /// Where a record falls on the target attribute.
    package static func position(of record: Record, field: Int, shape: RecordShape) -> Double {
        shape.fields[field].type.isInteger ? Double(record.values.integer(field)) : record.values.double(field)
    }
}

/// What an operation on a filled store needs of the model: an ordered attribute to select targets
/// by and (for updates) a text attribute to write.
package enum OperationRoles {
    /// Why `operation` cannot run on `shape`, nil when it can.
    package static func missing(_ operation: Operation, in shape: RecordShape) -> String? {
        guard operation == .update || operation == .delete else { return nil }
        if shape.targetField == nil {
            return "\(shape.entity) has no date or number attribute (besides its key) to select the targets by"
        }
        if operation == .update && shape.updateField == nil {
            return "\(shape.entity) has no string attribute (besides its key and constrained ones) for the update to write"
        }
        return nil
    }
}

/// Filling the store and checking it afterwards, for the operations on a filled store.
package enum OperationSetup {
    /// Fills `job`'s store with the workload's records (the raw insert on the constrained layout,
    /// related objects related: fast, and the store a Core Data app would have) and finds the
    /// targets.
    package static func prepare(_ job: StrategyJob) throws -> OperationTarget {
        let start = Clock.nanoseconds()
        var fill = job
        fill.configuration.strategy = "raw-sqlite-unique"
        fill.counters = StatementCounters()   // the fill's SQL and rows are not the strategy's
        fill.progress = ProgressCounter()
        _ = try RawImport(batchSize: Int.max).run(fill)
        let model = try job.importModel()
        let shape = model.shape
        let operation = job.configuration.operation
        // A read targets every row: the first attribute serves as a placeholder.
        let field = shape.targetField ?? 0
        var positions: [Double] = []
        if shape.targetField != nil {
            let spec = job.workload
            positions.reserveCapacity(spec.uniqueKeys)
            let generator = Generator(spec: spec, shape: shape)
            var record = Record()
            for k in 0..<spec.uniqueKeys {
                generator.fill(keyIndex: k, into: &record)
                positions.append(OperationTarget.position(of: record, field: field, shape: shape))
            }
            positions.sort()
        }
        let wanted = Int((Double(positions.count) * (job.configuration.fraction ?? 0)).rounded())
        let cutoff = wanted < positions.count ? positions[wanted] : (positions.last ?? 0) + 1
        let expected = positions.prefix { $0 < cutoff }.count
        let target = Columns(model, targetField: shape.targetField)
        let db = try Database(path: job.store.path)
        let digest = try Self.digest(db, target, below: operation == .read ? nil : cutoff,
                                     parentVersions: operation != .delete)
        let rows = try db.scalarInt("SELECT count(*) FROM \(target.table)")
        return OperationTarget(attribute: shape.fields[field].name, kind: shape.fields[field].type, cutoff: cutoff,
                               expected: operation == .read ? rows : expected, rows: rows,
                               untouchedDigest: digest, fillSeconds: Clock.seconds(since: start))
    }

    /// The tables and columns the checks read, from the model.
    struct Columns {
        let table: String
        let columns: String
        let target: String?
        let update: String?
        let parentTable: String?
        let parentKey: String?
        let foreignKey: String?
        /// The records' to-one to their related object cascades: deleting a record deletes it.
        let parentCascades: Bool

        init(_ model: ImportModel, targetField: Int?) {
            let entity = model.model.runtimeEntity(named: model.recordEntity.name)!
            let record = model.recordEntity
            table = record.ownRows
            columns = entity.selectColumns
            target = targetField.map { record.column(of: model.shape.fields[$0].name) }
            update = model.shape.updateField.map { record.column(of: model.shape.fields[$0].name) }
            parentTable = model.parentEntity?.ownRows
            parentKey = model.parentEntity.flatMap { parent in
                model.roles.parentKeys.isEmpty ? nil : model.roles.parentKeys.map { parent.column(of: $0) }.joined(separator: ", ")
            }
            foreignKey = model.roles.relationship.map { record.column(of: $0) }
            parentCascades = model.roles.relationship.flatMap(entity.toOneIndex).map { entity.toOne[$0].deleteRule == .cascade } ?? false
        }
    }

    /// FNV-1a over every column of the records at or above `below` on the target attribute (all,
    /// when nil), in key order, and over the related objects and key counters. Without
    /// `parentVersions` the related objects' `Z_OPT` is left out: a delete bumps it on the other
    /// side of each deleted record's relationship, as Core Data's does (their keys must still
    /// not change).
    static func digest(_ db: Database, _ t: Columns, below cutoff: Double?, parentVersions: Bool) throws -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ s: Statement, columns: Int32) {
            for c in 0..<columns {
                s.withBytes(at: c) { bytes in for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 } }
                hash = (hash ^ 0x1F) &* 0x100_0000_01b3
            }
        }
        let filter = cutoff == nil || t.target == nil ? "" : "WHERE \(t.target!) >= ?1 "
        let records = try db.prepare("SELECT \(t.columns) FROM \(t.table) \(filter)ORDER BY Z_PK")
        if let cutoff, !filter.isEmpty { records.bind(cutoff, at: 1) }
        let count = Int32(t.columns.split(separator: ",").count)
        while try records.step() { add(records, columns: count) }
        // Related objects a cascade deletes with their records are checked apart (`problems`).
        if let parentTable = t.parentTable, let parentKey = t.parentKey, !(t.parentCascades && cutoff != nil && !parentVersions) {
            let others = try db.prepare("SELECT Z_PK, \(parentKey), Z_OPT FROM \(parentTable) ORDER BY Z_PK")
            let keyColumns = Int32(parentKey.split(separator: ",").count)
            while try others.step() { add(others, columns: keyColumns + (parentVersions ? 2 : 1)) }
        }
        let keys = try db.prepare("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        while try keys.step() { add(keys, columns: 2) }
        return hash
    }

    /// Rows of any entity still pointing at a deleted record: a Cascade rule should have deleted
    /// them, a Nullify rule cleared their column (No Action leaves them, as Core Data does).
    static func orphans(_ db: Database, _ model: ImportModel) throws -> [String] {
        let record = model.model.runtimeEntity(named: model.recordEntity.name)!
        var found: [String] = []
        var seen: Set<String> = []
        for e in model.model.runtime {
            // A sub-entity's inherited to-ones are its root's columns: each column counted once.
            for r in e.toOne where r.deleteRuleOfInverse(in: model.model) != .noAction
                && (record.id...record.subentityMaxID).contains(r.destination) && seen.insert(e.tableName + "." + r.column).inserted {
                let n = try db.scalarInt("SELECT count(*) FROM \(e.tableName) WHERE \(r.column) IS NOT NULL "
                                         + "AND \(r.column) NOT IN (SELECT Z_PK FROM \(record.tableName))")
                if n > 0 { found.append("\(n) \(e.name) rows point at a deleted \(record.name) (\(e.name).\(r.name))") }
            }
        }
        return found
    }

    /// After a delete: the targets gone and nothing else, no row pointing at a deleted record or
    /// a missing related object, and the related objects a cascade takes gone with their records.
    private static func deleteProblems(_ db: Database, _ t: Columns, _ model: ImportModel, _ target: OperationTarget,
                                       _ bind: (String) throws -> Int) throws -> [String] {
        guard let column = t.target else { return [] }
        var found: [String] = []
        let left = try bind("SELECT count(*) FROM \(t.table) WHERE \(column) < ?1")
        if left > 0 { found.append("\(left) of \(target.expected) targeted rows not deleted") }
        let rows = try db.scalarInt("SELECT count(*) FROM \(t.table)")
        if rows != target.rows - target.expected { found.append("\(rows) rows left, expected \(target.rows - target.expected)") }
        if let fk = t.foreignKey, let parentTable = t.parentTable {
            let dangling = try db.scalarInt("SELECT count(*) FROM \(t.table) WHERE \(fk) IS NOT NULL AND \(fk) NOT IN (SELECT Z_PK FROM \(parentTable))")
            if dangling > 0 { found.append("\(dangling) rows point at a missing \(model.parentEntity!.name)") }
        }
        found += try orphans(db, model)
        if t.parentCascades, let fk = t.foreignKey, let parentTable = t.parentTable {
            // Related objects come with records: one no record points at lost them to the delete.
            let left = try db.scalarInt("SELECT count(*) FROM \(parentTable) WHERE Z_PK NOT IN "
                                        + "(SELECT \(fk) FROM \(t.table) WHERE \(fk) IS NOT NULL)")
            if left > 0 { found.append("\(left) \(model.parentEntity!.name) rows the cascade should have deleted") }
        }
        return found
    }

    /// What is wrong with the store after `operation` on `target` (empty when it is right).
    package static func problems(_ job: StrategyJob, _ target: OperationTarget, counters: StrategyCounters?) throws -> [String] {
        let model = try job.importModel()
        let t = Columns(model, targetField: model.shape.targetField)
        let db = try Database(path: job.store.path)
        db.setBusyTimeout(milliseconds: 10_000)
        var found: [String] = []
        let operation = job.configuration.operation
        if operation != .read,
           try digest(db, t, below: target.cutoff, parentVersions: operation != .delete) != target.untouchedDigest {
            found.append("rows the \(operation.rawValue) must not touch changed")
        }
        let bind = { (sql: String) throws -> Int in
            let s = try db.prepare(sql)
            s.bind(target.cutoff, at: 1)
            return try s.step() ? s.int(at: 0) : 0
        }
        switch operation {
        case .update:
            guard let column = t.target, let update = t.update else { break }
            let updated = try bind("SELECT count(*) FROM \(t.table) WHERE \(column) < ?1 AND \(update) = '\(OperationTarget.updatedNote)'")
            let targets = try bind("SELECT count(*) FROM \(t.table) WHERE \(column) < ?1")
            if targets != target.expected { found.append("\(targets) targeted rows, expected \(target.expected)") }
            if updated != targets { found.append("\(targets - updated) of \(targets) targeted rows not updated") }
        case .delete:
            found += try deleteProblems(db, t, model, target, bind)
        case .read:
            if try digest(db, t, below: nil, parentVersions: true) != target.untouchedDigest { found.append("a read changed the store") }
            if let read = counters?.objectsRead, read != target.expected {
                found.append("read \(read) objects, expected \(target.expected)")
            }
            if let shown = counters?.shownDigest {
                let parent = t.parentTable.flatMap { table in t.parentKey.map { (table, String($0.split(separator: ",")[0])) } }
                let expected = try ShownDigest.ofStore(db, table: t.table, note: t.update, foreignKey: t.foreignKey, parent: parent)
                if shown != expected { found.append("the screen showed other notes or related objects than the store holds") }
            }
        case .import:
            break
        }
        return found
    }
}
