/// An attribute's value, as the engine keeps it in memory and binds it into SQL.
package enum Value: Sendable, Hashable, Codable, CustomStringConvertible {
    case null
    case integer(Int64)
    case double(Double)
    case string(String)
    /// Seconds since 2001-01-01 00:00:00 UTC, Core Data's reference date.
    case date(Double)
    case bool(Bool)
    case data([UInt8])

    package var isNull: Bool { if case .null = self { return true } else { return false } }

    package var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    package var doubleValue: Double? {
        switch self {
        case .double(let d), .date(let d): return d
        case .integer(let i): return Double(i)
        default: return nil
        }
    }
    package var int64Value: Int64? {
        switch self {
        case .integer(let i): return i
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }
    package var boolValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .integer(let i): return i != 0
        default: return nil
        }
    }
    package var dataValue: [UInt8]? { if case .data(let d) = self { return d } else { return nil } }

    package var description: String {
        switch self {
        case .null: return "nil"
        case .integer(let i): return String(i)
        case .double(let d): return String(d)
        case .string(let s): return "\"\(s)\""
        case .date(let d): return "date(\(d))"
        case .bool(let b): return String(b)
        case .data(let d): return "<\(d.count) bytes>"
        }
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
                 ExpressibleByBooleanLiteral, ExpressibleByNilLiteral {
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(floatLiteral value: Double) { self = .double(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(nilLiteral: ()) { self = .null }
}
