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
    /// A delete's reach beyond its targets by the model's delete rules (`DeleteRules`): the related
    /// objects a cascade deletes (by index), the other records the rules delete or leave without
    /// their related object (their `Z_PK` in the filled store), and how many of those it deletes.
    /// Empty where the rules stop at the targets.
    package var cascadedParents: Set<Int> = []
    package var touchedByRules: [Int64] = []
    package var collateral = 0
    /// The records of a cascaded related object stay (Nullify): their related object is gone.
    package var siblingsLoseParent = false

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
            return
                "\(shape.entity) has no string attribute (besides its key and constrained ones) for the update to write"
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
        let generator = Generator(spec: job.workload, shape: shape)
        let positions = shape.targetField == nil ? [] : targetPositions(generator, field: field)
        let wanted = Int((Double(positions.count) * (job.configuration.fraction ?? 0)).rounded())
        let cutoff = wanted < positions.count ? positions[wanted] : (positions.last ?? 0) + 1
        let expected = positions.prefix { $0 < cutoff }.count
        let t = Columns(model, targetField: shape.targetField)
        let db = try Database(path: job.store.path)
        var target = OperationTarget(
            attribute: shape.fields[field].name, kind: shape.fields[field].type, cutoff: cutoff,
            expected: expected, rows: try db.scalarInt("SELECT count(*) FROM \(t.table)"),
            untouchedDigest: 0, fillSeconds: 0)
        if operation == .delete, let rules = DeleteRules(model), rules.cascadesToParent {
            try reach(of: rules, &target, generator, field: field, db, t)
        }
        if operation == .read { target.expected = target.rows }
        target.untouchedDigest = try Self.digest(
            db, t, below: operation == .read ? nil : cutoff, parentVersions: operation != .delete,
            excluding: target.touchedByRules)
        target.fillSeconds = Clock.seconds(since: start)
        return target
    }

    /// Every record's position on the target attribute, sorted.
    private static func targetPositions(_ generator: Generator, field: Int) -> [Double] {
        var positions: [Double] = []
        positions.reserveCapacity(generator.plan.uniqueKeys)
        var record = Record()
        for k in 0..<generator.plan.uniqueKeys {
            generator.fill(keyIndex: k, into: &record)
            positions.append(OperationTarget.position(of: record, field: field, shape: generator.shape))
        }
        return positions.sorted()
    }

    /// A delete whose records cascade to their related objects: which those are (from the
    /// records, and as rows of the filled store), and what the related objects' own rule does
    /// to their other records (deletes them, or leaves them without it).
    private static func reach(
        of rules: DeleteRules, _ target: inout OperationTarget, _ generator: Generator, field: Int,
        _ db: Database, _ t: Columns
    ) throws {
        guard let column = t.target, let fk = t.foreignKey else { return }
        target.cascadedParents = DeleteRules.cascadedParents(generator, field: field, cutoff: target.cutoff)
        let siblings = try db.prepare(
            "SELECT Z_PK FROM \(t.table) WHERE \(column) >= ?1 AND \(fk) IN "
                + "(SELECT \(fk) FROM \(t.table) WHERE \(column) < ?1) ORDER BY Z_PK")
        siblings.bind(target.cutoff, at: 1)
        while try siblings.step() { target.touchedByRules.append(Int64(siblings.int(at: 0))) }
        if rules.cascadesToSiblings {
            target.collateral = target.touchedByRules.count
        } else {
            target.siblingsLoseParent = true
        }
    }

    /// Keys as an SQL list (numbers only: no text from input reaches it).
    static func list(_ keys: [Int64]) -> String {
        keys.isEmpty ? "NULL" : keys.map(String.init).joined(separator: ", ")
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
                model.roles.parentKeys.isEmpty
                    ? nil : model.roles.parentKeys.map { parent.column(of: $0) }.joined(separator: ", ")
            }
            foreignKey = model.roles.relationship.map { record.column(of: $0) }
            parentCascades =
                model.roles.relationship.flatMap(entity.toOneIndex).map { entity.toOne[$0].deleteRule == .cascade }
                ?? false
        }
    }

    /// FNV-1a over every column of the records at or above `below` on the target attribute (all,
    /// when nil), in key order, and over the related objects and key counters. Without
    /// `parentVersions` the related objects' `Z_OPT` is left out: a delete bumps it on the other
    /// side of each deleted record's relationship, as Core Data's does (their keys must still
    /// not change).
    /// The records of `excluding` (`Z_PK`s a delete's rules reach beyond its targets) are left
    /// out: the rules delete them or clear their to-one.
    static func digest(
        _ db: Database, _ t: Columns, below cutoff: Double?, parentVersions: Bool,
        excluding: [Int64] = []
    ) throws -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ s: Statement, columns: Int32) {
            for c in 0..<columns {
                s.withBytes(at: c) { bytes in for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 } }
                hash = (hash ^ 0x1F) &* 0x100_0000_01b3
            }
        }
        var filter = cutoff == nil || t.target == nil ? "" : "WHERE \(t.target!) >= ?1 "
        if !excluding.isEmpty, !filter.isEmpty { filter += "AND Z_PK NOT IN (\(list(excluding))) " }
        let records = try db.prepare("SELECT \(t.columns) FROM \(t.table) \(filter)ORDER BY Z_PK")
        if let cutoff, !filter.isEmpty { records.bind(cutoff, at: 1) }
        let count = Int32(t.columns.split(separator: ",").count)
        while try records.step() { add(records, columns: count) }
        // Related objects a cascade deletes with their records are checked apart (`problems`).
        if let parentTable = t.parentTable, let parentKey = t.parentKey,
            !(t.parentCascades && cutoff != nil && !parentVersions)
        {
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
            for r in e.toOne
            where r.deleteRuleOfInverse(in: model.model) != .noAction
                && (record.id...record.subentityMaxID).contains(r.destination)
                && seen.insert(e.tableName + "." + r.column).inserted
            {
                let n = try db.scalarInt(
                    "SELECT count(*) FROM \(e.tableName) WHERE \(r.column) IS NOT NULL "
                        + "AND \(r.column) NOT IN (SELECT Z_PK FROM \(record.tableName))")
                if n > 0 { found.append("\(n) \(e.name) rows point at a deleted \(record.name) (\(e.name).\(r.name))") }
            }
        }
        return found
    }

    /// After a delete: the targets gone and nothing else, no row pointing at a deleted record or
    /// a missing related object, and the related objects a cascade takes gone with their records.
    private static func deleteProblems(
        _ db: Database, _ t: Columns, _ model: ImportModel, _ target: OperationTarget,
        _ bind: (String) throws -> Int
    ) throws -> [String] {
        guard let column = t.target else { return [] }
        var found: [String] = []
        let left = try bind("SELECT count(*) FROM \(t.table) WHERE \(column) < ?1")
        if left > 0 { found.append("\(left) of \(target.expected) targeted rows not deleted") }
        let rows = try db.scalarInt("SELECT count(*) FROM \(t.table)")
        let remaining = target.rows - target.expected - target.collateral
        if rows != remaining {
            found.append(
                "\(rows) rows left, expected \(remaining)"
                    + (target.collateral > 0 ? " (\(target.collateral) more deleted by the cascade)" : ""))
        }
        if let fk = t.foreignKey, let parentTable = t.parentTable {
            let dangling = try db.scalarInt(
                "SELECT count(*) FROM \(t.table) WHERE \(fk) IS NOT NULL AND \(fk) NOT IN (SELECT Z_PK FROM \(parentTable))"
            )
            if dangling > 0 { found.append("\(dangling) rows point at a missing \(model.parentEntity!.name)") }
        }
        found += try orphans(db, model)
        if t.parentCascades, let fk = t.foreignKey, let parentTable = t.parentTable {
            // Related objects come with records: one no record points at lost them to the delete.
            let left = try db.scalarInt(
                "SELECT count(*) FROM \(parentTable) WHERE Z_PK NOT IN "
                    + "(SELECT \(fk) FROM \(t.table) WHERE \(fk) IS NOT NULL)")
            if left > 0 { found.append("\(left) \(model.parentEntity!.name) rows the cascade should have deleted") }
        }
        return found
    }

    /// What is wrong with the store after `operation` on `target` (empty when it is right).
    package static func problems(_ job: StrategyJob, _ target: OperationTarget, counters: StrategyCounters?) throws
        -> [String]
    {
        let model = try job.importModel()
        let t = Columns(model, targetField: model.shape.targetField)
        let db = try Database(path: job.store.path)
        db.setBusyTimeout(milliseconds: 10_000)
        var found: [String] = []
        let operation = job.configuration.operation
        if operation != .read,
            try digest(
                db, t, below: target.cutoff, parentVersions: operation != .delete,
                excluding: target.touchedByRules) != target.untouchedDigest
        {
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
            let updated = try bind(
                "SELECT count(*) FROM \(t.table) WHERE \(column) < ?1 AND \(update) = '\(OperationTarget.updatedNote)'")
            let targets = try bind("SELECT count(*) FROM \(t.table) WHERE \(column) < ?1")
            if targets != target.expected { found.append("\(targets) targeted rows, expected \(target.expected)") }
            if updated != targets { found.append("\(targets - updated) of \(targets) targeted rows not updated") }
        case .delete:
            found += try deleteProblems(db, t, model, target, bind)
        case .read:
            if try digest(db, t, below: nil, parentVersions: true) != target.untouchedDigest {
                found.append("a read changed the store")
            }
            if let read = counters?.objectsRead, read != target.expected {
                found.append("read \(read) objects, expected \(target.expected)")
            }
            if let shown = counters?.shownDigest {
                let parent = t.parentTable.flatMap { table in
                    t.parentKey.map { (table, String($0.split(separator: ",")[0])) }
                }
                let expected = try ShownDigest.ofStore(
                    db, table: t.table, note: t.update, foreignKey: t.foreignKey, parent: parent)
                if shown != expected {
                    found.append("the screen showed other notes or related objects than the store holds")
                }
            }
        case .import:
            break
        }
        return found
    }
}
