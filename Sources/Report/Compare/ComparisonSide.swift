/// One side of a comparison (the baseline, or the new results), read file by file as a stream
/// and kept only as `compare` needs it: per configuration, the cells of the figures it judges.
///
/// A year of nightlies is 100 MB: held as rows of dictionaries it took two gigabytes. Grouped
/// while read, it takes the figures' cells and one key per configuration.
package struct ComparisonSide: Sendable {
    /// The repetitions of one configuration: each judged figure's cell per row ("" when blank),
    /// in file order.
    package struct Group: Sendable {
        package var cells: [[String]] = Array(repeating: [], count: Comparison.figureColumns.count)
        /// Each row's invocation (its run id before the sequence number): which night it is from.
        package var invocations: [String] = []
        package var rows = 0
        /// True when a history consumer reported a lag (it races the importer).
        package var hasLag = false

        mutating func append(_ row: [String], invocation: String, lag: Bool) {
            for (k, cell) in row.enumerated() { cells[k].append(cell) }
            invocations.append(invocation)
            rows += 1
            hasLag = hasLag || lag
        }

        /// The largest move of one invocation's median of `figure` from the median of all, over
        /// the invocations with two repetitions or more; nil with fewer than two such invocations.
        package func drift(_ figure: String) -> Double? {
            let column = cells(figure)
            var byNight: [String: [Double]] = [:]
            for (cell, night) in zip(column, invocations) {
                if let v = Double(cell) { byNight[night, default: []].append(v) }
            }
            let nights = byNight.values.filter { $0.count >= 2 }
            guard nights.count >= 2, let all = Statistics(nights.flatMap { $0 }), all.median > 0 else { return nil }
            return nights.compactMap { Statistics($0).map { abs($0.median / all.median - 1) } }.max()
        }

        /// The cells of `figure`, blanks included.
        package func cells(_ figure: String) -> [String] {
            guard let i = Comparison.figureColumns.firstIndex(where: { $0.name == figure }) else {
                preconditionFailure("compare judges no figure '\(figure)'")
            }
            return cells[i]
        }
    }

    package private(set) var groups: [[String]: Group] = [:]
    /// The machines the rows were measured on (CPU model, core count, SQLite and Swift versions:
    /// a new toolchain changes allocations and instructions as much as a new CPU changes time).
    package private(set) var machines: [String] = []
    /// The same without the Swift version: the hardware and SQLite the rows ran on.
    package private(set) var hardware: [String] = []
    package private(set) var files: [String] = []
    package private(set) var rowCount = 0
    /// Judged figures some file of this side lacks (written by an older loadgen): not judged.
    package private(set) var missingFigures: [String] = []
    /// Columns that tell configurations apart which some file of this side lacks (an older
    /// loadgen's): its configurations cannot match a newer file's.
    package private(set) var missingKeyColumns: [String] = []
    /// The run id of every row read, with the file it came from (its place in `files`): a row
    /// read twice means a file or shard given twice (its repetitions would be counted double).
    private var runIDs = RunIDLedger()
    /// The invocations (run ids before their sequence number) the rows come from: a new side
    /// holding none the baseline lacks is the baseline again (a misconfigured path).
    package private(set) var invocations: Set<String> = []

    package init() {}

    /// Reads `path` and adds its rows. Throws `CompareError` for a file that cannot be read, is
    /// not a results file, holds a bad cell, or repeats rows already read.
    package mutating func add(_ path: String) throws(CompareError) {
        let reader = try ResultsReader(path: path)
        files.append(path)
        runIDs.begin(path)
        for name in Comparison.keyColumns.map(\.name)
        where reader.missingColumns.contains(name) && !missingKeyColumns.contains(name) {
            missingKeyColumns.append("\(name) (in \(path))")
        }
        for name in Comparison.figureColumns.map(\.name)
        where reader.missingColumns.contains(name) && !missingFigures.contains(name) {
            missingFigures.append(name)
        }
        var rows = 0
        while try reader.next() {
            rows += 1
            try add(line: reader.line) { reader.string($0) }
        }
        guard rows > 0 else { throw .malformed(path, line: 2, "the file has a header and no rows") }
        rowCount += rows
    }

    /// Adds rows built in code (tests, and results held in memory), as if read from `source`.
    package mutating func add(_ rows: [ResultRow], source: String) throws(CompareError) {
        files.append(source)
        runIDs.begin(source)
        for (i, row) in rows.enumerated() {
            let fields = row.fields
            try add(line: i + 2) { fields[$0] }
        }
        rowCount += rows.count
    }

    /// One row, its cells by column index (`ResultRow.columns`).
    private mutating func add(line: Int, _ cell: (Int) -> String) throws(CompareError) {
        let id = cell(Self.runID)
        if let twice = runIDs.add(id) { throw .malformed(files[files.count - 1], line: line, twice) }
        let machine = Self.machine.map(cell)
        let name = "\(machine[0]), \(machine[1]) cores, SQLite \(machine[2]), Swift \(machine[3])"
        if !machines.contains(name) { machines.append(name) }
        let bare = "\(machine[0]), \(machine[1]) cores, SQLite \(machine[2])"
        if !hardware.contains(bare) { hardware.append(bare) }
        let invocation = String(id.split(separator: "-").first ?? "")
        invocations.insert(invocation)
        // Mutated in place: a copy taken out and put back would copy every cell so far.
        groups[Self.keys.map(cell), default: Group()].append(
            Self.figures.map(cell), invocation: invocation,
            lag: !cell(Self.lag).isEmpty)
    }

    private static let keys = Comparison.keyColumns.map(ResultRow.index(of:))
    private static let figures = Comparison.figureColumns.map(ResultRow.index(of:))
    private static let machine = [Column.cpuModel, .cores, .sqliteVersion, .swiftVersion].map(ResultRow.index(of:))
    private static let runID = ResultRow.index(of: .runID)
    private static let lag = ResultRow.index(of: .historyLagP50Ms)

    /// Reads every file of one side.
    package static func read(_ paths: [String]) throws(CompareError) -> ComparisonSide {
        var side = ComparisonSide()
        for path in paths { try side.add(path) }
        return side
    }
}
