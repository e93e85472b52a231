import Foundation

/// `--json`: every repetition as an object of typed values (numbers as JSON numbers, blanks as
/// null), and a summary object per configuration.
package enum JSONExport {
    package static func render(_ summary: RunSummary) throws -> String {
        let repetitions = summary.rows.map { row in Dictionary(uniqueKeysWithValues: zip(ResultRow.header, row.fields).map { ($0, typed($1, column: $0)) }) }
        let header = SummaryCSV.header(summary)
        let configurations = SummaryCSV.rows(summary).map { fields in
            Dictionary(uniqueKeysWithValues: zip(header, fields).map { ($0, typed($1, column: $0)) })
        }
        let document: [String: Any] = ["repetitions": repetitions, "summary": configurations,
                                       "recommendations": summary.recommendations.map(recommendation)]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A recommendation as JSON: the objective, the best, those within noise, those excluded.
    static func recommendation(_ r: Recommendation) -> [String: Any] {
        func named(_ c: RunSummary.Configuration) -> [String: Any] { ["strategy": c.strategy, "config": c.label] }
        var object: [String: Any] = ["workload": r.workload, "objective": r.objective.rawValue, "through_vs_limit": r.throughLimit]
        if let best = r.best {
            object["best"] = named(best).merging(["value": RunSummary.objectiveValue(best, r.objective, throughLimit: r.throughLimit)
                                                    ?? NSNull()]) { a, _ in a }
        } else {
            object["best"] = NSNull()
            object["why_none"] = r.none ?? ""
        }
        object["within_noise"] = r.withinNoise.map { named($0.configuration).merging(["behind": $0.difference]) { a, _ in a } }
        object["excluded"] = r.excluded.map { named($0.configuration).merging(["why": $0.why]) { a, _ in a } }
        return object
    }

    /// A CSV cell as JSON: blanks are null, text columns strings, the others numbers.
    static func typed(_ value: String, column: String) -> Any {
        if value.isEmpty { return NSNull() }
        if ResultRow.textColumns.contains(column) || SummaryCSV.textColumns.contains(column) { return value }
        if let i = Int(value) { return i }
        if let d = Double(value), d.isFinite { return d }
        return value
    }
}

/// `--summary-csv`: one row per configuration with its statistics, for charts and spreadsheets.
/// Parameter columns first (as the results file orders them), then the figures.
package enum SummaryCSV {
    /// Figures after the parameters, in file order.
    static let figures = [
        "config", "repetitions", "ok", "rank",
        "rows_per_s_median", "rows_per_s_mean", "rows_per_s_sd", "rows_per_s_mad", "rows_per_s_min", "rows_per_s_max",
        "rows_per_s_ci_low", "rows_per_s_ci_high", "rows_per_s_outliers",
        "wall_s_median", "wall_s_mad", "wall_s_min", "wall_s_max", "wall_s_ci_low", "wall_s_ci_high",
        "vs_limit_median", "vs_limit_ci_low", "vs_limit_ci_high",
        "peak_rss_bytes_median", "peak_rss_bytes_max", "peak_heap_bytes_max",
        "sql_per_row", "sql_statements", "sql_selects", "saves", "transactions", "conflicts", "busy_retries",
        "duplicates", "lost", "bad_links", "integrity",
        "latency_p50_ms", "latency_p99_ms", "latency_max_ms", "status",
    ]
    static let textColumns: Set<String> = ["config", "integrity", "status"]

    /// The parameter columns present in the run, in results-file order, then the figures.
    package static func header(_ summary: RunSummary) -> [String] {
        let present = Set(summary.configurations.flatMap { $0.parameters.fields.keys })
        return ResultRow.header.filter { present.contains($0) && $0 != "config" } + figures
    }

    package static func rows(_ summary: RunSummary) -> [[String]] {
        let header = header(summary)
        let parameterColumns = header.prefix(header.count - figures.count)
        var rank: [ParameterValues: Int] = [:]
        for ranking in summary.rankings {
            for (i, c) in ranking.members.enumerated() where rank[c.parameters] == nil { rank[c.parameters] = i + 1 }
        }
        return summary.configurations.map { c in
            let last = c.last
            let latency = { (pick: (StrategyCounters) -> Double?) in
                Statistics(c.ok.compactMap { $0.measurement.strategy.flatMap(pick) })?.median
            }
            let figures: [String] = [
                c.label, String(c.rows.count), String(c.ok.count), rank[c.parameters].map(String.init) ?? "",
                n(c.rate?.median, 1), n(c.rate?.mean, 1), n(c.rate?.standardDeviation, 1), n(c.rate?.mad, 1),
                n(c.rate?.min, 1), n(c.rate?.max, 1), n(c.rate?.medianInterval?.lowerBound, 1),
                n(c.rate?.medianInterval?.upperBound, 1), c.rate.map { String($0.outliers.count) } ?? "",
                n(c.wall?.median, 6), n(c.wall?.mad, 6), n(c.wall?.min, 6), n(c.wall?.max, 6),
                n(c.wall?.medianInterval?.lowerBound, 6), n(c.wall?.medianInterval?.upperBound, 6),
                n(c.vsLimit?.median, 4), n(c.vsLimit?.medianInterval?.lowerBound, 4), n(c.vsLimit?.medianInterval?.upperBound, 4),
                n(c.peakRSS?.median, 0), n(c.peakRSS?.max, 0),
                c.ok.compactMap(\.measurement.peakHeapBytes).max().map(String.init) ?? "",
                n(c.sqlPerRow, 4), i(last?.sql?.total), i(last?.sql?.select), i(last?.strategy?.saves), i(last?.sql?.commits),
                i(last?.strategy?.conflicts), i(last?.strategy?.busyRetries),
                i(last?.verification?.duplicates), i(last?.verification?.lost), i(last?.verification?.badLinks),
                last?.verification?.integrity ?? "",
                n(latency(\.latencyP50Milliseconds), 3), n(latency(\.latencyP99Milliseconds), 3),
                n(latency(\.latencyMaxMilliseconds), 3),
                c.ok.count == c.rows.count ? "ok" : "\(c.rows.count - c.ok.count) not ok",
            ]
            return parameterColumns.map { c.parameters[$0] } + figures
        }
    }

    private static func n(_ value: Double?, _ decimals: Int) -> String {
        guard let value, value.isFinite else { return "" }
        return Format.fixed(value, decimals)
    }

    private static func i(_ value: Int?) -> String { value.map(String.init) ?? "" }

    /// The whole file's text.
    package static func render(_ summary: RunSummary) -> String {
        ([header(summary)] + rows(summary)).map(CSV.line).joined()
    }
}

/// `--markdown`: the summary table for a design review or a pull request.
package enum MarkdownExport {
    /// How every summary this writes begins (and how `run` recognises one it may replace).
    package static let signature = "## loadgen"

    package static func render(_ summary: RunSummary, title: String = "run summary") -> String {
        let swept = sweptColumns(summary)
        let occasional = Summary.occasionalColumns(summary)
        let header = ["strategy"] + swept + ["median rows/s", "95% CI", "± MAD", "vs_limit", "peak RSS", "duplicates", "lost",
                                             "SQL/row", "status"] + occasional.map(\.title)
        var lines = ["| " + header.joined(separator: " | ") + " |",
                     "|" + header.map { $0 == "strategy" || swept.contains($0) ? "---" : "---:" }.joined(separator: "|") + "|"]
        for c in summary.configurations {
            var cells = [c.strategy + (summary.marks[c.strategy] == nil ? "" : " \\*")]
            cells += swept.map { c.parameters[$0].isEmpty ? "—" : c.parameters[$0] }
            cells += c.figureCells(withInterval: true) + occasional.map { $0.cell(c) }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        var text = "\(signature) \(title)\n\n" + lines.joined(separator: "\n") + "\n"
        let footnotes = summary.configurations.map(\.strategy).uniqued().compactMap { name in
            summary.marks[name].map { "\\* \(name): \($0)" }
        }
        if !footnotes.isEmpty { text += "\n" + footnotes.joined(separator: "  \n") + "\n" }
        let rankings = summary.rankings.filter { $0.members.count > 1 || !$0.apart.isEmpty }
        if !rankings.isEmpty { text += "\n" }
        for ranking in rankings {
            text += "- " + Summary.leadLine(ranking, summary: summary) + "\n"
            for c in ranking.apart { text += "  - ranked apart: " + Summary.apartLine(c) + "\n" }
        }
        let conclusion = Summary.recommendations(summary)
        if !conclusion.isEmpty {
            text += "\n### Recommendation\n\n```\n" + conclusion.trimmingCharacters(in: .newlines) + "\n```\n"
        }
        return text
    }

    /// Parameter columns that differ between configurations (strategy aside), in file order.
    static func sweptColumns(_ summary: RunSummary) -> [String] {
        ResultRow.header.filter { column in
            column != "strategy" && column != "unique_keys" && column != "config"
                && Set(summary.configurations.compactMap { c -> String? in
                    let v = c.parameters[column]
                    return c.parameters.fields[column] == nil || v.isEmpty ? nil : v
                }).count > 1
        }
    }
}
