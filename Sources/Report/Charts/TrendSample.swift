/// What the nightly trend needs of one row of a results history: which night, which strategy,
/// and its two figures. A history is a year of nightlies (100 MB and more), so it is read as a
/// stream into these few fields instead of into whole rows.
package struct TrendSample: Sendable, Equatable {
    /// The nightly run (one invocation: the run id's prefix before its sequence number).
    package var night: String
    package var startedAt: String
    package var strategy: String
    /// The configuration (every parameter's value): a night is compared with the baseline's
    /// repetitions of the same configuration.
    package var configuration: String
    package var vsLimit: Double?
    package var allocationsPerRow: Double?

    package init(
        night: String, startedAt: String, strategy: String, configuration: String = "", vsLimit: Double?,
        allocationsPerRow: Double?
    ) {
        self.night = night
        self.startedAt = startedAt
        self.strategy = strategy
        self.configuration = configuration
        self.vsLimit = vsLimit
        self.allocationsPerRow = allocationsPerRow
    }

    /// A results row as a sample (for the baseline the trend compares with).
    package init(_ row: ResultRow) {
        let done = row.measurement.rowsDone ?? 0
        self.init(
            night: String(row.identity.runID.split(separator: "-").first ?? ""), startedAt: row.identity.startedAt,
            strategy: row.parameters.strategy,
            configuration: ResultRow.parameterColumns.map { row.parameters[$0] }.joined(separator: ","),
            vsLimit: row.vsLimit,
            allocationsPerRow: done > 0 ? row.measurement.allocations.map { Double($0) / Double(done) } : nil)
    }

    /// The samples of a history file; rows counted under callgrind (whose time is callgrind's)
    /// are left out.
    package static func read(_ path: String) throws(CompareError) -> [TrendSample] {
        let reader = try ResultsReader(path: path)
        let column = { (key: Column) in ResultRow.index(of: key) }
        let (runID, started, strategy, vsLimit) = (
            column(.runID), column(.startedAt), column(.strategy), column(.vsLimit)
        )
        let (allocations, rate, wall, countedBy) = (
            column(.allocations), column(.rowsPerS), column(.wallS), column(.instructionsBy)
        )
        let parameters = ResultRow.parameterColumns.map(ResultRow.index(of:))
        var samples: [TrendSample] = []
        while try reader.next() {
            guard reader.isBlank(countedBy) else { continue }
            let id = reader.string(runID)
            var perRow: Double?
            if let a = Double(reader.string(allocations)), let r = Double(reader.string(rate)),
                let w = Double(reader.string(wall))
            {
                let done = (r * w).rounded(.toNearestOrAwayFromZero)
                perRow = done > 0 ? a / done : nil
            }
            samples.append(
                TrendSample(
                    night: String(id.split(separator: "-").first ?? ""), startedAt: reader.string(started),
                    strategy: reader.string(strategy),
                    configuration: parameters.map { reader.string($0) }.joined(separator: ","),
                    vsLimit: Double(reader.string(vsLimit)), allocationsPerRow: perRow))
        }
        guard !samples.isEmpty else { throw .malformed(path, line: 2, "the history has no rows outside callgrind") }
        return samples
    }
}
