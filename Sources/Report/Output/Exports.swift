import Foundation

/// `--json`: every repetition as an object of typed values (numbers as JSON numbers, blanks as
/// null), and a summary object per configuration.
package enum JSONExport {
    package static func render(_ summary: RunSummary) throws -> String {
        let repetitions = summary.rows.map { row in
            Dictionary(uniqueKeysWithValues: zip(ResultRow.header, row.fields).map { ($0, typed($1, column: $0)) })
        }
        let header = SummaryCSV.header(summary)
        let configurations = SummaryCSV.rows(summary).map { fields in
            Dictionary(uniqueKeysWithValues: zip(header, fields).map { ($0, typed($1, column: $0)) })
        }
        let document: [String: Any] = [
            "generator": ExportMark.author, "repetitions": repetitions, "summary": configurations,
            "recommendations": summary.recommendations.map(recommendation),
        ]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A recommendation as JSON: what the workload needs, the winner (null unless these
    /// repetitions tell it apart from every other), every configuration that may be recommended
    /// with its lead behind the first, how stable the first is, and those excluded with why.
    static func recommendation(_ r: Recommendation) -> [String: Any] {
        func named(_ c: RunSummary.Configuration) -> [String: Any] {
            // not a results column: keys of the JSON recommendation
            ["strategy": c.strategy, "config": c.label, "name": r.name(c)]
        }
        var object: [String: Any] = [
            "workload": r.workload, "objective": r.objective.rawValue, "through_vs_limit": r.metric == .vsLimit,
            "metric": r.metric?.rawValue ?? NSNull(), "needs": r.needs.sorted().map(\.rawValue),
            "order": r.ranked.isEmpty ? "none" : r.orderUnknown ? "unknown" : r.winner != nil ? "winner" : "tied",
            "stability": r.stability ?? NSNull(),
        ]
        object["best"] = r.winner.map { named($0) } ?? NSNull()
        if let none = r.none { object["why_none"] = none }
        object["leaders"] = r.ranked.isEmpty ? [] : r.leaders.map(named)
        object["ranked"] = r.ranked.map { entry -> [String: Any] in
            var o = named(entry.configuration)
            o["value"] = r.metric.flatMap { $0.median(entry.configuration) } ?? NSNull()
            if let lead = entry.lead {
                o["first_ahead_by"] = lead.ratio
                o["ci_low"] = lead.interval?.lowerBound ?? NSNull()
                o["ci_high"] = lead.interval?.upperBound ?? NSNull()
                o["told_apart"] = lead.toldApart
                if !lead.toldApart { o["why_not"] = lead.whyNot }
            }
            return o
        }
        let evens = Dictionary(
            r.breakEvens.map { ($0.other.parameters, $0.breakEven) }, uniquingKeysWith: { a, _ in a })
        object["ranked"] = (object["ranked"] as! [[String: Any]]).enumerated().map { i, o in
            var o = o
            o["objects_per_row"] = r.ranked[i].configuration.objectsPerRow ?? NSNull()
            if let even = evens[r.ranked[i].configuration.parameters] {
                // null: the first's lead holds whatever a managed object costs.
                o["break_even_us_per_object"] = even.microseconds ?? NSNull()
            }
            return o
        }
        object["excluded"] = r.excluded.map { entry -> [String: Any] in
            named(entry.configuration).merging(["why": entry.why, "outcome": entry.configuration.verdict.outcome]) {
                a, _ in a
            }
        }
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
    /// How its file begins (its header's first column): what a run or export replaces.
    package static let signature = "strategy,"

    /// One figure column: its name, whether it holds text, and how a configuration's cell is made.
    struct Figure: Sendable {
        let name: String
        var isText = false
        let cell: @Sendable (Row) -> String
    }

    /// What a figure's cell reads: the configuration and its rank.
    struct Row {
        let c: RunSummary.Configuration
        let rank: Int?
    }

    /// Every figure after the parameters, in file order: the configuration's own (its label,
    /// repetitions, rank), then what the results table declares of each column
    /// (`ResultColumn.summarized`), in the table's order, then the verdict.
    static let figures: [Figure] =
        [
            // not a results column: a summary CSV column (the configuration's label)
            Figure(name: "config", isText: true) { $0.c.label },
            Figure(name: "repetitions") { String($0.c.rows.count) },
            Figure(name: "ok") { String($0.c.ok.count) },
            Figure(name: "rank") { $0.rank.map(String.init) ?? "" },
        ] + ResultRow.columns.flatMap(declared) + [
            Figure(name: "sql_per_row") { n($0.c.sqlPerRow, 4) },
            // not a results column: a summary CSV column (the repetitions' verdict)
            Figure(name: "status", isText: true) {
                $0.c.ok.count == $0.c.rows.count ? "ok" : "\($0.c.rows.count - $0.c.ok.count) not ok"
            },
            // What the workload needs of the store, and what this configuration's stores delivered:
            // ok, failed, bug (an idiom shown for its bug), or short:unique+links.
            Figure(name: "needs", isText: true) { $0.c.verdict.needs.sorted().map(\.rawValue).joined(separator: "+") },
            Figure(name: "outcome", isText: true) { $0.c.verdict.outcome },
        ]

    /// The summary figures a column declares.
    private static func declared(_ column: ResultColumn) -> [Figure] {
        switch column.summary {
        case nil:
            return []
        case .last?:
            return [Figure(name: column.name, isText: column.isText) { row in row.c.ok.last.map(column.write) ?? "" }]
        case .median(let decimals)?:
            return [Figure(name: column.name) { n($0.c.statistics(of: column)?.median, decimals) }]
        case .statistics(let kinds, let decimals)?:
            return kinds.map { kind in
                Figure(name: column.name + "_" + kind.rawValue) { row in
                    guard let s = row.c.statistics(of: column) else { return "" }
                    switch kind {
                    case .median: return n(s.median, decimals)
                    case .mean: return n(s.mean, decimals)
                    case .sd: return n(s.standardDeviation, decimals)
                    case .mad: return n(s.mad, decimals)
                    case .min: return n(s.min, decimals)
                    case .max: return n(s.max, decimals)
                    case .ciLow: return n(s.medianInterval?.lowerBound, decimals)
                    case .ciHigh: return n(s.medianInterval?.upperBound, decimals)
                    case .outliers: return String(s.outliers.count)
                    }
                }
            }
        }
    }

    static let textColumns: Set<String> = Set(figures.filter(\.isText).map(\.name))

    /// The parameter columns present in the run, in results-file order, then the figures.
    package static func header(_ summary: RunSummary) -> [String] {
        return parameterColumns(summary).map(\.name) + figures.map(\.name)
    }

    /// The parameter columns some configuration of `summary` holds, in file order.
    private static func parameterColumns(_ summary: RunSummary) -> [Column] {
        let present = Set(summary.configurations.flatMap { $0.parameters.fields.keys })
        return ResultRow.columns.map(\.column).filter { present.contains($0.name) && $0 != .config }
    }

    package static func rows(_ summary: RunSummary) -> [[String]] {
        let parameterColumns = parameterColumns(summary)
        var rank: [ParameterValues: Int] = [:]
        for ranking in summary.rankings {
            for (i, c) in ranking.members.enumerated() where rank[c.parameters] == nil { rank[c.parameters] = i + 1 }
        }
        return summary.configurations.map { c in
            let row = Row(c: c, rank: rank[c.parameters])
            return parameterColumns.map { c.parameters[$0] } + figures.map { $0.cell(row) }
        }
    }

    private static func n(_ value: Double?, _ decimals: Int) -> String {
        guard let value, value.isFinite else { return "" }
        return Format.fixed(value, decimals)
    }

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
        let figures = SummaryTable.columns(summary, markdown: true)
        let header = [Column.strategy.name] + swept.map(\.name) + figures.map(\.title)
        let alignments = ["---"] + swept.map { _ in "---" } + figures.map { _ in "---:" }
        var lines = ["| " + header.joined(separator: " | ") + " |", "|" + alignments.joined(separator: "|") + "|"]
        for c in summary.configurations {
            var cells = [c.strategy + (summary.marks[c.strategy] == nil ? "" : " \\*")]
            cells += swept.map { column in
                let value = summary.options.value(column, of: c.parameters)
                return value.isEmpty ? "—" : value
            }
            cells += figures.map { $0.cell(c) }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        var text = "\(signature) \(title)\(summary.interruption == nil ? "" : " (interrupted)")\n\n"
        if let interruption = summary.interruption { text += "**\(interruption)**\n\n" }
        text += lines.joined(separator: "\n") + "\n"
        let footnotes = summary.configurations.map(\.strategy).uniqued().compactMap { name in
            summary.marks[name].map { "\\* \(name): \($0)" }
        }
        if !footnotes.isEmpty { text += "\n" + footnotes.joined(separator: "  \n") + "\n" }
        let rankings = summary.rankings.filter { $0.members.count > 1 || !$0.apart.isEmpty }
        if !rankings.isEmpty { text += "\n" }
        for ranking in rankings {
            text += "- " + Summary.leadLine(ranking, summary: summary) + "\n"
            for (c, name) in zip(ranking.apart, ranking.apartNames) {
                text += "  - ranked apart: " + Summary.apartLine(c, name: name) + "\n"
            }
        }
        let conclusion = Summary.recommendations(summary)
        if !conclusion.isEmpty {
            text += "\n### Recommendation\n\n```\n" + conclusion.trimmingCharacters(in: .newlines) + "\n```\n"
        }
        return text
    }

    /// Parameter columns whose values differ between configurations (strategy aside), in file
    /// order: what a reader must see to tell the table's rows apart (a strategy's own default
    /// batch size too, which is no sweep).
    static func sweptColumns(_ summary: RunSummary) -> [Column] {
        ResultRow.columns.map(\.column).filter { column in
            column.isFreeParameter
                && Set(
                    summary.configurations.map { summary.options.value(column, of: $0.parameters) }.filter {
                        !$0.isEmpty
                    }
                ).count > 1
        }
    }
}
