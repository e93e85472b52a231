/// A results file read row by row: the header checked once and read by name, and every cell of
/// every row checked against its column's domain before a reader sees it, so that a foreign, cut
/// or edited file is refused with its name, line and column instead of being compared or drawn.
///
/// By name: a file an older loadgen wrote (fewer columns) reads with the columns it lacks blank,
/// so that adding a column does not make every older results file, baseline and history
/// unreadable. A file without a column every version wrote, or with one this version does not
/// know (a newer loadgen, another tool), is refused with the names.
///
/// Streaming (`CSVStream`): memory does not grow with the file, so a year of nightlies can be
/// compared or drawn. Readers take what they need from each row (`string`, `row()`).
package struct ResultsReader {
    private let stream: CSVStream
    package var path: String { stream.path }
    /// The line the current row starts on.
    package var line: Int { stream.line }
    /// For each of `ResultRow.columns`, where the file has it (nil: the file lacks it).
    private let field: [Int?]
    /// The columns of `ResultRow.columns` the file lacks (an older version wrote it).
    package let missingColumns: [String]
    private let fieldCount: Int
    /// Each invocation's command line and the line it was first read on.
    private let invocations = InvocationCommands()

    /// Opens `path` and checks its header. Throws `CompareError`: `.unreadable` when the file
    /// cannot be read, `.malformed` (with its line) when it is not a results file this version reads.
    package init(path: String) throws(CompareError) {
        do { stream = try CSVStream(path: path) } catch { throw .unreadable(error.description) }
        guard try Self.advance(stream) else { throw .malformed(path, line: 1, "the file is empty") }
        let header = stream.strings
        let known = Set(ResultRow.header)
        guard header.contains(where: known.contains) else {
            let found = header.prefix(4).joined(separator: ",")
            throw .malformed(path, line: 1, "not a loadgen results file (header starts \"\(found)\")")
        }
        let unknown = header.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw .malformed(
                path, line: 1,
                "columns this version does not know: \(unknown.joined(separator: ", ")) "
                    + "(written by a newer loadgen, or edited?)")
        }
        let repeated = header.filter { name in header.filter { $0 == name }.count > 1 }.uniqued()
        guard repeated.isEmpty else {
            throw .malformed(path, line: 1, "columns named twice: \(repeated.joined(separator: ", "))")
        }
        let required = ResultRow.requiredColumns.map(\.name).filter { !header.contains($0) }
        guard required.isEmpty else {
            throw .malformed(
                path, line: 1, "lacks the columns every results file has: \(required.joined(separator: ", "))")
        }
        let position = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($0.element, $0.offset) })
        field = ResultRow.columns.map { position[$0.name] }
        missingColumns = ResultRow.columns.filter { position[$0.name] == nil }.map(\.name)
        fieldCount = header.count
    }

    /// Moves to the next row, skipping blank lines; false at the end. Throws `.malformed` for
    /// a row whose fields do not match the header or whose cell is outside its column's domain.
    package func next() throws(CompareError) -> Bool {
        while try Self.advance(stream) {
            if stream.isBlankLine { continue }
            guard stream.count == fieldCount else {
                throw .malformed(
                    path, line: line, "the row has \(stream.count) fields, the header \(fieldCount) (cut short?)")
            }
            for (i, domain) in Self.checkedDomains {
                guard let f = field[i] else {
                    if domain == .status { throw .malformed(path, line: line, "the row has no status") }
                    continue
                }
                if let problem = stream.withBytes(f, domain.problem) {
                    if string(Self.runID) == Column.runID.name {
                        throw .malformed(
                            path, line: line,
                            "the header is repeated at line \(line) (files joined with cat? keep the first "
                                + "header only, or give the files one by one)")
                    }
                    throw .malformed(path, line: line, "\(ResultRow.columns[i].name): \(problem)")
                }
            }
            if let contradiction = contradiction()
                ?? invocations.conflict(runID: string(Self.runID), command: string(Self.command), line: line)
            {
                throw .malformed(path, line: line, contradiction)
            }
            return true
        }
        return false
    }

    /// The columns whose cells are checked, with their domains: taken once, not per row (copying
    /// each column's declaration, closures and all, per cell was a tenth of the reading).
    private static let checkedDomains = ResultRow.columns.enumerated().compactMap { i, column in
        column.domain == .text ? nil : (i, column.domain)
    }
    private static let runID = ResultRow.index(of: .runID)
    private static let status = ResultRow.index(of: .status)
    private static let lost = ResultRow.index(of: .lost)
    private static let integrity = ResultRow.index(of: .integrity)
    private static let command = ResultRow.index(of: .command)
    private static let operation = ResultRow.index(of: .operation)
    private static let input = ResultRow.index(of: .input)
    private static let dupRate = ResultRow.index(of: .dupRate)
    private static let duplicates = ResultRow.index(of: .duplicates)
    private static let storeRows = ResultRow.index(of: .storeRows)
    private static let uniqueKeys = ResultRow.index(of: .uniqueKeys)
    /// Findings the verifier fails every strategy for (whatever it promises), with what they mean.
    private static let alwaysFailed = [
        (ResultRow.index(of: .leakedConnections), "a strategy that leaves connections open"),
        (ResultRow.index(of: .unexpectedRows), "a store holding rows whose key the workload never produced"),
    ]

    /// What a row's own figures say against its status: the verifier never lets a store with a
    /// lost key, an unexpected row or a damaged file be ok, nor a run that leaked a connection,
    /// so such a row was edited (and must not be recommended). Issue 55, item 13.
    private func contradiction() -> String? {
        guard string(Self.status) == RunStatus.ok.rawValue else { return nil }
        let lost = string(Self.lost)
        let integrity = string(Self.integrity)
        if !lost.isEmpty && lost != "0" {
            return "status ok with lost \(lost): the verifier fails a store that lost keys (edited?)"
        }
        if !integrity.isEmpty && integrity != "ok" {
            return "status ok with integrity '\(integrity)': the verifier fails a damaged store (edited?)"
        }
        for (column, meaning) in Self.alwaysFailed where (Double(string(column)) ?? 0) > 0 {
            return
                "status ok with \(ResultRow.columns[column].name) \(string(column)): the verifier fails \(meaning) (edited?)"
        }
        let imports = ["", "import"].contains(string(Self.operation))
        // No record repeats: no idiom, deduplicating or not, can store a key twice.
        if imports, string(Self.input).isEmpty, Double(string(Self.dupRate)) == 0,
            let d = Double(string(Self.duplicates)), d > 0
        {
            return
                "status ok with duplicates \(string(Self.duplicates)) and dup_rate 0: no record repeats, so no strategy "
                + "stores a key twice (edited?)"
        }
        // Every key stored (nothing lost) is at least one row per key.
        if imports, let stored = Double(string(Self.storeRows)), let keys = Double(string(Self.uniqueKeys)),
            stored < keys
        {
            return
                "status ok with store_rows \(string(Self.storeRows)) below unique_keys \(string(Self.uniqueKeys)) and nothing "
                + "lost: a store holding every key has a row per key (edited?)"
        }
        return nil
    }

    /// The cell of column `i` (an index into `ResultRow.columns`); blank where the file lacks it.
    package func string(_ i: Int) -> String { field[i].map { stream.string($0) } ?? "" }

    /// True when the cell of column `i` is blank (or the file lacks the column).
    package func isBlank(_ i: Int) -> Bool { field[i].map { stream.isEmpty($0) } ?? true }

    /// The whole row, read back.
    package func row() -> ResultRow {
        // The reader checked the status, so there always is one.
        ResultRow(cell: { i in field[i].map { stream.string($0) } })!
    }

    private static func advance(_ stream: CSVStream) throws(CompareError) -> Bool {
        do { return try stream.next() } catch {
            switch error {
            case .unterminatedQuote(let path, let line):
                throw .malformed(path, line: line, "the file ends inside a quoted field (cut short?)")
            default: throw .unreadable(error.description)
            }
        }
    }

    /// Every row of `path`, read back whole (for files small enough to hold: a run's results).
    /// Repeated texts share one copy: the repetitions of a configuration have the same
    /// parameters, and a file's rows the same machine and command, which held as many copies as
    /// rows (a year of nightlies plotted as results took 944 MB, most of it those).
    package static func rows(_ path: String) throws(CompareError) -> [ResultRow] {
        let reader = try ResultsReader(path: path)
        var rows: [ResultRow] = []
        var shared = SharedValues()
        while try reader.next() { rows.append(shared.sharing(reader.row())) }
        guard !rows.isEmpty else { throw .malformed(path, line: 2, "the file has a header and no rows") }
        return rows
    }
}

