import Foundation
import SQLiteKit

/// A predicate compiled for one entity: a WHERE clause with `?` and its values, in order.
struct CompiledPredicate {
    var sql: String
    var bindings: [Value]
    /// What every column is named through (`t0.` in a query that joins), or nothing.
    private let table: String

    /// How a fetch names its entity's columns: Core Data's generator writes a space before
    /// each (`WHERE  t0.ZNAME = ?`, `(? <=  t0.ZLONGITUDE AND  t0.ZLONGITUDE <= ?)` in the
    /// SQLDebug logs docs/ENGINE.md cites), so the log reads as the app's.
    static let fetchAlias = " t0"

    /// A sub-entity's rows share their root's table: its filter on `Z_ENT` comes first. `table`
    /// names the entity's table in a query that joins others (`t0`).
    init(_ predicate: Predicate?, entity: Entity, table: String? = nil) throws {
        sql = ""
        bindings = []
        self.table = table.map { $0 + "." } ?? ""
        if let predicate { sql = try compile(predicate, entity) }
        if let filter = entity.entityFilter(table: self.table) {
            sql = sql.isEmpty ? filter : "(\(filter)) AND (\(sql))"
        }
    }

    private mutating func compile(_ p: Predicate, _ e: Entity) throws -> String {
        switch p {
        case .constant(let b):
            return b ? "1" : "0"
        case .compare(let key, let op, let operand):
            let column = table + (try Self.column(key, e))
            let value = Self.value(operand)
            if value.isNull {
                switch op {
                case .equal: return "\(column) IS NULL"
                case .notEqual: return "\(column) IS NOT NULL"
                default: return "0"
                }
            }
            bindings.append(value)
            return "\(column) \(op == .equal ? "=" : op.rawValue) ?"
        case .isIn(let key, let operands):
            let column = table + (try Self.column(key, e))
            if operands.isEmpty { return "0" }
            // Padded to a power of two by repeating the last value (same meaning): a handful of
            // statement texts serve lists of every length, so the statement cache stays small.
            let slots = Self.paddedLength(operands.count)
            bindings += operands.map(Self.value)
            bindings += repeatElement(Self.value(operands[operands.count - 1]), count: slots - operands.count)
            return "\(column) IN (" + Self.placeholders(slots) + ")"
        case .beginsWith(let key, let prefix):
            let column = table + (try Self.column(key, e))
            bindings.append(.integer(Int64(prefix.count)))
            bindings.append(.string(prefix))
            return "substr(\(column), 1, ?) = ?"
        case .and(let parts):
            return "(" + (try parts.map { try compile($0, e) }).joined(separator: " AND ") + ")"
        case .or(let parts):
            return "(" + (try parts.map { try compile($0, e) }).joined(separator: " OR ") + ")"
        case .not(let inner):
            return "NOT (" + (try compile(inner, e)) + ")"
        }
    }

    /// "?,?,…,?" with `n` placeholders, built in one string (lists run to thousands).
    static func placeholders(_ n: Int) -> String {
        n == 0 ? "" : String(repeating: "?,", count: n - 1) + "?"
    }

    /// The smallest power of two ≥ `n`: how long an `IN` list is made (repeating a value, which
    /// changes nothing), so that a handful of statement texts serve lists of every length.
    static func paddedLength(_ n: Int) -> Int {
        var slots = 1
        while slots < n { slots *= 2 }
        return slots
    }

    static func column(_ key: String, _ e: Entity) throws -> String {
        guard let c = e.column(for: key) else { throw ContextError.unknownKey(key, entity: e.name) }
        return c
    }

    /// The stored form of an operand: objects compare by their row's `Z_PK` (a temporary ID
    /// matches no row).
    static func value(_ operand: Predicate.Operand) -> Value {
        switch operand {
        case .value(let v): return v
        case .object(let id): return .integer(id.primaryKey ?? -1)
        }
    }
}

extension Statement {
    /// Binds an engine value.
    func bind(_ value: Value, at index: Int32) {
        switch value {
        case .null: bindNull(at: index)
        case .integer(let i): bind(i, at: index)
        case .double(let d), .date(let d): bind(d, at: index)
        case .string(let s): bind(s, at: index)
        case .bool(let b): bind(b ? 1 : 0, at: index)
        case .data(let bytes): bytes.withUnsafeBytes { bindBlob($0, at: index) }
        }
    }

