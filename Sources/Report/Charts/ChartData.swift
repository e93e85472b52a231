import Foundation

/// The data `plots.gnuplot` draws, derived from results files: small whitespace-separated `.dat`
/// files with fixed columns (documented in each file's first line), one block per line of a
/// chart, and `vars.gp` with each chart's line titles. gnuplot never reads a results CSV by
/// column number, so columns appended to the CSV cannot break a chart.
package struct ChartData: Sendable {
    /// One chart's data, or why it is absent.
    package struct Chart: Sendable {
        package let name: String
        package let title: String
        /// The `.dat` text, or nil when the results hold nothing for this chart.
        package let data: String?
        /// Titles of the blocks, in order.
        package let series: [String]
        /// Why the chart is skipped when `data` is nil.
        package let skipped: String?
        /// What the script needs beyond the data (`<chart>_<name>` in vars.gp): scale, unit,
        /// the subtitle with the run's settings.
        package var variables: [String: String] = [:]
        /// A skipped chart that needs no word (the throughput of an operation the run did not
        /// measure, beside the one it did).
        package var quiet = false
    }

    package let charts: [Chart]

    /// Every chart the inputs allow. `rows` are results rows; `timeline` the rows of a timeline
    /// file (`TimelineWriter.fileHeader`); `history` the rows of a history of nightly results, and
    /// `baseline` the baseline's.
    /// `writerStrategies` are the strategies with writers (their chart); `relatedObjectStrategies`
    /// the imports whose idiom is finding each record's related object (the SQL-per-row chart:
    /// the N+1 against prefetching); `limit` is the strategy
    /// `vs_limit` divides by (named in titles, and left out of the trend, where it is 1 every
    /// night); `options` judge each configuration as a run's conclusion does (drawn apart when it
    /// may not be recommended), and `marks` are the strategies' caveats (said under the bars).
    /// The caller names them: Report knows no strategy.
    package init(
        rows: [ResultRow], timeline: [[String: String]]? = nil, history: [TrendSample]? = nil,
        baseline: [ResultRow]? = nil, writerStrategies: [String] = [], relatedObjectStrategies: [String] = [],
        limit: String = "the limit", band: Double = 0.05,
        options: ConclusionOptions = ConclusionOptions(), marks: [String: String] = [:]
    ) {
        let summary = RunSummary(charting: rows, unranked: [limit], options: options)
        charts =
            Self.throughputs(summary, limit: limit, marks: marks) + [
                Self.scaling(summary)
            ] + Self.batchSizes(summary) + [
                Self.memory(rows: rows, timeline: timeline, cap: options.maxRSSBytes),
                Self.writers(summary, strategies: writerStrategies),
                Self.sqlPerRow(summary, strategies: relatedObjectStrategies),
                Self.latency(summary),
                Self.reads(summary),
                Self.trend(history: history, baseline: baseline, limit: limit, band: band),
            ]
    }

    /// `vars.gp`: the series titles of every chart as gnuplot arrays.
    package var variables: String {
        var text = "# Series titles per chart, written by loadgen plot.\n"
        for chart in charts where chart.data != nil {
            let titles = chart.series.map { "\"" + $0.replacingOccurrences(of: "\"", with: "'") + "\"" }
            text += "array \(chart.name)_series[\(max(1, titles.count))]\n"
            for (i, title) in titles.enumerated() { text += "\(chart.name)_series[\(i + 1)] = \(title)\n" }
            // The same as scalars, for a block that draws several charts in a loop (gnuplot's
            // value() reads a variable by name, not an array).
            text += "\(chart.name)_n = \(titles.count)\n"
            for (i, title) in titles.enumerated() { text += "\(chart.name)_title\(i + 1) = \(title)\n" }
            for (name, value) in chart.variables.sorted(by: { $0.key < $1.key }) {
                text += "\(chart.name)_\(name) = \"" + value.replacingOccurrences(of: "\"", with: "'") + "\"\n"
            }
        }
        return text
    }

    // MARK: The charts

    /// What a chart's axis counts for an operation.
    static func unit(_ operation: String) -> String {
        switch operation {
        case "update": return "records updated per second"
        case "delete": return "records deleted per second"
        case "read": return "rows read per second"
        default: return "records imported per second"
        }
    }

    /// The settings every drawn configuration shares, for a chart's subtitle ("expenses, 100000
    /// rows, dup_rate 0.1000, 5 repetitions"): what a reader must know to read it.
    static func settings(_ s: RunSummary, of configurations: [RunSummary.Configuration]) -> String {
        var parts: [String] = []
        // What the records are: the dataset, or a model run's entity and model file.
        let records = Set(configurations.map(\.parameters.records).filter { !$0.isEmpty })
        if records.count == 1, let value = records.first { parts.append(value) }
        for column in [.rows] + s.options.subtitleColumns {
            let values = Set(configurations.map { $0.parameters[column] }.filter { !$0.isEmpty })
            guard values.count == 1, let value = values.first else { continue }
            switch column {
            case .rows: parts.append("\(value) rows")
            // An update or delete works on a share of the records: the rate is of those.
            // An open loop's rate is at most the offered one: a reader must not take it for the engine's speed.
            case .rate:
                parts.append("offered \(Double(value).map(n) ?? value) records/s (no strategy's rate can pass it)")
            case .fraction:
                parts.append(String(format: "each targets %g %% of the records", (Double(value) ?? 0) * 100))
            default: parts.append("\(column) \(value)")
            }
        }
        let repetitions = Set(configurations.map { $0.rows.count })
        if repetitions.count == 1, let count = repetitions.first {
            parts.append("\(count) repetition\(count == 1 ? "" : "s")")
        }
        return parts.joined(separator: ", ")
    }

    /// 2. Wall time and rows/s against rows, one line per strategy (and other swept values).
    static func scaling(_ s: RunSummary) -> Chart {
        series(s, .named("scaling"), need: "sweep of --rows")
    }

    /// 3. Rows/s and peak RSS against batch size, one chart per operation.
    static func batchSizes(_ s: RunSummary) -> [Chart] {
        let declaration = ChartDeclaration.named("batchsize")
        let charts = ChartDeclaration.operations.map { op in
            let mine = s.configurations.filter { operation(of: $0) == op }
            return batchSize(
                RunSummary(charting: mine, unranked: s.unranked, options: s.options), name: declaration.name(for: op))
        }
        let drawn = charts.contains { $0.data != nil }
        return charts.map { chart in
            var chart = chart
            chart.quiet = chart.data == nil && (drawn || chart.name != "batchsize")
            return chart
        }
    }

    private static func batchSize(_ s: RunSummary, name: String) -> Chart {
        var chart = series(s, .named("batchsize"), name: name, need: "sweep of --batch-size")
        guard chart.data != nil else { return chart }
        // What a batch is depends on the operation: a fetch's batch for reads, a save's otherwise.
        let swept = s.configurations.filter { $0.parameters.batchSize != nil && !$0.underCallgrind }
        let reads = swept.allSatisfy { operation(of: $0) == "read" }
        chart.variables["axis"] =
            reads
            ? "fetchBatchSize (rows fetched per batch, log scale)"
            : "--batch-size (records per save or batch request, log scale)"
        // The headline says what the data shows: per line (a strategy, and what else tells its
        // lines apart), rate and memory from the smallest batch to the largest; the first four.
        let lines = Self.lines(s, axis: .batchSize, minimumPoints: 2) { $0.rate != nil && $0.peakRSS != nil }
        var parts: [String] = []
        for line in lines.prefix(4) {
            let mine = line.configurations.sorted { $0.parameters.batchSize! < $1.parameters.batchSize! }
            guard let small = mine.first, let large = mine.last, let a = small.rate?.median, let b = large.rate?.median,
                let smallRSS = small.peakRSS?.median, let largeRSS = large.peakRSS?.median
            else { continue }
            parts.append(
                "\(line.title) \(Format.rate(a)) → \(Format.rate(b)), \(Format.bytes(Int(smallRSS))) → \(Format.bytes(Int(largeRSS)))"
            )
        }
        if lines.count > 4 { parts.append("… \(lines.count) lines in all") }
        chart.variables["headline"] =
            parts.isEmpty
            ? ""
            : wrapped("smallest → largest batch: " + parts.joined(separator: "; "), width: 120)
                .joined(separator: "\\n")
        return chart
    }

    /// 5. Duplicates and conflicts against writers, for the writer strategies (the caller names
    /// them: Report knows no strategy), with their spread over the repetitions.
    static func writers(_ s: RunSummary, strategies: [String]) -> Chart {
        let writers = s.configurations.filter { strategies.contains($0.strategy) && !$0.underCallgrind }
        var chart = series(
            // not a results column: the chart named writers
            RunSummary(charting: writers, unranked: s.unranked, options: s.options), .named("writers"),
            need: "writer strategy (\(strategies.joined(separator: ", "))) at two --writers values or more")
        guard chart.data != nil else { return chart }
        // The headline from the data: who kept duplicates at 0 at every writer count, who did not.
        var clean: [String] = []
        var dirty: [String] = []
        for strategy in writers.map(\.strategy).uniqued() {
            let most =
                writers.filter { $0.strategy == strategy }.flatMap(\.ok).compactMap {
                    $0.measurement.verification?.duplicates
                }.max() ?? 0
            if most == 0 { clean.append(strategy) } else { dirty.append("\(strategy) up to \(most)") }
        }
        let headline = [
            clean.isEmpty ? nil : "\(listed(clean)) kept duplicates at 0 at every writer count",
            dirty.isEmpty ? nil : "duplicates: " + dirty.joined(separator: ", "),
        ].compactMap { $0 }.joined(separator: "; ")
        chart.variables["headline"] = wrapped(headline, width: 120).joined(separator: "\\n")
        return chart
    }

    /// 6. SQL statements per record against rows: the N+1 wall against prefetching, for the
    /// strategies the caller names (Report knows no strategy).
    static func sqlPerRow(_ s: RunSummary, strategies: [String]) -> Chart {
        let pair = s.configurations.filter { strategies.contains($0.strategy) && !$0.underCallgrind }
        let declaration = ChartDeclaration.named("sqlperrow")
        let summary = RunSummary(charting: pair, unranked: s.unranked, options: s.options)
        var chart = series(
            summary, declaration,
            need: strategies.isEmpty
                ? "strategy named for this chart"
                : "\(strategies.joined(separator: " or ")) at two --rows values or more")
        guard chart.data != nil else { return chart }
        // The headline from the data: selects per record (the chart's second column) at each
        // line's largest size.
        let selects = declaration.columns[1]
        let parts = lines(summary, axis: .rows, minimumPoints: 2) { selects.value(of: $0) != nil }.compactMap {
            line -> String? in
            guard let largest = line.configurations.max(by: { $0.parameters.rows < $1.parameters.rows }),
                let perRecord = selects.value(of: largest)
            else { return nil }
            return String(
                format: "%@: %.3f SELECTs per record at %d rows", line.title, perRecord, largest.parameters.rows)
        }
        // Narrower than other headlines: the key sits outside, right, and the title centres on the plot.
        chart.variables["headline"] = wrapped(parts.joined(separator: "; "), width: 95).joined(separator: "\\n")
        return chart
    }

    /// 7. Open-loop latency against the offered rate.
    static func latency(_ s: RunSummary) -> Chart {
        let open = s.configurations.filter { $0.parameters.rate != nil && !$0.underCallgrind }
        func median(_ c: RunSummary.Configuration, _ pick: (StrategyCounters) -> Double?) -> Double? {
            Statistics(c.ok.compactMap { $0.measurement.strategy.flatMap(pick) })?.median
        }
        let summary = RunSummary(charting: open, unranked: s.unranked, options: s.options)
        var chart = series(summary, .named("latency"), need: "--rate run", minimumPoints: 1)
        guard chart.data != nil else { return chart }
        // The headline from the data: per line (a strategy, and what else tells its lines
        // apart), p50 from the lowest offered rate to the highest, and the rates it could not
        // keep up with.
        let lines = Self.lines(summary, axis: .rate, minimumPoints: 1) { median($0, \.latencyP50Milliseconds) != nil }
        let parts = lines.compactMap { line -> String? in
            let mine = line.configurations.sorted { $0.parameters.rate! < $1.parameters.rate! }
            guard let low = mine.first, let high = mine.last, let a = median(low, \.latencyP50Milliseconds),
                let b = median(high, \.latencyP50Milliseconds)
            else { return nil }
            let behind = mine.filter { $0.ok.contains { $0.measurement.strategy?.fellBehind == true } }.map {
                n($0.parameters.rate ?? 0)
            }
            let move =
                mine.count < 2
                ? String(format: "p50 %.0f ms", a)
                : String(
                    format: "p50 %.0f → %.0f ms (%@)", a, b,
                    b < a ? "falls as the rate rises: batches fill sooner" : "rises with the rate")
            return "\(line.title) \(move)"
                + (behind.isEmpty ? "" : "; could not keep up at \(behind.joined(separator: ", ")) records/s")
        }
        // Narrower than other headlines: the key sits outside, right, and the title centres on the plot.
        chart.variables["headline"] = wrapped(parts.joined(separator: "; "), width: 95).joined(separator: "\\n")
        // One offered rate: the x axis is given a range around it (gnuplot's own is empty and it
        // says so), issue 44, item 3.
        let rates = Set(open.compactMap(\.parameters.rate))
        chart.variables["single_rate"] = rates.count == 1 ? n(rates.first!) : ""
        // The run's --max-latency, drawn across the chart (issue 44, item 2).
        chart.variables["cap"] = s.options.maxLatencyMilliseconds.map(n) ?? ""
        return chart
    }

    /// Lines of the chart's columns against its axis (a swept parameter column), one per
    /// strategy and value of the other parameters that vary; skipped unless some line has
    /// `minimumPoints` points. A point is a configuration whose repetitions give every column
    /// that declares no `absent` value. A line's title is its strategy and what tells it from
    /// another line of the same strategy (a parameter other strategies leave blank is no
    /// difference), and, when its configurations may not be recommended, why ("— bug", "— short: unique").
    static func series(
        _ s: RunSummary, _ declaration: ChartDeclaration, name: String? = nil, need: String,
        minimumPoints: Int = 2
    ) -> Chart {
        let (name, title) = (name ?? declaration.name, declaration.title)
        guard case .parameter(let axis) = declaration.axis else {
            preconditionFailure("chart \(declaration.name) lays out its own axis: it is not a series of configurations")
        }
        // Each configuration's point once (its intervals are bootstraps): nil when it lacks a value.
        // (Configurations counted under callgrind are never drawn: the timed ones own the parameters.)
        var points: [ParameterValues: String] = [:]
        for c in s.configurations where !c.underCallgrind && Double(c.parameters[axis]) != nil {
            let values = ChartColumn.values(declaration.columns, of: c)
            if !values.contains(nil) { points[c.parameters] = values.map { n($0!) }.joined(separator: " ") }
        }
        func figure(_ c: RunSummary.Configuration) -> String? { c.underCallgrind ? nil : points[c.parameters] }
        let lines = Self.lines(s, axis: axis, minimumPoints: minimumPoints) { figure($0) != nil }
            .map { line in
                (
                    title: line.title, configurations: line.configurations,
                    points: line.configurations.map { (Double($0.parameters[axis])!, figure($0)!) }
                )
            }
        guard !lines.isEmpty else { return skip(name, title, "the results hold no \(need)") }
        var text = declaration.header + "\n"
        for line in lines {
            text += "# \(line.title)\n"
            for (x, y) in line.points.sorted(by: { $0.0 < $1.0 }) { text += "\(n(x)) \(y)\n" }
            text += "\n\n"
        }
        let drawn = lines.flatMap(\.configurations)
        let operations = Set(drawn.map(operation(of:)))
        return Chart(
            name: name, title: title, data: text, series: lines.map(\.title), skipped: nil,
            variables: [
                "unit": operations.count == 1 ? unit(operations.first!) : "records (or targets) per second",
                "settings": wrapped(settings(s, of: drawn), width: 120).joined(separator: "\\n"),
            ])
    }

    /// The lines of a chart against the swept column `axis`: the configurations `drawn` accepts
    /// (never those counted under callgrind), one line per strategy and value of the other
    /// parameters, kept when it has `minimumPoints` points; each titled by its strategy, what
    /// tells it from another line of the same strategy (a parameter other strategies leave
    /// blank is no difference) and, when it may not be recommended, why.
    static func lines(
        _ s: RunSummary, axis: Column, minimumPoints: Int,
        drawn: (RunSummary.Configuration) -> Bool
    ) -> [(title: String, configurations: [RunSummary.Configuration])] {
        let others = ResultRow.parameterColumns.filter { $0 != axis && $0.isFreeParameter }
        var groups: [(key: [String], configurations: [RunSummary.Configuration])] = []
        for c in s.configurations where Double(c.parameters[axis]) != nil && !c.underCallgrind && drawn(c) {
            let key = [c.strategy] + others.map { c.parameters[$0] }
            if let i = groups.firstIndex(where: { $0.key == key }) {
                groups[i].configurations.append(c)
            } else {
                groups.append((key, [c]))
            }
        }
        groups = groups.filter { $0.configurations.count >= minimumPoints }
        return groups.map { group in
            let same = groups.filter { $0.key[0] == group.key[0] }
            let differing = others.indices.filter { i in Set(same.map { $0.key[i + 1] }).count > 1 }
            // The limit is a yardstick: what its store lacks is by design, never a verdict.
            let outcome =
                s.unranked.contains(group.key[0])
                ? nil : group.configurations.map(\.verdict.outcome).first { $0 != "ok" }
            let title =
                ([group.key[0]]
                + differing.compactMap { i in
                    group.key[i + 1].isEmpty ? nil : "\(others[i])=\(group.key[i + 1])"
                }).joined(separator: " ")
                + (outcome.map { " — " + $0.replacingOccurrences(of: "short:", with: "short: ") } ?? "")
            return (title, group.configurations)
        }
    }

    /// "a, b and c".
    static func listed(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// 4. RSS and heap over rows processed, from the timeline: one line per strategy (its first
    /// repetition), so that the reset sawtooth and unbounded growth show side by side.
    static func memory(rows: [ResultRow], timeline: [[String: String]]?, cap: Int? = nil) -> Chart {
        guard let timeline, !timeline.isEmpty else {
            return skip(
                memoryChart.name, memoryChart.title, "no --timeline file was given (loadgen plot --timeline FILE)")
        }
        let (longest, firstRun, order) = firstRuns(timeline)
        guard !order.isEmpty else { return skip(memoryChart.name, memoryChart.title, "the timeline has no samples") }
        // Titles keep what differs between the lines (rows=… is the same for all of them).
        let words = order.map { $0.split(separator: " ").map(String.init) }
        let common = words.dropFirst().reduce(Set(words[0].dropFirst())) { $0.intersection($1.dropFirst()) }
        let titles = words.map { w in ([w[0]] + w.dropFirst().filter { !common.contains($0) }).joined(separator: " ") }
        // The timeline's own samples, not results figures: its header is this chart's.
        var text = "# rows_done rss_mb heap_mb\n"
        var grows: [String] = []
        var ends: [(done: Double, rss: Double, heap: Double, title: String)] = []
        var rssRange = (Double.infinity, -Double.infinity)
        var heapRange = (Double.infinity, -Double.infinity)
        for (key, title) in zip(order, titles) {
            text += "# \(key)\n"
            var heaps: [(done: Double, heap: Double)] = []
            // not a results column: a timeline field (TimelineWriter)
            for sample in timeline where sample["run_id"] == firstRun[key] {
                guard let done = Double(sample["rows_done"] ?? ""), let rss = Double(sample["rss_bytes"] ?? ""),
                    let heap = Double(sample["heap_bytes"] ?? "")
                else { continue }
                text += "\(n(done)) \(n(rss / 1e6)) \(n(heap / 1e6))\n"
                heaps.append((done, heap))
                (rssRange, heapRange) = (
                    (min(rssRange.0, rss / 1e6), max(rssRange.1, rss / 1e6)),
                    (min(heapRange.0, heap / 1e6), max(heapRange.1, heap / 1e6))
                )
                // A line is named where it reached its last record, not after the teardown's
                // drop, where every heap line meets near zero and no name tells them apart.
                if ends.last?.title == title {
                    if done <= ends.last!.done { continue }
                    ends.removeLast()
                }
                ends.append((done, rss / 1e6, heap / 1e6, title))
            }
            text += "\n\n"
            if Self.grows(heaps, rows: longest) { grows.append(title) }
        }
        text += endLabels(ends, rss: rssRange, heap: heapRange)
        // The headline says what the lines show, not what they are expected to show.
        let headline =
            grows.isEmpty
            ? "no line grows with the rows: each stays near the heap it had a tenth of the way in"
            : "\(listed(grows)) \(grows.count == 1 ? "grows" : "grow") with every row (the heap at the end more than twice, and "
                + "5 MB more than, a tenth of the way in); the others stay near that level"
        let ticks = siTicks(upTo: longest)
        return Chart(
            name: memoryChart.name, title: memoryChart.title, data: text, series: titles, skipped: nil,
            variables: [
                "headline": wrapped(headline, width: 120).joined(separator: "\\n"), "step": n(ticks.step),
                "format": ticks.format,
                // The run's --max-rss, drawn across the resident-memory panel (issue 44, item 2).
                "cap": cap.map { n(Double($0) / 1e6) } ?? "",
            ])
    }

    /// The runs that went furthest (the largest --rows), where growth and sawtooth show best:
    /// their length, each line's (strategy + config) first repetition, and the lines in order.
    static func firstRuns(_ timeline: [[String: String]]) -> (
        longest: Double, firstRun: [String: String], order: [String]
    ) {
        let longest = timeline.compactMap { Double($0["rows_done"] ?? "") }.max() ?? 0
        var reached: [String: Double] = [:]
        for sample in timeline {
            // not a results column: a timeline field (TimelineWriter)
            if let run = sample["run_id"], let done = Double(sample["rows_done"] ?? "") {
                reached[run] = max(reached[run] ?? 0, done)
            }
        }
        var firstRun: [String: String] = [:]
        var order: [String] = []
        // not a results column: timeline fields (TimelineWriter)
        for sample in timeline where reached[sample["run_id"] ?? ""] == longest {
            // not a results column: timeline fields (TimelineWriter)
            let key = [sample["strategy"] ?? "", sample["config"] ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
            // not a results column: timeline fields (TimelineWriter)
            guard let run = sample["run_id"], !key.isEmpty else { continue }
            if firstRun[key] == nil {
                firstRun[key] = run
                order.append(key)
            }
        }
        return (longest, firstRun, order)
    }

    /// Each memory line named at its end, the names pushed apart where lines end together
    /// (eleven lines at 33–34 MB could not be told apart by colour alone, issue 44, item 3): one
    /// block for each panel (resident memory, heap), after the lines.
    static func endLabels(
        _ ends: [(done: Double, rss: Double, heap: Double, title: String)],
        rss: (Double, Double), heap: (Double, Double)
    ) -> String {
        var text = ""
        for (values, range) in [(ends.map(\.rss), rss), (ends.map(\.heap), heap)] {
            text += "# label_x label_y name\n"
            for (end, y) in zip(ends, spread(values, span: range.1 - range.0)) {
                text += "\(n(end.done)) \(n(y)) \"\(end.title.replacingOccurrences(of: "\"", with: "'"))\"\n"
            }
            text += "\n\n"
        }
        return text
    }

    /// Label positions for `values`, in their order, at least 3.5 % of the panel's `span` apart:
    /// labels that would sit on each other move up, the lowest stays.
    static func spread(_ values: [Double], span: Double) -> [Double] {
        let gap = max(span, 1e-9) * 0.035
        var placed = values
        var previous = -Double.infinity
        for i in values.indices.sorted(by: { values[$0] < values[$1] }) {
            placed[i] = max(values[i], previous + gap)
            previous = placed[i]
        }
        return placed
    }

    /// Whether a line's heap grows with the rows: its largest heap in the last tenth of the run is
    /// more than twice, and 5 MB more than, its largest in the first tenth.
    static func grows(_ samples: [(done: Double, heap: Double)], rows: Double) -> Bool {
        let early = samples.filter { $0.done <= rows / 10 }.map(\.heap).max() ?? 0
        let late = samples.filter { $0.done >= rows * 0.9 }.map(\.heap).max() ?? 0
        return late > 2 * early && late - early > 5e6
    }

    /// 9. The nightly trend: per nightly run (one invocation) and strategy, its `vs_limit` and
    /// allocations per record relative to the baseline's for the same configurations (the
    /// median over the strategy's configurations of night median ÷ baseline median). One
    /// baseline for every line (1.0), the band the gate tolerates around it, and a mark on each
    /// night a strategy fell below the band.
    static func trend(history: [TrendSample]?, baseline: [ResultRow]?, limit: String = "", band: Double = 0.05) -> Chart
    {
        guard let history, !history.isEmpty else {
            return skip(trendChart.name, trendChart.title, "no --history file was given (results/history.csv)")
        }
        guard let baseline, !baseline.isEmpty else {
            return skip(trendChart.name, trendChart.title, "no baseline to compare the nights with (--baseline FILE)")
        }
        let base = Dictionary(
            grouping: baseline.filter { $0.measurement.instructionsCountedBy == nil }.map(TrendSample.init),
            by: \.configuration)
        let baseSpeed = base.compactMapValues { Statistics($0.compactMap(\.vsLimit))?.median }
        let thresholds = trendThresholds(base, band: band)
        let baseAllocations = base.compactMapValues { Statistics($0.compactMap(\.allocationsPerRow))?.median }
        let (runs, start, order) = nights(history)
        var flags = ""
        // Strategies with a vs_limit first: the top panel draws those, the bottom all.
        var blocks: [(strategy: String, text: String, hasSpeed: Bool)] = []
        for strategy in history.map(\.strategy).uniqued() where strategy != limit {
            var lines: [String] = []
            var hasSpeed = false
            for run in order {
                let mine = Dictionary(grouping: runs[run]!.filter { $0.strategy == strategy }, by: \.configuration)
                // The median over the strategy's configurations of the night's median against the baseline's.
                func change(_ pick: (TrendSample) -> Double?, _ relative: (String, Double) -> Double?) -> Double? {
                    Statistics(
                        mine.compactMap { key, rows in
                            Statistics(rows.compactMap(pick)).flatMap { relative(key, $0.median) }
                        })?.median
                }
                let speed = change(\.vsLimit) { key, night in
                    baseSpeed[key].map { (night / $0 - 1) / (thresholds[key] ?? band) }
                }
                let allocations = change(\.allocationsPerRow) { key, night in baseAllocations[key].map { night / $0 } }
                guard speed != nil || allocations != nil else { continue }
                hasSpeed = hasSpeed || speed != nil
                lines.append("\(Int(start[run]!)) \(n(speed ?? .nan)) \(n(allocations ?? .nan))")
                if let speed, speed < -1 { flags += "\(Int(start[run]!)) \(n(speed)) \"\(strategy)\"\n" }
            }
            guard !lines.isEmpty else { continue }
            blocks.append((strategy, "# \(strategy)\n" + lines.joined(separator: "\n") + "\n\n\n", hasSpeed))
        }
        blocks = blocks.filter(\.hasSpeed) + blocks.filter { !$0.hasSpeed }
        var text = trendChart.header + "\n" + blocks.map(\.text).joined()
        let series = blocks.map(\.strategy)
        guard !series.isEmpty else {
            return skip(trendChart.name, trendChart.title, "no configuration of the history is in the baseline")
        }
        // The marks: an index of their own after the series ("x y label"), empty when none.
        text += "# below the band\n" + (flags.isEmpty ? "NaN NaN \"\"\n" : flags)
        return Chart(
            name: trendChart.name, title: trendChart.title, data: text, series: series, skipped: nil,
            variables: [
                "band": n(band), "nights": String(order.count),
                "first": String(Int(start[order.first!]!)), "last": String(Int(start[order.last!]!)),
                "speedcount": String(blocks.filter(\.hasSpeed).count),
                "marks": String(flags.split(separator: "\n").count),
            ])
    }

    /// The history's nightly runs, each placed at the time it started (ISO 8601 in UTC sorts as
    /// text, so the earliest is found without parsing every row's date), in that order.
    static func nights(_ history: [TrendSample]) -> (
        runs: [String: [TrendSample]], start: [String: Double], order: [String]
    ) {
        let runs = Dictionary(grouping: history, by: \.night)
        let formatter = ISO8601DateFormatter()
        let start = runs.mapValues { rows in
            rows.map(\.startedAt).filter { !$0.isEmpty }.min().flatMap {
                formatter.date(from: $0)?.timeIntervalSince1970
            } ?? 0
        }
        return (runs, start, runs.keys.sorted { (start[$0]!, $0) < (start[$1]!, $1) })
    }

    /// Each configuration's own threshold, as the gate judges it: the floor (`band`) or twice the
    /// baseline's night-to-night drift, the wider; a baseline of one night has the larger fixed
    /// one. The trend's speed line is drawn in units of it, so that one band (±1) is every
    /// configuration's own.
    static func trendThresholds(_ base: [String: [TrendSample]], band: Double) -> [String: Double] {
        base.mapValues { samples -> Double in
            let nights = Dictionary(grouping: samples, by: \.night).values.compactMap {
                Statistics($0.compactMap(\.vsLimit))
            }
            .filter { $0.count >= 2 }
            guard nights.count >= 2, let all = Statistics(samples.compactMap(\.vsLimit)), all.median > 0 else {
                return max(band, Comparison.Options.speedWithoutDrift)
            }
            let drift = nights.map { abs($0.median / all.median - 1) }.max() ?? 0
            return max(band, Comparison.Options.driftFactor * drift)
        }
    }

    private static var memoryChart: ChartDeclaration { .named("memory") }
    private static var trendChart: ChartDeclaration { .named("trend") }

    static func skip(_ name: String, _ title: String, _ why: String) -> Chart {
        Chart(name: name, title: title, data: nil, series: [], skipped: why)
    }

    /// A number as gnuplot reads it; NaN as "NaN" (gnuplot skips it).
    static func n(_ v: Double) -> String { Format.plain(v) }
}