/// The command line each invocation (the run id before its last `-`) ran: one invocation has
/// one, so two are rows of two runs put under one id, whose conclusions would each be half
/// ("Nothing to compare", twice).
private final class InvocationCommands {
    private var first: [Substring: (command: String, line: Int)] = [:]

    /// Why the row at `line` cannot be read with those before it, or nil.
    func conflict(runID: String, command: String, line: Int) -> String? {
        guard !command.isEmpty, let dash = runID.lastIndex(of: "-") else { return nil }
        let invocation = runID[..<dash]
        guard let earlier = first[invocation] else {
            first[invocation] = (command, line)
            return nil
        }
        guard earlier.command != command else { return nil }
        return
            "run \(invocation) has two command lines (line \(earlier.line) and this one): rows of two runs under one id (edited?)"
    }
}

/// One copy of each parameter set, machine and command seen while reading a file: a row takes
/// the copy already held (Swift's copy-on-write then shares its storage) instead of its own.
private struct SharedValues {
    private var parameters: Set<ParameterValues> = []
    /// One identity per machine seen (a file names one or a few): its machine box is shared.
    private var machines: [RunIdentity] = []
    private var commands: Set<String> = []

    mutating func sharing(_ row: ResultRow) -> ResultRow {
        var row = row
        if let held = parameters.firstIndex(of: row.parameters) {
            row.parameters = parameters[held]
        } else {
            parameters.insert(row.parameters)
        }
        if let held = machines.first(where: { $0.system == row.identity.system }) {
            row.identity.shareMachine(with: held)
        } else {
            machines.append(row.identity)
        }
        if let held = commands.firstIndex(of: row.identity.command) {
            row.identity.command = commands[held]
        } else {
            commands.insert(row.identity.command)
        }
        return row
    }
}

extension ResultRow {
    /// The columns every results file has had since the first version: a file without one is
    /// not a results file this version can read.
    package static let requiredColumns: [Column] = [.runID, .startedAt, .strategy, .dataset, .rows, .status]

    /// Where each column is in `columns`, by name.
    package static let columnIndex: [String: Int] =
        Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($0.element.name, $0.offset) })

    /// Where `column` is in `columns`: every declared key has its entry (`ColumnTableTests`).
    package static func index(of column: Column) -> Int { columnIndex[column.name]! }
}
