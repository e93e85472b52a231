/// The results file's columns as a Markdown table for `results/README.md`, made from
/// `ResultRow.columns` (a test keeps the README's copy equal to it): what each cell holds, how
/// the nightly gate judges it, what a benchmark dashboard tracks of it, and the charts that draw
/// it (`ChartDeclaration.all`).
package enum ColumnTable {
    /// Where the table sits in the README.
    package static let begin = "<!-- columns: made from ResultRow.columns; scripts/golden rewrites it -->"
    package static let end = "<!-- end of columns -->"

    package static func markdown() -> String {
        var text =
            "| column | holds | the gate judges it | the summary CSV gives | dashboards track it | charts |\n"
            + "|---|---|---|---|---|---|\n"
        for c in ResultRow.columns {
            text +=
                "| `\(c.name)` | \(holds(c)) | \(gate(c.rule)) | \(summary(c)) | "
                + "\(c.metric.map { "\($0.unit), \($0.better == .higher ? "higher" : "lower") is better" } ?? "") | \(charts(c)) |\n"
        }
        return text
    }

    /// The charts that draw the figure, by file name (`throughput*`: one per operation).
    private static func charts(_ c: ResultColumn) -> String {
        ChartDeclaration.all.filter { $0.figures.contains(c.column) }
            .map { "`\($0.name)\($0.perOperation ? "*" : "")`" }.joined(separator: ", ")
    }

    private static func holds(_ c: ResultColumn) -> String {
        let cell: String
        switch c.domain {
        case .text: cell = "text"
        case .line: cell = "one line of text"
        case .status: cell = "ok, failed or crashed"
        case .name: cell = "a strategy name"
        case .count: cell = "a count"
        case .decimal(let maximum):
            cell = maximum <= 1 ? "a share (0…1)" : maximum <= 1000 ? "a number up to \(Int(maximum))" : "a number"
        }
        return (c.isParameter ? "parameter: " : "") + cell
    }

    private static func summary(_ c: ResultColumn) -> String {
        switch c.summary {
        case nil: return ""
        case .last?: return "the last repetition's"
        case .median?: return "the median"
        case .statistics(let kinds, _)?: return kinds.map { "`\(c.name)_\($0.rawValue)`" }.joined(separator: ", ")
        }
    }

    private static func gate(_ rule: CompareRule?) -> String {
        switch rule {
        case nil: return ""
        case .correctness?: return "must match, always"
        case .exact?: return "exact where the baseline repeats it"
        case .nearExact?: return "within 0.5 % or 3× the baseline's spread"
        case .nearExactOnOneMachine?:
            return "within 0.5 % or 3× the baseline's spread on one machine; across machines shown"
        case .noisy(let higher, let threshold)?:
            return "noisy: past --\(threshold.rawValue) and Mann-Whitney (\(higher ? "higher" : "lower") is better)"
        }
    }
}
