import SQLiteKit

/// A results row read back from its CSV fields (for `plot`, `report` and summaries of old runs):
/// each column reads itself (`ResultRow.columns`); what the file keeps in another form is
/// derived here.
extension ResultRow {
    /// Nil when the row lacks the fields every row has.
    package init?(csv f: [String: String]) {
        guard let status = RunStatus(cell: f["status"] ?? "") else { return nil }
        let blank = SystemInfo(gitRevision: "", host: "", cpuModel: "", cores: 0, os: "", swiftVersion: "",
                               sqliteVersion: "", allocator: "")
        // Every parameter column is present, blank when the file lacks it, so that rows of
        // older files group with rows that left the parameter unused.
        let parameters = Dictionary(uniqueKeysWithValues: Self.parameterColumns.map { ($0, "") })
        self.init(identity: RunIdentity(runID: "", startedAt: "", system: blank), parameters: ParameterValues(parameters),
                  measurement: RunMeasurement(status: status))
        for column in Self.columns {
            if let cell = f[column.name] { column.read(&self, cell) }
        }
        // The file keeps the rate, not the count: rows done is the rate times the time.
        if let rate = f["rows_per_s"].flatMap(Double.init), let wall = measurement.wallSeconds {
            measurement.rowsDone = Int((rate * wall).rounded())
        }
        // It keeps the total, not the statements of no kind it names: those are what is left.
        if let total = f["sql_statements"].flatMap(Int.init) {
            var sql = measurement.sql ?? StatementCounters.Snapshot()
            sql.other = max(0, total - sql.select - sql.insert - sql.update - sql.delete)
            measurement.sql = sql
        }
    }
}
