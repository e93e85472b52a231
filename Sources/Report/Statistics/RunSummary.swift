/// The repetitions of a run grouped by configuration, with their statistics, and the
/// configurations grouped by sweep point for ranking. What every output of a run (the summary
/// on stdout, `--json`, `--markdown`, `--summary-csv`) is rendered from.
package struct RunSummary: Sendable {
    /// One measured configuration (a strategy at one point of the sweep) and its repetitions.
    package struct Configuration: Sendable {
        package let parameters: ParameterValues
        /// The swept parameters it uses, `name=value` ("" without a sweep).
        package let label: String
        package let rows: [ResultRow]
        package var strategy: String { parameters.strategy }
        /// Repetitions whose status is ok: the statistics are theirs.
        package var ok: [ResultRow] { rows.filter { $0.measurement.status == .ok } }
        package let rate: Statistics?
        package let wall: Statistics?
        package let vsLimit: Statistics?
        package let peakRSS: Statistics?
        /// SQL statements per record, median over ok repetitions.
        package let sqlPerRow: Double?

        init(rows: [ResultRow]) {
            self.rows = rows
            parameters = rows[0].parameters
            label = rows[0].configuration
            let ok = rows.filter { $0.measurement.status == .ok }
            rate = Statistics(ok.compactMap(\.measurement.rowsPerSecond))
            wall = Statistics(ok.compactMap(\.measurement.wallSeconds))
            vsLimit = Statistics(ok.compactMap(\.vsLimit))
            peakRSS = Statistics(ok.compactMap { $0.measurement.peakRSSBytes.map(Double.init) })
            sqlPerRow = Statistics(ok.compactMap { row in
                guard let sql = row.measurement.sql?.total, let done = row.measurement.rowsDone, done > 0 else { return nil }
                return Double(sql) / Double(done)
            })?.median
        }

        /// The last ok repetition's measurement (for counts that repeat exactly).
        package var last: RunMeasurement? { ok.last?.measurement }

        /// The figures every summary table shows for it, in order: median rows/s, (the median's
        /// 95 % interval,) ± MAD, vs_limit, peak RSS, duplicates, lost, SQL/row, status. One
        /// definition for the terminal table and the Markdown one.
        func figureCells(withInterval: Bool) -> [String] {
            var cells = [rate.map { String(format: "%.0f", $0.median) } ?? ""]
            if withInterval {
                cells.append(rate?.medianInterval.map { String(format: "%.0f … %.0f", $0.lowerBound, $0.upperBound) } ?? "")
            }
            return cells + [
                rate.map { $0.count > 1 ? String(format: "%.0f", $0.mad) : "" } ?? "",
                vsLimit.map { String(format: "%.3f", $0.median) } ?? "",
                peakRSS.map { Format.bytes(Int($0.median)) } ?? "",
                last?.verification.map { String($0.duplicates) } ?? "",
                last?.verification.map { String($0.lost) } ?? "",
                sqlPerRow.map { String(format: "%.2f", $0) } ?? "",
                ok.count == rows.count ? "ok" : "\(rows.count - ok.count) not ok",
            ]
        }
    }

    /// Configurations measured at one sweep point, fastest first.
    package struct Ranking: Sendable {
        /// The point, `name=value` ("" when nothing but strategies varied).
        package let point: String
        package let members: [Configuration]
        /// How much faster the first is than the second: the ratio of their median rates and the
        /// bootstrap interval of that ratio over repetitions paired by round.
        package let lead: (ratio: Double, interval: ClosedRange<Double>?)?
    }

    /// Every repetition, in the order it ran.
    package let rows: [ResultRow]
    package let configurations: [Configuration]
    package let rankings: [Ranking]
    /// Lines the caller adds (flags a strategy ignored, limits added).
    package let notes: [String]
    /// Strategies that measure something other than the full idiom, with what to keep in mind.
    package let marks: [String: String]
    /// Strategies measured as yardsticks: shown, not ranked.
    package let unranked: Set<String>

    /// Groups `rows` (in the order they ran). `sweptColumns` are the parameter columns that
    /// took more than one value (strategy excluded); a configuration whose strategy does not use
    /// one (blank there) is ranked at every value of it.
    package init(rows: [ResultRow], sweptColumns: [String] = [], notes: [String] = [], marks: [String: String] = [:],
                unranked: Set<String> = []) {
        var order: [ParameterValues] = []
        var byParameters: [ParameterValues: [ResultRow]] = [:]
        for row in rows {
            if byParameters[row.parameters] == nil { order.append(row.parameters) }
            byParameters[row.parameters, default: []].append(row)
        }
        self.rows = rows
        configurations = order.map { Configuration(rows: byParameters[$0]!) }
        rankings = Self.rank(configurations.filter { !unranked.contains($0.strategy) }, sweptColumns: sweptColumns)
        self.notes = notes
        self.marks = marks
        self.unranked = unranked
    }

    private static func rank(_ configurations: [Configuration], sweptColumns: [String]) -> [Ranking] {
        // The points: every combination of swept values that some configuration sets fully.
        var points: [[String: String]] = []
        for c in configurations {
            let point = Dictionary(uniqueKeysWithValues: sweptColumns.map { ($0, c.parameters[$0]) })
            if point.values.allSatisfy({ !$0.isEmpty }) && !points.contains(point) { points.append(point) }
        }
        if points.isEmpty { points = [[:]] }
        return points.map { point in
            let members = configurations.filter { c in
                point.allSatisfy { column, value in c.parameters[column].isEmpty || c.parameters[column] == value }
            }.filter { $0.rate != nil }.sorted { ($0.rate?.median ?? 0) > ($1.rate?.median ?? 0) }
            let label = sweptColumns.compactMap { column in point[column].map { "\(column)=\($0)" } }.joined(separator: " ")
            return Ranking(point: label, members: members, lead: lead(members))
        }
    }

    private static func lead(_ members: [Configuration]) -> (ratio: Double, interval: ClosedRange<Double>?)? {
        guard members.count >= 2, let a = members[0].rate?.median, let b = members[1].rate?.median, b > 0 else { return nil }
        // Repetition r of each ran in round r: pair them.
        var byRound: [Int: Double] = [:]
        for row in members[1].ok { if let rate = row.measurement.rowsPerSecond { byRound[row.repetition] = rate } }
        let pairs = members[0].ok.compactMap { row -> (Double, Double)? in
            guard let rate = row.measurement.rowsPerSecond, let other = byRound[row.repetition] else { return nil }
            return (rate, other)
        }
        return (a / b, Bootstrap.ratioInterval(pairs))
    }
}
