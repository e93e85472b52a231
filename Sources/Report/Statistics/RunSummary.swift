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
        /// Repetitions whose status is ok: the statistics are theirs. Kept, not filtered anew:
        /// tables and leads ask for them per cell.
        package let ok: [ResultRow]
        package let rate: Statistics?
        package let wall: Statistics?
        package let vsLimit: Statistics?
        package let peakRSS: Statistics?
        /// p99 latency in ms: to commit in an open-loop run (`--rate`), else of a save.
        package let latencyP99: Statistics?
        /// SQL statements per record, median over ok repetitions.
        package let sqlPerRow: Double?
        /// Managed objects handled per record (`RunMeasurement.objectsPerRow`), median; nil when
        /// the rows predate the count.
        package let objectsPerRow: Double?
        /// What its verified stores delivered (nil: nothing was verified).
        package let outcome: StoreOutcome?
        /// True when its repetitions were counted under callgrind (`--instructions`): their time and
        /// memory are valgrind's, so they are never ranked or recommended by them.
        package let underCallgrind: Bool
        /// Why it may not be ranked or recommended (no reasons: it may).
        package internal(set) var verdict = Verdict(
            reasons: [], fix: nil, needs: [], missing: [], failed: 0, isBug: false)

        init(rows: [ResultRow]) {
            self.rows = rows
            parameters = rows[0].parameters
            label = rows[0].configuration
            // All ok (the usual case): the same array, not a copy of it.
            let ok =
                rows.allSatisfy { $0.measurement.status == .ok } ? rows : rows.filter { $0.measurement.status == .ok }
            self.ok = ok
            outcome = StoreOutcome(ok)
            underCallgrind = rows[0].measurement.instructionsCountedBy == "callgrind"
            rate = Statistics(ok.compactMap(\.measurement.rowsPerSecond))
            wall = Statistics(ok.compactMap(\.measurement.wallSeconds))
            vsLimit = Statistics(ok.compactMap(\.vsLimit))
            peakRSS = Statistics(ok.compactMap { $0.measurement.peakRSSBytes.map(Double.init) })
            latencyP99 =
                Statistics(ok.compactMap { $0.measurement.strategy?.latencyP99Milliseconds })
                ?? Statistics(ok.compactMap { $0.measurement.strategy?.saveP99Milliseconds })
            sqlPerRow =
                Statistics(
                    ok.compactMap { row in
                        guard let sql = row.measurement.sql?.total, let done = row.measurement.rowsDone, done > 0 else {
                            return nil
                        }
                        return Double(sql) / Double(done)
                    })?.median
            objectsPerRow = Statistics(ok.compactMap(\.measurement.objectsPerRow))?.median
        }

        /// The last ok repetition's measurement (for counts that repeat exactly).
        package var last: RunMeasurement? { ok.last?.measurement }

        /// A results column's values over the repetitions that were ok (nil for text, or none).
        func statistics(of column: ResultColumn) -> Statistics? {
            column.number.flatMap { number in Statistics(ok.compactMap(number)) }
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
        /// Each member after the first: how far the first is ahead of it (rate, or `vs_limit`
        /// across invocations), and whether these repetitions tell them apart.
        package let leads: [Lead?]
        /// True when some lead has no interval: these repetitions cannot give an order.
        package var orderUnknown: Bool { leads.contains { $0?.interval == nil } }
        /// Configurations at this point that may not be recommended: not ranked, shown with why.
        package let apart: [Configuration]
        /// Their names, as `names` gives the members'.
        package let apartNames: [String]
    }

    /// Every repetition, in the order it ran.
    package let rows: [ResultRow]
    /// Set when a signal stopped the run: what never ran, said at the top of every report so that
    /// a partial summary never reads as a complete one.
    package var interruption: String?
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
    package init(
        rows: [ResultRow], sweptColumns: [Column] = [], notes: [String] = [], marks: [String: String] = [:],
        unranked: Set<String> = [], options: ConclusionOptions = ConclusionOptions()
    ) {
        self.rows = rows
        configurations = Self.configurations(of: rows, options: options)
        invocations = rows.map { String($0.identity.runID.split(separator: "-").first ?? "") }.uniqued()
        let throughLimit = invocations.count > 1
        // Rankings and recommendations compare mostly the same pairs, each by a bootstrap.
        let leads = LeadMemo()
        rankings = Self.rank(
            configurations.filter { !unranked.contains($0.strategy) && !$0.underCallgrind },
            sweptColumns: sweptColumns, options: options, throughLimit: throughLimit, leads: leads)
        recommendations = Self.recommend(
            configurations, unranked: unranked, options: options, throughLimit: throughLimit, leads: leads)
        self.notes = notes
        self.marks = marks
        self.unranked = unranked
        self.options = options
    }

    /// The configurations of `rows` with their verdicts and nothing ranked or recommended: what a
    /// chart draws. Ranking bootstraps an interval per pair of configurations, which no chart
    /// shows; over a year of nightlies that was most of `plot`'s minutes.
    package init(charting rows: [ResultRow], unranked: Set<String>, options: ConclusionOptions) {
        self.init(
            charting: Self.configurations(of: rows, options: options), rows: rows, unranked: unranked, options: options)
    }

    /// The summary of `configurations` (a subset of another's), as `init(charting:…)` makes one.
    /// Its `rows` are those given, none by default: a chart reads configurations, and a copy of
    /// every row per chart was a third copy of the file in memory.
    package init(
        charting configurations: [Configuration], rows: [ResultRow] = [], unranked: Set<String>,
        options: ConclusionOptions
    ) {
        self.rows = rows
        self.configurations = configurations
        invocations = configurations.flatMap { c in
            c.rows.map { String($0.identity.runID.split(separator: "-").first ?? "") }
        }.uniqued()
        rankings = []
        recommendations = []
        notes = []
        marks = [:]
        self.unranked = unranked
        self.options = options
    }

    /// `rows` grouped into configurations (in the order they ran), each with its verdict. Rows
    /// counted under callgrind are another configuration than the same parameters timed.
    private static func configurations(of rows: [ResultRow], options: ConclusionOptions) -> [Configuration] {
        struct Key: Hashable {
            let parameters: ParameterValues
            let callgrind: Bool
        }
        var order: [Key] = []
        // Positions first, then each configuration's rows at their exact count: rows appended
        // one by one left up to twice their room per configuration (a 100 MB file's summary).
        var byKey: [Key: [Int]] = [:]
        for (i, row) in rows.enumerated() {
            let key = Key(parameters: row.parameters, callgrind: row.measurement.instructionsCountedBy == "callgrind")
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append(i)
        }
        return order.map { key in
            var c = Configuration(rows: byKey[key]!.map { rows[$0] })
            c.verdict = Verdict.of(c, options: options)
            return c
        }
    }

    /// One ranking per workload and sweep point: the configurations' workload (as the
    /// recommendations group them) and their values of the swept columns, a blank (a parameter a
    /// strategy does not use) ranked at every value of it. A point is named by the columns that
    /// tell it from the others.
    private static func rank(
        _ configurations: [Configuration], sweptColumns: [Column], options: ConclusionOptions,
        throughLimit: Bool, leads: LeadMemo
    ) -> [Ranking] {
        let swept = sweptColumns.filter { !options.workloadColumns.contains($0) }
        let points = groups(configurations) { c in
            workload(of: c, options: options) + swept.map { options.value($0, of: c.parameters) }
        }
        guard !points.isEmpty else {
            return [
                ranking(
                    point: "", [], sweptColumns: sweptColumns, options: options, throughLimit: throughLimit,
                    leads: leads)
            ]
        }
        // The workload's two never-blank parts sit between the workload columns and the swept ones.
        let keyColumns: [Column?] = options.workloadColumns + [nil, nil] + swept
        let varying = keyColumns.indices.filter { i in
            keyColumns[i].map { $0 == .strategy || $0.isFreeParameter } == true
                && Set(points.map { $0.key[i] }).count > 1
        }
        return points.map { key, members in
            var words = varying.compactMap { i in key[i].isEmpty ? nil : keyColumns[i].map { "\($0)=\(key[i])" } }
            if let purpose = options.purposes[members[0].strategy] {
                words.insert("for \(purpose)" + (words.isEmpty ? "" : ","), at: 0)
            }
            return ranking(
                point: words.joined(separator: " "), members, sweptColumns: sweptColumns, options: options,
                throughLimit: throughLimit, leads: leads)
        }
    }

    /// The ranking at one sweep point: the configurations there that may be recommended, by their
    /// rate (their `vs_limit` across invocations), and those that may not, apart.
    private static func ranking(
        point label: String, _ here: [Configuration], sweptColumns: [Column],
        options: ConclusionOptions, throughLimit: Bool, leads memo: LeadMemo
    ) -> Ranking {
        var scored: [(configuration: Configuration, metric: Metric, value: Double)] = []
        for c in here where c.verdict.isOK {
            let metric = Metric.of(c, .rate, throughLimit: throughLimit)
            if let value = metric.median(c) { scored.append((c, metric, value)) }
        }
        scored.sort { $0.value > $1.value }
        let members = scored.map(\.configuration)
        let leads = scored.dropFirst().map { other in
            memo.lead(
                scored[0].configuration, over: other.configuration, metric: scored[0].metric,
                minDifference: options.minDifference)
        }
        let apart = here.filter { !$0.verdict.isOK }
        let all = names(members + apart, sweptColumns: sweptColumns)
        return Ranking(
            point: label, members: members, names: Array(all.prefix(members.count)), leads: leads, apart: apart,
            apartNames: Array(all.dropFirst(members.count)))
    }

    /// Each configuration's name among `members`: its strategy, and where another member has the
    /// same strategy, the parameters in which they differ (a switch that is on by its name alone).
    package static func names(_ members: [Configuration], sweptColumns: [Column] = []) -> [String] {
        members.map { c in
            let same = members.filter { $0.strategy == c.strategy }
            guard same.count > 1 else { return c.strategy }
            let differing = ResultRow.parameterColumns.filter { column in
                column.isFreeParameter && Set(same.map { $0.parameters[column] }).count > 1
            }
            let parts = differing.compactMap { column -> String? in
                let value = c.parameters[column]
                return value.isEmpty ? nil : value == "yes" ? column.name : "\(column)=\(value)"
            }
            return parts.isEmpty ? c.strategy : "\(c.strategy) [\(parts.joined(separator: " "))]"
        }
    }
}
