/// Parses Core Data's predicate format: comparisons (`==`, `!=`, `<`, `<=`, `>`, `>=`), `IN`,
/// `BEGINSWITH`, `AND`/`&&`, `OR`/`||`, `NOT`/`!`, parentheses, `%@` arguments, quoted strings,
/// numbers, `nil`, `YES`/`NO`, `TRUEPREDICATE`/`FALSEPREDICATE`, and `{…}` lists.
extension Predicate {
    /// `Predicate("externalID == %@", key)`. Throws `PredicateSyntaxError` on bad syntax or when the
    /// number of `%@` differs from the arguments.
    package init(_ format: String, _ arguments: any PredicateArgument...) throws {
        try self.init(format: format, arguments: arguments)
    }

    /// The same, with the arguments as an array (`[[Operand]]` for IN lists via `.list`).
    package init(format: String, arguments: [any PredicateArgument]) throws {
        var parser = PredicateParser(tokens: try PredicateParser.tokenize(format), arguments: arguments)
        self = try parser.parseOr()
        guard parser.atEnd else { throw PredicateSyntaxError(message: "unexpected '\(parser.peek!)' in \"\(format)\"") }
        guard parser.argumentIndex == arguments.count else {
            throw PredicateSyntaxError(
                message: "\(arguments.count) arguments for \(parser.argumentIndex) %@ in \"\(format)\"")
        }
    }
}

/// A list argument for `IN %@`.
package struct PredicateList: PredicateArgument {
    package let operands: [Predicate.Operand]
    package init(_ values: [some PredicateArgument]) { operands = values.map(\.predicateOperand) }
    // A list is only meaningful after IN; elsewhere it compares as its first element.
    package var predicateOperand: Predicate.Operand { operands.first ?? .value(.null) }
}

struct PredicateParser {
    enum Token: Equatable, CustomStringConvertible {
        case identifier(String), string(String), number(Double, isInteger: Bool), symbol(String), placeholder
        var description: String {
            switch self {
            case .identifier(let s), .symbol(let s): return s
            case .string(let s): return "\"\(s)\""
            case .number(let n, _): return String(n)
            case .placeholder: return "%@"
            }
        }
    }

    var tokens: [Token]
    var position = 0
    let arguments: [any PredicateArgument]
    var argumentIndex = 0

    init(tokens: [Token], arguments: [any PredicateArgument]) {
        self.tokens = tokens
        self.arguments = arguments
    }

    var atEnd: Bool { position >= tokens.count }
    var peek: Token? { atEnd ? nil : tokens[position] }

    mutating func next() throws -> Token {
        guard let t = peek else { throw PredicateSyntaxError(message: "unexpected end of predicate") }
        position += 1
        return t
    }

    func isWord(_ t: Token?, _ words: String...) -> Bool {
        if case .identifier(let s)? = t { return words.contains(s.uppercased()) }
        if case .symbol(let s)? = t { return words.contains(s) }
        return false
    }

