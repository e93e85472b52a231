/// A results file read row by row: the header checked once, and every cell of every row
/// checked against its column's domain before a reader sees it, so that a foreign, cut or edited
/// file is refused with its name, line and column instead of being compared or drawn.
///
/// Streaming (`CSVStream`): memory does not grow with the file, so a year of nightlies can be
/// compared or drawn. Readers take what they need from each row (`string`, `row()`).
package struct ResultsReader {
    private let stream: CSVStream
    package var path: String { stream.path }
    /// The line the current row starts on.
    package var line: Int { stream.line }

    /// Opens `path` and checks its header. Throws `CompareError`: `.unreadable` when the file
    /// cannot be read, `.malformed` (with its line) when it is not a results file of this version.
    package init(path: String) throws(CompareError) {
        do { stream = try CSVStream(path: path) } catch { throw .unreadable(error.description) }
        guard try Self.advance(stream) else { throw .malformed(path, line: 1, "the file is empty") }
        let header = stream.strings
        guard header == ResultRow.header else {
            let found = header.prefix(4).joined(separator: ",")
            throw .malformed(path, line: 1, "not a loadgen results file of this version (header starts \"\(found)\")")
        }
    }

    /// Moves to the next row, skipping blank lines; false at the end. Throws `.malformed` for
    /// a row whose fields do not match the header or whose cell is outside its column's domain.
    package func next() throws(CompareError) -> Bool {
        while try Self.advance(stream) {
            if stream.isBlankLine { continue }
            let columns = ResultRow.columns
            guard stream.count == columns.count else {
                throw .malformed(path, line: line, "the row has \(stream.count) fields, the header \(columns.count) (cut short?)")
            }
            for (i, column) in columns.enumerated() where column.domain != .text {
                if let problem = stream.withBytes(i, column.domain.problem) {
                    throw .malformed(path, line: line, "\(column.name): \(problem)")
                }
            }
            return true
        }
        return false
    }

    /// The cell of column `i` (an index into `ResultRow.columns`).
    package func string(_ i: Int) -> String { stream.string(i) }

    /// True when the cell of column `i` is blank.
    package func isBlank(_ i: Int) -> Bool { stream.isEmpty(i) }

    /// The whole row, read back.
    package func row() -> ResultRow {
        // The reader checked the status, so there always is one.
        ResultRow(cell: { i in stream.string(i) })!
    }

    private static func advance(_ stream: CSVStream) throws(CompareError) -> Bool {
        do { return try stream.next() } catch {
            switch error {
            case .unterminatedQuote(let path, let line): throw .malformed(path, line: line, "the file ends inside a quoted field (cut short?)")
            default: throw .unreadable(error.description)
            }
        }
    }

    /// Every row of `path`, read back whole (for files small enough to hold: a run's results).
    package static func rows(_ path: String) throws(CompareError) -> [ResultRow] {
        let reader = try ResultsReader(path: path)
        var rows: [ResultRow] = []
        while try reader.next() { rows.append(reader.row()) }
        guard !rows.isEmpty else { throw .malformed(path, line: 2, "the file has a header and no rows") }
        return rows
    }
}

extension ResultRow {
    /// Where each column is in `columns`, by name.
    package static let columnIndex: [String: Int] =
        Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($0.element.name, $0.offset) })
}
