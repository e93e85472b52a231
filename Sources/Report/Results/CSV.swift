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
        var scanner = Scanner(text)
        while let c = scanner.next() {
            if scanner.inQuotes { scanner.quoted(c) } else { scanner.unquoted(c) }
        }
        return try scanner.finish()
    }

    /// The parser's state between characters: the records read, the record and field being
    /// read, whether a quote is open, and a character read ahead to tell `""` from a closing quote.
    private struct Scanner {
        private(set) var inQuotes = false
        private var records: [[String]] = []
        private var record: [String] = []
        private var field = ""
        private var afterQuote = false
        /// A character of the current line was read (a last line without its line end counts).
        private var sawAny = false
        private var iterator: String.UnicodeScalarView.Iterator
        private var pending: Unicode.Scalar?

        init(_ text: String) { iterator = text.unicodeScalars.makeIterator() }

        mutating func next() -> Unicode.Scalar? {
            let c = pending ?? iterator.next()
            pending = nil
            if c != nil { sawAny = true }
            return c
        }

        /// Inside quotes: a doubled quote is one quote, a single one closes the field's quotes.
        mutating func quoted(_ c: Unicode.Scalar) {
            guard c == "\"" else { return field.unicodeScalars.append(c) }
            let n = iterator.next()
            if n == "\"" {
                field.unicodeScalars.append("\"")
            } else {
                inQuotes = false
                afterQuote = true
                pending = n
            }
        }

        mutating func unquoted(_ c: Unicode.Scalar) {
            switch c {
            case "\"" where field.isEmpty && !afterQuote:
                inQuotes = true
            case ",":
                record.append(field)
                field = ""
                afterQuote = false
            case "\r":
                if let n = iterator.next(), n != "\n" { pending = n }
                endRecord()
            case "\n":
                endRecord()
            default:
                field.unicodeScalars.append(c)
            }
        }

        private mutating func endRecord() {
            record.append(field)
            records.append(record)
            record = []
            field = ""
            afterQuote = false
            sawAny = false
        }

        mutating func finish() throws -> [[String]] {
            if inQuotes { throw CSVError.unterminatedQuote(line: records.count + 1) }
            if sawAny || !record.isEmpty {
                record.append(field)
                records.append(record)
            }
            return records
        }
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
