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
        /// p99 latency in ms: to commit in an open-loop run (`--rate`), else of a save.
        package let latencyP99: Statistics?
        /// SQL statements per record, median over ok repetitions.
        package let sqlPerRow: Double?
        /// The promises it broke (none: it may be ranked and recommended).
        package internal(set) var verdict = Verdict(reasons: [], fix: nil)

        init(rows: [ResultRow]) {
            self.rows = rows
            parameters = rows[0].parameters
            label = rows[0].configuration
            let ok = rows.filter { $0.measurement.status == .ok }
            rate = Statistics(ok.compactMap(\.measurement.rowsPerSecond))
            wall = Statistics(ok.compactMap(\.measurement.wallSeconds))
            vsLimit = Statistics(ok.compactMap(\.vsLimit))
            peakRSS = Statistics(ok.compactMap { $0.measurement.peakRSSBytes.map(Double.init) })
            latencyP99 = Statistics(ok.compactMap { $0.measurement.strategy?.latencyP99Milliseconds })
                ?? Statistics(ok.compactMap { $0.measurement.strategy?.saveP99Milliseconds })
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

    /// Configurations measured at one sweep point, fastest first; those that broke a promise
    /// apart.
    package struct Ranking: Sendable {
        /// The point, `name=value` ("" when nothing but strategies varied).
        package let point: String
        package let members: [Configuration]
        /// Each member's name: its strategy, and what tells it from a member of the same
        /// strategy (so that a ranking never reads "batch > batch").
        package let names: [String]
        /// How much faster the first is than the second: the ratio of their median rates (of
        /// `vs_limit` across invocations) and, from five repetitions paired by round, the
        /// bootstrap interval of that ratio.
        package let lead: (ratio: Double, interval: ClosedRange<Double>?)?
        /// Configurations at this point that broke a promise: not ranked, shown with why.
        package let apart: [Configuration]
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
    /// The run's conclusions: per workload, the configuration to use.
    package let recommendations: [Recommendation]
    package let options: ConclusionOptions
    /// The invocations the rows come from (run id prefixes), in order: more than one, and
    /// configurations are compared through `vs_limit` only (each invocation ran on its own machine
    /// state, and its limit measured it).
    package let invocations: [String]
    package var throughLimit: Bool { invocations.count > 1 }

    /// Groups `rows` (in the order they ran). `sweptColumns` are the parameter columns that
    /// took more than one value (strategy excluded); a configuration whose strategy does not use
    /// one (blank there) is ranked at every value of it.
    package init(rows: [ResultRow], sweptColumns: [String] = [], notes: [String] = [], marks: [String: String] = [:],
                unranked: Set<String> = [], options: ConclusionOptions = ConclusionOptions()) {
        var order: [ParameterValues] = []
        var byParameters: [ParameterValues: [ResultRow]] = [:]
        for row in rows {
            if byParameters[row.parameters] == nil { order.append(row.parameters) }
            byParameters[row.parameters, default: []].append(row)
        }
        self.rows = rows
        configurations = order.map { parameters in
            var c = Configuration(rows: byParameters[parameters]!)
            c.verdict = Verdict.of(c, options: options)
            return c
        }
        invocations = rows.map { String($0.identity.runID.split(separator: "-").first ?? "") }.uniqued()
        let throughLimit = invocations.count > 1
        rankings = Self.rank(configurations.filter { !unranked.contains($0.strategy) }, sweptColumns: sweptColumns,
                             throughLimit: throughLimit)
        recommendations = Self.recommend(configurations, unranked: unranked, options: options, throughLimit: throughLimit)
        self.notes = notes
        self.marks = marks
        self.unranked = unranked
        self.options = options
    }

    private static func rank(_ configurations: [Configuration], sweptColumns: [String], throughLimit: Bool) -> [Ranking] {
        // The points: every combination of swept values that some configuration sets fully.
        var points: [[String: String]] = []
        for c in configurations {
            let point = Dictionary(uniqueKeysWithValues: sweptColumns.map { ($0, c.parameters[$0]) })
            if point.values.allSatisfy({ !$0.isEmpty }) && !points.contains(point) { points.append(point) }
        }
        if points.isEmpty { points = [[:]] }
        return points.map { point in ranking(at: point, configurations, sweptColumns: sweptColumns, throughLimit: throughLimit) }
    }

    /// The ranking at one sweep point: the configurations there that kept their promises, by
    /// their rate (their `vs_limit` across invocations), and those that did not, apart.
    private static func ranking(at point: [String: String], _ configurations: [Configuration], sweptColumns: [String],
                                throughLimit: Bool) -> Ranking {
        let here = configurations.filter { c in
            point.allSatisfy { column, value in c.parameters[column].isEmpty || c.parameters[column] == value }
        }
        var scored: [(configuration: Configuration, value: Double)] = []
        for c in here where c.verdict.isOK {
            if let value = objectiveValue(c, .rate, throughLimit: throughLimit) { scored.append((c, value)) }
        }
        scored.sort { $0.value > $1.value }
        let members = scored.map(\.configuration)
        let label = sweptColumns.compactMap { column in point[column].map { "\(column)=\($0)" } }.joined(separator: " ")
        var lead: (ratio: Double, interval: ClosedRange<Double>?)?
        if scored.count >= 2 && scored[1].value > 0 {
            let interval = throughLimit ? nil : pairedRatio(members[0], members[1])?.interval
            lead = (scored[0].value / scored[1].value, interval)
        }
        return Ranking(point: label, members: members, names: names(members, sweptColumns: sweptColumns), lead: lead,
                       apart: here.filter { !$0.verdict.isOK })
    }

    /// The ratio of `a`'s median rate to `b`'s, and from five repetitions paired by round (each
    /// configuration's repetition r ran in round r) the bootstrap interval of that ratio.
    static func pairedRatio(_ a: Configuration, _ b: Configuration) -> (ratio: Double, interval: ClosedRange<Double>?)? {
        guard let x = a.rate?.median, let y = b.rate?.median, y > 0 else { return nil }
        var byRound: [Int: Double] = [:]
        for row in b.ok { if let rate = row.measurement.rowsPerSecond { byRound[row.repetition] = rate } }
        let pairs = a.ok.compactMap { row -> (Double, Double)? in
            guard let rate = row.measurement.rowsPerSecond, let other = byRound[row.repetition] else { return nil }
            return (rate, other)
        }
        return (x / y, Bootstrap.ratioInterval(pairs))
    }

    /// Each configuration's name among `members`: its strategy, and where another member has the
    /// same strategy, the parameters in which they differ (a switch that is on by its name alone).
    package static func names(_ members: [Configuration], sweptColumns: [String] = []) -> [String] {
        members.map { c in
            let same = members.filter { $0.strategy == c.strategy }
            guard same.count > 1 else { return c.strategy }
            let differing = ResultRow.parameterColumns.filter { column in
                column != "strategy" && column != "unique_keys" && Set(same.map { $0.parameters[column] }).count > 1
            }
            let parts = differing.compactMap { column -> String? in
                let value = c.parameters[column]
                return value.isEmpty ? nil : value == "yes" ? column : "\(column)=\(value)"
            }
            return parts.isEmpty ? c.strategy : "\(c.strategy) [\(parts.joined(separator: " "))]"
        }
    }
}
