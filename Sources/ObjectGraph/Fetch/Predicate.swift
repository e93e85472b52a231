/// A fetch filter: the small predicate language of Core Data fetch requests, as a value.
///
/// Built in code (`.equal("externalID", "ex-1")`) or parsed from Core Data's format syntax
/// (`Predicate("amount > %@ AND category == %@", 10.0, category)`). It compiles to SQL with bound
/// parameters, and evaluates in memory against unsaved objects, which fetches include as Core
/// Data's do.
package indirect enum Predicate: Sendable, Equatable, CustomStringConvertible {
    case compare(String, ComparisonOperator, Operand)
    case isIn(String, [Operand])
    case beginsWith(String, String)
    case and([Predicate])
    case or([Predicate])
    case not(Predicate)
    case constant(Bool)

    package enum ComparisonOperator: String, Sendable, Equatable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }

    /// What a key path is compared with: a value, an object (for to-one relationships), or nil.
    package enum Operand: Sendable, Equatable, CustomStringConvertible {
        case value(Value)
        case object(ManagedObjectID)

        package var description: String {
            switch self {
            case .value(let v): return v.description
            case .object(let id): return id.description
            }
        }
    }

    // MARK: Building in code

    package static func equal(_ key: String, _ value: some PredicateArgument) -> Predicate {
        .compare(key, .equal, value.predicateOperand)
    }

    package static func `in`(_ key: String, _ values: [some PredicateArgument]) -> Predicate {
        .isIn(key, values.map(\.predicateOperand))
    }

    package var description: String {
        switch self {
        case .compare(let k, let op, let v): return "\(k) \(op.rawValue) \(v)"
        case .isIn(let k, let vs): return "\(k) IN {\(vs.map(\.description).joined(separator: ", "))}"
        case .beginsWith(let k, let p): return "\(k) BEGINSWITH \"\(p)\""
        case .and(let ps): return "(" + ps.map(\.description).joined(separator: " AND ") + ")"
        case .or(let ps): return "(" + ps.map(\.description).joined(separator: " OR ") + ")"
        case .not(let p): return "NOT \(p)"
        case .constant(let b): return b ? "TRUEPREDICATE" : "FALSEPREDICATE"
        }
    }
}

/// A value that can stand on the right of a predicate: strings, numbers, booleans, values,
/// object IDs (and managed objects, read on their context's queue).
package protocol PredicateArgument {
    var predicateOperand: Predicate.Operand { get }
}

extension Value: PredicateArgument { package var predicateOperand: Predicate.Operand { .value(self) } }
extension String: PredicateArgument { package var predicateOperand: Predicate.Operand { .value(.string(self)) } }
extension Int: PredicateArgument { package var predicateOperand: Predicate.Operand { .value(.integer(Int64(self))) } }
extension Int64: PredicateArgument { package var predicateOperand: Predicate.Operand { .value(.integer(self)) } }
extension Double: PredicateArgument { package var predicateOperand: Predicate.Operand { .value(.double(self)) } }
extension Bool: PredicateArgument { package var predicateOperand: Predicate.Operand { .value(.bool(self)) } }
extension ManagedObjectID: PredicateArgument { package var predicateOperand: Predicate.Operand { .object(self) } }
extension ManagedObject: PredicateArgument { package var predicateOperand: Predicate.Operand { .object(objectID) } }

/// A predicate format string that does not parse, or names an unknown key.
package struct PredicateSyntaxError: Error, CustomStringConvertible, Equatable {
    package let message: String
    package var description: String { "predicate: \(message)" }
}
