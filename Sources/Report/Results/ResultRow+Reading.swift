import SQLiteKit

/// A results row read back from its CSV fields (for `plot`, `report` and summaries of old runs):
/// each column reads itself (`ResultRow.columns`); what the file keeps in another form is
/// derived here.
extension ResultRow {
    /// Nil when the row lacks the fields every row has.
    package init?(csv f: [String: String]) {
        self.init(cell: { i in f[Self.columns[i].name] })
    }

    /// Reads the row from its cells, `cell(i)` being column `i` of `columns` (nil when the file
    /// has no such column). Nil when there is no status.
    package init?(cell: (Int) -> String?) {
        guard let status = RunStatus(cell: cell(Self.statusColumn) ?? "") else { return nil }
        self.init(
            identity: Self.blankIdentity, parameters: Self.blankParameters, measurement: RunMeasurement(status: status))
        for i in Self.columns.indices {
            if let text = cell(i) { Self.columns[i].read(&self, text) }
        }
        // The file keeps the rate, not the count: rows done is the rate times the time.
        if let rate = cell(Self.rateColumn).flatMap(Double.init), let wall = measurement.wallSeconds {
            measurement.rowsDone = Int((rate * wall).rounded())
        }
        // It keeps the total, not the statements of no kind it names: those are what is left.
        if let total = cell(Self.statementsColumn).flatMap(Int.init) {
            var sql = measurement.sql ?? StatementCounters.Snapshot()
            sql.other = max(0, total - sql.select - sql.insert - sql.update - sql.delete)
            measurement.sql = sql
        }
    }

    private static let blankIdentity = RunIdentity(
        runID: "", startedAt: "",
        system: SystemInfo(
            gitRevision: "", host: "", cpuModel: "", cores: 0, os: "", swiftVersion: "", sqliteVersion: "",
            allocator: ""))
    /// Every parameter column is present, blank when the file lacks it, so that rows of older
    /// files group with rows that left the parameter unused.
    private static let blankParameters = ParameterValues(
        Dictionary(uniqueKeysWithValues: parameterColumns.map { ($0.name, "") }))
    private static let statusColumn = index(of: .status)
    private static let rateColumn = index(of: .rowsPerS)
    private static let statementsColumn = index(of: .sqlStatements)
}
