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
    }

    package let charts: [Chart]

    /// Every chart the inputs allow. `rows` are results rows; `timeline` the rows of a timeline
    /// file (`TimelineWriter.fileHeader`); `history` the rows of a history of nightly results, and
    /// `baseline` the baseline's.
    /// `writerStrategies` are the strategies with writers (their chart); `limit` is the strategy
    /// `vs_limit` divides by (named in titles, and left out of the trend, where it is 1 every
    /// night). The caller names them: Report knows no strategy.
    package init(rows: [ResultRow], timeline: [[String: String]]? = nil, history: [TrendSample]? = nil,
                baseline: [ResultRow]? = nil, writerStrategies: [String] = [], limit: String = "the limit", band: Double = 0.05) {
        let summary = RunSummary(rows: rows)
        charts = [
            Self.throughput(summary, limit: limit),
            Self.scaling(summary),
            Self.batchSize(summary),
            Self.memory(rows: rows, timeline: timeline),
            Self.writers(summary, strategies: writerStrategies),
            Self.sqlPerRow(summary),
            Self.latency(summary),
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
            for (name, value) in chart.variables.sorted(by: { $0.key < $1.key }) {
                text += "\(chart.name)_\(name) = \"" + value.replacingOccurrences(of: "\"", with: "'") + "\"\n"
            }
        }
        return text
    }

    // MARK: The charts

    /// 1. Median rows/s per configuration with its interval, and its limit: one horizontal bar
    /// per configuration (labels stay readable however many), a linear scale unless the rates
    /// span more than ten times (a log scale hid differences under 2×). Rows counted under
    /// callgrind are left out: their time is callgrind's.
    static func throughput(_ s: RunSummary, limit: String) -> Chart {
        let measured = s.configurations.filter { $0.rate != nil && $0.last?.instructionsCountedBy != "callgrind" }
        guard !measured.isEmpty else { return skip("throughput", "Throughput", "no repetition finished ok") }
        var text = "# y label median_rows_per_s low high limit_rows_per_s\n"
        var limited = false
        // Top to bottom in run order: gnuplot's y grows upwards, so the first bar gets the top.
        for (i, c) in measured.enumerated() {
            let rate = c.rate!
            let interval = rate.medianInterval ?? rate.min...rate.max
            let limit = c.vsLimit.map { rate.median / $0.median } ?? .nan
            limited = limited || limit.isFinite
            // Quoted: gnuplot reads a quoted field with spaces as one column.
            let label = "\"" + (c.strategy + (c.label.isEmpty ? "" : " " + c.label)).replacingOccurrences(of: "\"", with: "'") + "\""
            text += "\(measured.count - i) \(label) \(n(rate.median)) \(n(interval.lowerBound)) \(n(interval.upperBound)) \(n(limit))\n"
        }
        let rates = measured.compactMap { $0.rate?.min }.filter { $0 > 0 }
        let logScale = (measured.compactMap { $0.rate?.median }.max() ?? 1) / (rates.min() ?? 1) > 10
        // A log scale starts at the decade below the slowest bar, not at 1.
        let start = logScale ? pow(10, floor(log10(rates.min() ?? 1))) : 0
        let operations = Set(measured.map { $0.parameters["operation"].isEmpty ? "import" : $0.parameters["operation"] })
        let unit = operations.count == 1 ? Self.unit(operations.first!) : "records (or targets) per second"
        let noLimit = operations.subtracting(["import"]) == operations
            ? "operations on a filled store have no limit" : "no limit was measured in these runs"
        return Chart(name: "throughput", title: "Throughput", data: text,
                     series: ["median " + unit] + (limited ? ["limit (\(limit))"] : []), skipped: nil,
                     variables: ["count": String(measured.count), "log": logScale ? "1" : "0", "start": n(start), "unit": unit,
                                 "limitnote": limited ? "black tick: the limit (\(limit) on the same records)" : noLimit,
                                 "settings": settings(s, of: measured)])
    }

    /// What a chart's axis counts for an operation.
    static func unit(_ operation: String) -> String {
        switch operation {
        case "update": return "records updated per second"
        case "delete": return "records deleted per second"
        case "read": return "records read per second"
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
        for column in ["rows", "dup_rate", "batch_size", "writers", "journal", "synchronous", "store"] {
            let values = Set(configurations.map { $0.parameters[column] }.filter { !$0.isEmpty })
            guard values.count == 1, let value = values.first else { continue }
            parts.append(column == "rows" ? "\(value) rows" : "\(column) \(value)")
        }
        let repetitions = Set(configurations.map { $0.rows.count })
        if repetitions.count == 1, let count = repetitions.first { parts.append("\(count) repetition\(count == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
    }

    /// 2. Wall time and rows/s against rows, one line per strategy (and other swept values).
    static func scaling(_ s: RunSummary) -> Chart {
        series(s, name: "scaling", title: "Scaling", axis: "rows", need: "sweep of --rows",
               header: "# rows wall_median wall_min wall_max rows_per_s_median") { c in
            guard let wall = c.wall, let rate = c.rate else { return nil }
            return "\(n(wall.median)) \(n(wall.min)) \(n(wall.max)) \(n(rate.median))"
        }
    }

    /// 3. Rows/s and peak RSS against batch size.
    static func batchSize(_ s: RunSummary) -> Chart {
        series(s, name: "batchsize", title: "Batch size", axis: "batch_size", need: "sweep of --batch-size",
               header: "# batch_size rows_per_s_median low high peak_rss_mb_median") { c in
            guard let rate = c.rate, let rss = c.peakRSS else { return nil }
            let interval = rate.medianInterval ?? rate.min...rate.max
            return "\(n(rate.median)) \(n(interval.lowerBound)) \(n(interval.upperBound)) \(n(rss.median / 1e6))"
        }
    }

    /// 5. Duplicates and conflicts against writers, for the writer strategies (the caller names
    /// them: Report knows no strategy), with their spread over the repetitions.
    static func writers(_ s: RunSummary, strategies: [String]) -> Chart {
        let writers = s.configurations.filter { strategies.contains($0.strategy) }
        return series(RunSummary(rows: writers.flatMap(\.rows)), name: "writers", title: "Writers", axis: "writers",
                      need: "writer strategy (\(strategies.joined(separator: ", "))) at two --writers values or more",
                      header: "# writers duplicates_median duplicates_min duplicates_max conflicts_median conflicts_min conflicts_max") { c in
            let dup = Statistics(c.ok.compactMap { $0.measurement.verification.map { Double($0.duplicates) } })
            let conflicts = Statistics(c.ok.compactMap { $0.measurement.strategy?.conflicts.map(Double.init) })
            guard let dup else { return nil }
            return "\(n(dup.median)) \(n(dup.min)) \(n(dup.max)) \(n(conflicts?.median ?? 0)) \(n(conflicts?.min ?? 0)) "
                + "\(n(conflicts?.max ?? 0))"
        }
    }

    /// 6. SQL statements per record against rows: the N+1 wall against prefetching.
    static func sqlPerRow(_ s: RunSummary) -> Chart {
        let pair = s.configurations.filter { ["n-plus-one", "prefetch"].contains($0.strategy) }
        return series(RunSummary(rows: pair.flatMap(\.rows)), name: "sqlperrow", title: "SQL per row", axis: "rows",
                      need: "n-plus-one or prefetch at two --rows values or more",
                      header: "# rows sql_statements_per_row selects_per_row") { c in
            guard let perRow = c.sqlPerRow, let last = c.last, let sql = last.sql, let done = last.rowsDone, done > 0 else { return nil }
            return "\(n(perRow)) \(n(Double(sql.select) / Double(done)))"
        }
    }

    /// 7. Open-loop latency against the offered rate.
    static func latency(_ s: RunSummary) -> Chart {
        let open = s.configurations.filter { !$0.parameters["rate"].isEmpty }
        return series(RunSummary(rows: open.flatMap(\.rows)), name: "latency", title: "Open-loop latency", axis: "rate",
                      need: "--rate run", minimumPoints: 1,
                      header: "# rate p50_ms p99_ms max_ms") { c in
            func median(_ pick: (StrategyCounters) -> Double?) -> Double? {
                Statistics(c.ok.compactMap { $0.measurement.strategy.flatMap(pick) })?.median
            }
            guard let p50 = median(\.latencyP50Milliseconds) else { return nil }
            return "\(n(p50)) \(n(median(\.latencyP99Milliseconds) ?? .nan)) \(n(median(\.latencyMaxMilliseconds) ?? .nan))"
        }
    }

    /// Lines of `figure` against the swept column `axis`, one per strategy and value of the
    /// other parameters that vary; skipped unless some line has `minimumPoints` points.
    private static func series(_ s: RunSummary, name: String, title: String, axis: String, need: String,
                               minimumPoints: Int = 2, header: String,
                               _ figure: (RunSummary.Configuration) -> String?) -> Chart {
        // A line is a strategy at one value of every other parameter; its title names the
        // parameters that differ between the lines drawn (so constants do not clutter it).
        let others = ResultRow.parameterColumns.filter { $0 != axis && $0 != "strategy" && $0 != "unique_keys" }
        var groups: [(key: [String], configurations: [RunSummary.Configuration])] = []
        for c in s.configurations where Double(c.parameters[axis]) != nil && figure(c) != nil {
            let key = [c.strategy] + others.map { c.parameters[$0] }
            if let i = groups.firstIndex(where: { $0.key == key }) { groups[i].configurations.append(c) }
            else { groups.append((key, [c])) }
        }
        groups = groups.filter { $0.configurations.count >= minimumPoints }
        let varying = others.indices.filter { i in Set(groups.map { $0.key[i + 1] }).count > 1 }
        var lines: [(title: String, points: [(Double, String)])] = []
        for group in groups {
            let title = ([group.key[0]] + varying.compactMap { i in
                group.key[i + 1].isEmpty ? nil : "\(others[i])=\(group.key[i + 1])"
            }).joined(separator: " ")
            lines.append((title, group.configurations.map { (Double($0.parameters[axis])!, figure($0)!) }))
        }
        guard !lines.isEmpty else { return skip(name, title, "the results hold no \(need)") }
        var text = header + "\n"
        for line in lines {
            text += "# \(line.title)\n"
            for (x, y) in line.points.sorted(by: { $0.0 < $1.0 }) { text += "\(n(x)) \(y)\n" }
            text += "\n\n"
        }
        return Chart(name: name, title: title, data: text, series: lines.map(\.title), skipped: nil)
    }

    /// 4. RSS and heap over rows processed, from the timeline: one line per strategy (its first
    /// repetition), so that the reset sawtooth and unbounded growth show side by side.
    static func memory(rows: [ResultRow], timeline: [[String: String]]?) -> Chart {
        guard let timeline, !timeline.isEmpty else {
            return skip("memory", "Memory over rows", "no --timeline file was given (loadgen plot --timeline FILE)")
        }
        // The runs that went furthest (the largest --rows): where growth and sawtooth show best.
        let longest = timeline.compactMap { Double($0["rows_done"] ?? "") }.max() ?? 0
        var reached: [String: Double] = [:]
        for sample in timeline {
            if let run = sample["run_id"], let done = Double(sample["rows_done"] ?? "") { reached[run] = max(reached[run] ?? 0, done) }
        }
        var firstRun: [String: String] = [:]   // strategy + config → run_id of its first repetition
        var order: [String] = []
        for sample in timeline where reached[sample["run_id"] ?? ""] == longest {
            let key = [sample["strategy"] ?? "", sample["config"] ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
            guard let run = sample["run_id"], !key.isEmpty else { continue }
            if firstRun[key] == nil { firstRun[key] = run; order.append(key) }
        }
        guard !order.isEmpty else { return skip("memory", "Memory over rows", "the timeline has no samples") }
        // Titles keep what differs between the lines (rows=… is the same for all of them).
        let words = order.map { $0.split(separator: " ").map(String.init) }
        let common = words.dropFirst().reduce(Set(words[0].dropFirst())) { $0.intersection($1.dropFirst()) }
        let titles = words.map { w in ([w[0]] + w.dropFirst().filter { !common.contains($0) }).joined(separator: " ") }
        var text = "# rows_done rss_mb heap_mb\n"
        for key in order {
            text += "# \(key)\n"
            for sample in timeline where sample["run_id"] == firstRun[key] {
                guard let done = Double(sample["rows_done"] ?? ""), let rss = Double(sample["rss_bytes"] ?? ""),
                      let heap = Double(sample["heap_bytes"] ?? "") else { continue }
                text += "\(n(done)) \(n(rss / 1e6)) \(n(heap / 1e6))\n"
            }
            text += "\n\n"
        }
        return Chart(name: "memory", title: "Memory over rows", data: text, series: titles, skipped: nil)
    }

    /// 8. The nightly trend: per nightly run (one invocation) and strategy, its `vs_limit` and
    /// allocations per record relative to the baseline's for the same configurations (the
    /// median over the strategy's configurations of night median ÷ baseline median). One
    /// baseline for every line (1.0), the band the gate tolerates around it, and a mark on each
    /// night a strategy fell below the band.
    static func trend(history: [TrendSample]?, baseline: [ResultRow]?, limit: String = "", band: Double = 0.05) -> Chart {
        guard let history, !history.isEmpty else {
            return skip("trend", "Nightly trend", "no --history file was given (results/history.csv)")
        }
        guard let baseline, !baseline.isEmpty else {
            return skip("trend", "Nightly trend", "no baseline to compare the nights with (--baseline FILE)")
        }
        let base = Dictionary(grouping: baseline.filter { $0.measurement.instructionsCountedBy == nil }.map(TrendSample.init),
                              by: \.configuration)
        let baseSpeed = base.compactMapValues { Statistics($0.compactMap(\.vsLimit))?.median }
        let baseAllocations = base.compactMapValues { Statistics($0.compactMap(\.allocationsPerRow))?.median }
        // One point per nightly run, placed at the time it started (ISO 8601 in UTC sorts as
        // text, so the earliest is found without parsing every row's date).
        let runs = Dictionary(grouping: history, by: \.night)
        let formatter = ISO8601DateFormatter()
        let start = runs.mapValues { rows in
            rows.map(\.startedAt).filter { !$0.isEmpty }.min().flatMap { formatter.date(from: $0)?.timeIntervalSince1970 } ?? 0
        }
        let order = runs.keys.sorted { (start[$0]!, $0) < (start[$1]!, $1) }
        var flags = ""
        // Strategies with a vs_limit first: the top panel draws those, the bottom all.
        var blocks: [(strategy: String, text: String, hasSpeed: Bool)] = []
        for strategy in history.map(\.strategy).uniqued() where strategy != limit {
            var lines: [String] = []
            var hasSpeed = false
            for run in order {
                let mine = Dictionary(grouping: runs[run]!.filter { $0.strategy == strategy }, by: \.configuration)
                let speed = Statistics(mine.compactMap { key, rows in
                    Statistics(rows.compactMap(\.vsLimit)).flatMap { night in baseSpeed[key].map { night.median / $0 } }
                })?.median
                let allocations = Statistics(mine.compactMap { key, rows in
                    Statistics(rows.compactMap(\.allocationsPerRow)).flatMap { night in baseAllocations[key].map { night.median / $0 } }
                })?.median
                guard speed != nil || allocations != nil else { continue }
                hasSpeed = hasSpeed || speed != nil
                lines.append("\(Int(start[run]!)) \(n(speed ?? .nan)) \(n(allocations ?? .nan))")
                if let speed, speed < 1 - band { flags += "\(Int(start[run]!)) \(n(speed)) \"\(strategy)\"\n" }
            }
            guard !lines.isEmpty else { continue }
            blocks.append((strategy, "# \(strategy)\n" + lines.joined(separator: "\n") + "\n\n\n", hasSpeed))
        }
        blocks = blocks.filter(\.hasSpeed) + blocks.filter { !$0.hasSpeed }
        var text = "# run_start_epoch vs_limit_to_baseline allocations_per_row_to_baseline\n" + blocks.map(\.text).joined()
        let series = blocks.map(\.strategy)
        guard !series.isEmpty else {
            return skip("trend", "Nightly trend", "no configuration of the history is in the baseline")
        }
        // The marks: an index of their own after the series ("x y label"), empty when none.
        text += "# below the band\n" + (flags.isEmpty ? "NaN NaN \"\"\n" : flags)
        return Chart(name: "trend", title: "Nightly trend", data: text, series: series, skipped: nil,
                     variables: ["band": n(band), "nights": String(order.count),
                                 "speedcount": String(blocks.filter(\.hasSpeed).count),
                                 "marks": String(flags.split(separator: "\n").count)])
    }

    private static func skip(_ name: String, _ title: String, _ why: String) -> Chart {
        Chart(name: name, title: title, data: nil, series: [], skipped: why)
    }

    /// A number as gnuplot reads it; NaN as "NaN" (gnuplot skips it).
    private static func n(_ v: Double) -> String {
        guard v.isFinite else { return "NaN" }
        return v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(format: "%.6g", v)
    }
}
