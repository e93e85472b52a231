import Foundation

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

// MARK: Equality as the store sees it

extension Value {
    /// Strings are equal when their bytes are, as SQLite compares them (and Core Data, whose
    /// `isEqual:` on strings is a literal comparison): Swift's `String ==` is canonical
    /// equivalence, which would make "café" composed and decomposed one key in a dictionary
    /// while the store holds two rows (issue 27).
    package static func == (a: Value, b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.integer(let x), .integer(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.string(let x), .string(let y)): return Self.sameBytes(x, y)
        case (.date(let x), .date(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.data(let x), .data(let y)): return x == y
        default: return false
        }
    }

    /// Byte equality: one `memcmp` over native strings' contiguous UTF-8 (a save compares every
    /// attribute of every updated object), a walk over the bytes otherwise.
    @inline(__always)
    static func sameBytes(_ x: String, _ y: String) -> Bool {
        let contiguous = x.utf8.withContiguousStorageIfAvailable { a in
            y.utf8.withContiguousStorageIfAvailable { b in
                a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            }
        }
        return (contiguous ?? nil) ?? x.utf8.elementsEqual(y.utf8)
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .integer(let x):
            hasher.combine(1 as UInt8)
            hasher.combine(x)
        case .double(let x):
            hasher.combine(2 as UInt8)
            hasher.combine(x)
        case .string(let s):
            // String's own hash: canonically equal strings hash alike, so byte-equal ones do too
            // (what `==` needs), and it is the hash the dictionaries had before.
            hasher.combine(3 as UInt8)
            hasher.combine(s)
        case .date(let x):
            hasher.combine(4 as UInt8)
            hasher.combine(x)
        case .bool(let x):
            hasher.combine(5 as UInt8)
            hasher.combine(x)
        case .data(let x):
            hasher.combine(6 as UInt8)
            hasher.combine(x)
        }
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int64) { self = .integer(value) }
    package init(floatLiteral value: Double) { self = .double(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(nilLiteral: ()) { self = .null }
}