    /// Binds `values` from parameter `index` on, text through the statement's own buffer (no
    /// allocation per string): a new round of text bindings, so every text parameter the
    /// statement steps with must be bound here or after.
    @inline(__always)
    func bind(_ values: ArraySlice<Value>, from index: Int32) {
        startTextRound()
        var i = index
        for v in values {
            bindInRound(v, at: i)
            i += 1
        }
    }

    /// Binds one value, text through the statement's own buffer: only inside a round of text
    /// bindings (after `startTextRound()`).
    @inline(__always)
    func bindInRound(_ value: Value, at index: Int32) {
        if case .string(let text) = value { bindText(copy: text, at: index) } else { bind(value, at: index) }
    }

    /// Reads a column as a value of `type`.
    @inline(__always)
    func value(at column: Int32, as type: AttributeType) -> Value {
        if isNull(at: column) { return .null }
        switch type.storage {
        case .integer: return .integer(Int64(int(at: column)))
        case .real: return .double(double(at: column))
        case .text: return .string(text(at: column) ?? "")
        case .date: return .date(double(at: column))
        case .bool: return .bool(int(at: column) != 0)
        case .bytes: return .data(blob(at: column) ?? [])
        }
    }
}

// MARK: Evaluating in memory

/// A predicate resolved against one entity for in-memory evaluation: keys turned into column
/// indexes and operands into values once, so checking each unsaved object of a context (what a
/// fetch that includes pending changes must do) costs comparisons, not name lookups.
struct PendingMatcher {
    private indirect enum Node {
        case constant(Bool)
        case and([Node]), or([Node]), not(Node)
        case attribute(Int, Predicate.ComparisonOperator, Value)
        case attributeIn(Int, Set<Value>)
        case beginsWith(Int, String)
        case toOne(Int, Predicate.ComparisonOperator, ManagedObjectID?)
        case toOneIn(Int, Set<ManagedObjectID>)
        case identity(Predicate.ComparisonOperator, ManagedObjectID?)
        case identityIn(Set<ManagedObjectID>)
    }

    private let root: Node

    init(_ predicate: Predicate?, entity: Entity) throws {
        root = try predicate.map { try Self.resolve($0, entity) } ?? .constant(true)
    }

    private static func resolve(_ p: Predicate, _ e: Entity) throws -> Node {
        switch p {
        case .constant(let b): return .constant(b)
        case .and(let ps): return .and(try ps.map { try resolve($0, e) })
        case .or(let ps): return .or(try ps.map { try resolve($0, e) })
        case .not(let inner): return .not(try resolve(inner, e))
        case .compare(let key, let op, let operand):
            if key == Entity.selfKey { return .identity(op, id(operand)) }
            if let i = e.attributeIndex(key) { return .attribute(i, op, CompiledPredicate.value(operand)) }
            if let i = e.toOneIndex(key) { return .toOne(i, op, id(operand)) }
            throw ContextError.unknownKey(key, entity: e.name)
        case .isIn(let key, let operands):
            if key == Entity.selfKey { return .identityIn(Set(operands.compactMap(id))) }
            if let i = e.attributeIndex(key) { return .attributeIn(i, Set(operands.map(CompiledPredicate.value))) }
            if let i = e.toOneIndex(key) { return .toOneIn(i, Set(operands.compactMap(id))) }
            throw ContextError.unknownKey(key, entity: e.name)
        case .beginsWith(let key, let prefix):
            guard let i = e.attributeIndex(key) else { throw ContextError.unknownKey(key, entity: e.name) }
            return .beginsWith(i, prefix)
        }
    }

    private static func id(_ operand: Predicate.Operand) -> ManagedObjectID? {
        if case .object(let id) = operand { return id }
        return nil
    }

    /// Whether `object` (not a fault) matches, by its current in-memory values.
    func matches(_ object: ManagedObject) -> Bool { Self.matches(root, object) }

