import Foundation

/// A results file read back for comparison: every record checked against the header, so a
/// foreign or cut file is refused with its name and line instead of comparing garbage.
package struct ResultsTable: Sendable {
    package let path: String
    /// Rows by column name, in file order; `lines[i]` is row i's line number in the file.
    package let rows: [[String: String]]
    package let lines: [Int]

    package init(path: String, rows: [[String: String]], lines: [Int]) {
        self.path = path
        self.rows = rows
        self.lines = lines
    }

    /// Reads and checks `path`.
    package static func read(_ path: String) throws -> ResultsTable {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CompareError.unreadable(path)
        }
        let text = String(decoding: data, as: UTF8.self)
        guard !text.isEmpty else { throw CompareError.malformed(path, line: 1, "the file is empty") }
        let records: [[String]]
        do { records = try CSV.parse(text) } catch {
            throw CompareError.malformed(path, line: text.split(separator: "\n", omittingEmptySubsequences: false).count,
                                         "the file ends inside a quoted field (cut short?)")
        }
        guard let header = records.first, header == ResultRow.header else {
            let found = records.first?.prefix(4).joined(separator: ",") ?? ""
            throw CompareError.malformed(path, line: 1, "not a loadgen results file of this version (header starts \"\(found)\")")
        }
        var rows: [[String: String]] = []
        var lines: [Int] = []
        // Line numbers count physical lines, as an editor shows them (a field may hold a newline).
        var line = 1 + header.joined().filter { $0 == "\n" }.count
        for record in records.dropFirst() {
            line += 1
            if record == [""] { continue }   // a blank line
            guard record.count == header.count else {
                throw CompareError.malformed(path, line: line, "the row has \(record.count) fields, the header \(header.count) (cut short?)")
            }
            rows.append(Dictionary(uniqueKeysWithValues: zip(header, record)))
            lines.append(line)
            line += record.joined().filter { $0 == "\n" }.count
        }
        guard !rows.isEmpty else { throw CompareError.malformed(path, line: 2, "the file has a header and no rows") }
        return ResultsTable(path: path, rows: rows, lines: lines)
    }
}

/// Why files cannot be compared. Exit status 2.
package enum CompareError: Error, CustomStringConvertible, Equatable {
    case unreadable(String)
    case malformed(String, line: Int, String)
    case foreignMachines(String)

    package var description: String {
        switch self {
        case .unreadable(let path): return "cannot read \(path)"
        case .malformed(let path, let line, let why): return "\(path):\(line): \(why)"
        case .foreignMachines(let what): return what
        }
    }
}
