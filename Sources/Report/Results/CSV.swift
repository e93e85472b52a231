/// RFC 4180 CSV: fields with a comma, quote, CR or LF are quoted, quotes doubled, lines end CRLF.
package enum CSV {
    /// One record as a line, with its CRLF.
    package static func line(_ fields: [String]) -> String {
        fields.map(quote).joined(separator: ",") + "\r\n"
    }

    /// A field, quoted when it must be.
    package static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Parses a whole document into records. Accepts CRLF or LF line ends; a quoted field may
    /// hold both. Throws on an unterminated quote (a file cut in the middle of a field).
    package static func parse(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var inQuotes = false
        var afterQuote = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func nextScalar() -> Unicode.Scalar? {
            if let p = pending {
                pending = nil
                return p
            }
            return iterator.next()
        }
        var sawAny = false
        while let c = nextScalar() {
            sawAny = true
            if inQuotes {
                if c == "\"" {
                    if let n = nextScalar() {
                        if n == "\"" {
                            field.unicodeScalars.append("\"")
                        } else {
                            inQuotes = false
                            afterQuote = true
                            pending = n
                        }
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"" where field.isEmpty && !afterQuote:
                inQuotes = true
            case ",":
                record.append(field)
                field = ""
                afterQuote = false
            case "\r":
                if let n = nextScalar(), n != "\n" { pending = n }
                fallthrough
            case "\n":
                record.append(field)
                records.append(record)
                record = []
                field = ""
                afterQuote = false
                sawAny = false
            default:
                field.unicodeScalars.append(c)
            }
        }
        if inQuotes { throw CSVError.unterminatedQuote(line: records.count + 1) }
        if sawAny || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }
}

package enum CSVError: Error, Equatable, CustomStringConvertible {
    case unterminatedQuote(line: Int)

    package var description: String {
        switch self {
        case .unterminatedQuote(let line): return "CSV record \(line) ends inside a quoted field"
        }
    }
}