    /// `attribute == "text"`, the find-or-create shape a `PendingIndex` serves (text only:
    /// numbers compare across types, which hashing cannot follow).
    /// An `attribute == value` the predicate requires: the whole predicate, or one part of an AND
    /// (a key of several attributes is found with `a == x AND b == y`). What the pending index
    /// files unsaved objects by; the whole predicate still judges each candidate.
    var indexableEquality: (attribute: Int, value: Value)? {
        func equality(_ node: Node) -> (Int, Value)? {
            guard case .attribute(let i, .equal, let value) = node, !value.isNull else { return nil }
            return (i, value)
        }
        if let found = equality(root) { return found }
        if case .and(let nodes) = root { return nodes.lazy.compactMap(equality).first }
        return nil
    }

    private static func matches(_ node: Node, _ o: ManagedObject) -> Bool {
        switch node {
        case .constant(let b): return b
        case .and(let nodes): return nodes.allSatisfy { matches($0, o) }
        case .or(let nodes): return nodes.contains { matches($0, o) }
        case .not(let inner): return !matches(inner, o)
        case .attribute(let i, let op, let value): return compare(o.values[i], op, value)
        case .attributeIn(let i, let set):
            let v = o.values[i]
            if v.isNull { return false }
            if set.contains(v) { return true }
            // 3 and 3.0 are equal to SQLite though not to Hashable: numbers get a second look.
            return v.numeric != nil && set.contains { Predicate.order(v, $0) == 0 }
        case .beginsWith(let i, let prefix):
            guard case .string(let s) = o.values[i] else { return false }
            return s.utf8.starts(with: prefix.utf8)
        case .toOne(let i, let op, let id):
            let target = o.toOne[i]?.objectID
            switch op {
            case .equal: return target == id
            case .notEqual: return target != id
            default: return false
            }
        case .toOneIn(let i, let ids):
            guard let target = o.toOne[i]?.objectID else { return false }
            return ids.contains(target)
        case .identity(let op, let id):
            switch op {
            case .equal: return o.objectID == id
            case .notEqual: return o.objectID != id
            default: return false
            }
        case .identityIn(let ids):
            return ids.contains(o.objectID)
        }
    }

    private static func compare(_ current: Value, _ op: Predicate.ComparisonOperator, _ other: Value) -> Bool {
        if current.isNull || other.isNull {
            switch op {
            case .equal: return current.isNull && other.isNull
            case .notEqual: return current.isNull != other.isNull
            default: return false
            }
        }
        guard let order = Predicate.order(current, other) else { return op == .notEqual }
        switch op {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        }
    }
}

extension Predicate {
    /// SQLite's order across types: numbers by value, strings and blobs by their bytes.
    static func order(_ a: Value, _ b: Value) -> Int? {
        if let x = a.numeric, let y = b.numeric { return x < y ? -1 : (x > y ? 1 : 0) }
        switch (a, b) {
        case (.string(let x), .string(let y)):
            return compareBytes(x, y)
        case (.data(let x), .data(let y)):
            return x.withUnsafeBytes { p in y.withUnsafeBytes { q in compareBytes(p, q) } }
        default:
            return nil
        }
    }

    /// Compares UTF-8 bytes, as SQLite's BINARY collation does (Swift's `<` on String follows
    /// Unicode ordering, and its generic byte comparison is slow).
    @inline(__always)
    static func compareBytes(_ x: String, _ y: String) -> Int {
        var a = x
        var b = y
        return a.withUTF8 { p in b.withUTF8 { q in compareBytes(UnsafeRawBufferPointer(p), UnsafeRawBufferPointer(q)) }
        }
    }

    @inline(__always)
    static func compareBytes(_ p: UnsafeRawBufferPointer, _ q: UnsafeRawBufferPointer) -> Int {
        let n = min(p.count, q.count)
        if n > 0 {
            let c = memcmp(p.baseAddress!, q.baseAddress!, n)
            if c != 0 { return c < 0 ? -1 : 1 }
        }
        return p.count == q.count ? 0 : (p.count < q.count ? -1 : 1)
    }
}

extension Value {
    /// Numbers, dates and booleans as one number (SQLite stores them alike).
    var numeric: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d), .date(let d): return d
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }
}
