import SQLiteKit

/// A predicate compiled for one entity: a WHERE clause with `?` and its values, in order.
struct CompiledPredicate {
    var sql: String
    var bindings: [Value]

    init(_ predicate: Predicate?, entity: Entity) throws {
        sql = ""
        bindings = []
        if let predicate { sql = try compile(predicate, entity) }
    }

    private mutating func compile(_ p: Predicate, _ e: Entity) throws -> String {
        switch p {
        case .constant(let b):
            return b ? "1" : "0"
        case .compare(let key, let op, let operand):
            let column = try Self.column(key, e)
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
            let column = try Self.column(key, e)
            if operands.isEmpty { return "0" }
            bindings += operands.map(Self.value)
            return "\(column) IN (" + Array(repeating: "?", count: operands.count).joined(separator: ",") + ")"
        case .beginsWith(let key, let prefix):
            let column = try Self.column(key, e)
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

    /// Reads a column as a value of `type`.
    @inline(__always)
    func value(at column: Int32, as type: AttributeType) -> Value {
        if isNull(at: column) { return .null }
        switch type {
        case .integer64: return .integer(Int64(int(at: column)))
        case .double: return .double(double(at: column))
        case .string: return .string(text(at: column) ?? "")
        case .date: return .date(double(at: column))
        case .boolean: return .bool(int(at: column) != 0)
        case .binary: return .data(blob(at: column) ?? [])
        }
    }
}

// MARK: Evaluating in memory

extension Predicate {
    /// Whether `object` (not a fault) matches, by its current in-memory values.
    func evaluate(_ object: ManagedObject) -> Bool {
        switch self {
        case .constant(let b): return b
        case .and(let ps): return ps.allSatisfy { $0.evaluate(object) }
        case .or(let ps): return ps.contains { $0.evaluate(object) }
        case .not(let p): return !p.evaluate(object)
        case .compare(let key, let op, let operand):
            guard let current = Self.current(key, object) else { return false }
            let other = Self.comparable(operand)
            if current.isNull || other.isNull {
                switch op {
                case .equal: return current.isNull && other.isNull
                case .notEqual: return current.isNull != other.isNull
                default: return false
                }
            }
            guard let order = Self.order(current, other) else { return op == .notEqual }
            switch op {
            case .equal: return order == 0
            case .notEqual: return order != 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            }
        case .isIn(let key, let operands):
            guard let current = Self.current(key, object), !current.isNull else { return false }
            return operands.contains { Self.order(current, Self.comparable($0)) == 0 }
        case .beginsWith(let key, let prefix):
            guard case .string(let s)? = Self.current(key, object) else { return false }
            return s.hasPrefix(prefix)
        }
    }

    /// The object's value for `key`; to-ones as the target's ID.
    private static func current(_ key: String, _ o: ManagedObject) -> Value? {
        if let i = o.entity.attributeIndex(key) { return o.values[i] }
        if let i = o.entity.toOneIndex(key) {
            return o.toOne[i].map { .string("\($0.objectID.store)/\($0.objectID.entityID)/\($0.objectID.key)") } ?? .null
        }
        return nil
    }

    private static func comparable(_ operand: Operand) -> Value {
        switch operand {
        case .value(let v): return v
        case .object(let id): return .string("\(id.store)/\(id.entityID)/\(id.key)")
        }
    }

    /// SQLite's order across types: numbers by value, strings by bytes, blobs by bytes.
    static func order(_ a: Value, _ b: Value) -> Int? {
        if let x = a.numeric, let y = b.numeric { return x < y ? -1 : (x > y ? 1 : 0) }
        switch (a, b) {
        case (.string(let x), .string(let y)):
            return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : (x == y ? 0 : 1)
        case (.data(let x), .data(let y)):
            return x.lexicographicallyPrecedes(y) ? -1 : (x == y ? 0 : 1)
        default:
            return nil
        }
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