    mutating func parseOr() throws -> Predicate {
        var parts = [try parseAnd()]
        while isWord(peek, "OR", "||") {
            position += 1
            parts.append(try parseAnd())
        }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    mutating func parseAnd() throws -> Predicate {
        var parts = [try parseNot()]
        while isWord(peek, "AND", "&&") {
            position += 1
            parts.append(try parseNot())
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    mutating func parseNot() throws -> Predicate {
        if isWord(peek, "NOT", "!") {
            position += 1
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    mutating func parsePrimary() throws -> Predicate {
        let token = try next()
        if token == .symbol("(") {
            let inner = try parseOr()
            guard try next() == .symbol(")") else { throw PredicateSyntaxError(message: "missing ')'") }
            return inner
        }
        guard case .identifier(let key) = token else {
            throw PredicateSyntaxError(message: "expected a key path, found '\(token)'")
        }
        switch key.uppercased() {
        case "TRUEPREDICATE": return .constant(true)
        case "FALSEPREDICATE": return .constant(false)
        default: break
        }
        let op = try next()
        if isWord(op, "IN") { return .isIn(key, try parseList()) }
        if isWord(op, "BEGINSWITH") {
            guard case .value(.string(let prefix)) = try parseOperand() else {
                throw PredicateSyntaxError(message: "BEGINSWITH needs a string")
            }
            return .beginsWith(key, prefix)
        }
        guard case .symbol(let s) = op else {
            throw PredicateSyntaxError(message: "expected an operator after '\(key)'")
        }
        let comparison: Predicate.ComparisonOperator
        switch s {
        case "==", "=": comparison = .equal
        case "!=", "<>": comparison = .notEqual
        case "<": comparison = .less
        case "<=", "=<": comparison = .lessOrEqual
        case ">": comparison = .greater
        case ">=", "=>": comparison = .greaterOrEqual
        default: throw PredicateSyntaxError(message: "unknown operator '\(s)'")
        }
        return .compare(key, comparison, try parseOperand())
    }

    mutating func parseList() throws -> [Predicate.Operand] {
        if peek == .placeholder {
            position += 1
            guard argumentIndex < arguments.count else {
                throw PredicateSyntaxError(message: "missing argument for %@")
            }
            let argument = arguments[argumentIndex]
            argumentIndex += 1
            if let list = argument as? PredicateList { return list.operands }
            return [argument.predicateOperand]
        }
        guard try next() == .symbol("{") else { throw PredicateSyntaxError(message: "IN needs %@ or a {list}") }
        var items: [Predicate.Operand] = []
        while peek != .symbol("}") {
            items.append(try parseOperand())
            if peek == .symbol(",") { position += 1 }
        }
        position += 1
        return items
    }

    mutating func parseOperand() throws -> Predicate.Operand {
        let token = try next()
        switch token {
        case .placeholder:
            guard argumentIndex < arguments.count else {
                throw PredicateSyntaxError(message: "missing argument for %@")
            }
            argumentIndex += 1
            return arguments[argumentIndex - 1].predicateOperand
        case .string(let s): return .value(.string(s))
        case .number(let n, let isInteger): return .value(isInteger ? .integer(Int64(n)) : .double(n))
        case .identifier(let word):
            switch word.uppercased() {
            case "NIL", "NULL": return .value(.null)
            case "YES", "TRUE": return .value(.bool(true))
            case "NO", "FALSE": return .value(.bool(false))
            default: throw PredicateSyntaxError(message: "expected a value, found '\(word)'")
            }
        default: throw PredicateSyntaxError(message: "expected a value, found '\(token)'")
        }
    }

    static func tokenize(_ text: String) throws -> [Token] {
        var tokens: [Token] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace {
                i += 1
                continue
            }
            if c == "%" && i + 1 < chars.count && chars[i + 1] == "@" {
                tokens.append(.placeholder)
                i += 2
                continue
            }
            if c == "\"" || c == "'" {
                var j = i + 1
                var s = ""
                while j < chars.count && chars[j] != c {
                    if chars[j] == "\\" && j + 1 < chars.count { j += 1 }
                    s.append(chars[j])
                    j += 1
                }
                guard j < chars.count else { throw PredicateSyntaxError(message: "unterminated string in \"\(text)\"") }
                tokens.append(.string(s))
                i = j + 1
                continue
            }
            if c.isNumber || (c == "-" && i + 1 < chars.count && chars[i + 1].isNumber) {
                var j = i + 1
                while j < chars.count && (chars[j].isNumber || chars[j] == ".") { j += 1 }
                let s = String(chars[i..<j])
                guard let n = Double(s) else { throw PredicateSyntaxError(message: "bad number '\(s)'") }
                tokens.append(.number(n, isInteger: !s.contains(".")))
                i = j
                continue
            }
            if c.isLetter || c == "_" {
                var j = i + 1
                while j < chars.count && (chars[j].isLetter || chars[j].isNumber || chars[j] == "_" || chars[j] == ".")
                { j += 1 }
                tokens.append(.identifier(String(chars[i..<j])))
                i = j
                continue
            }
            let two = i + 1 < chars.count ? String(chars[i...(i + 1)]) : ""
            if ["==", "!=", "<>", "<=", ">=", "=<", "=>", "&&", "||"].contains(two) {
                tokens.append(.symbol(two))
                i += 2
                continue
            }
            if "=<>!(){},".contains(c) {
                tokens.append(.symbol(String(c)))
                i += 1
                continue
            }
            throw PredicateSyntaxError(message: "unexpected '\(c)' in \"\(text)\"")
        }
        return tokens
    }
}
