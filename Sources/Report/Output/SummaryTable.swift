import Foundation

/// How the summary tables (the terminal's and `--markdown`'s) show a figure, declared with its
/// column (`ResultColumn.tabled`): the table's columns are the declarations in the results
/// table's order, then the configuration's own (SQL per row, status), then the occasional ones a
/// run has.
package struct TableCell: Sendable {
    /// What of the figure's values over the repetitions that were ok.
    package enum Value: Sendable {
        case median, mad, interval, last, max
    }
    package let title: String
    let value: Value
    let format: @Sendable (Double) -> String
    /// Shown only when some configuration's value is above zero (conflicts, busy retries).
    var occasional = false
    /// Shown in the Markdown table only (the terminal's is narrower), and its title there.
    var markdownOnly = false
    var markdownTitle: String?

    package init(
        _ title: String, _ value: Value, markdownTitle: String? = nil, markdownOnly: Bool = false,
        occasional: Bool = false,
        format: @escaping @Sendable (Double) -> String
    ) {
        self.title = title
        self.value = value
        self.format = format
        self.occasional = occasional
        self.markdownOnly = markdownOnly
        self.markdownTitle = markdownTitle
    }

    /// Whole numbers: "%.0f".
    static let whole: @Sendable (Double) -> String = { String(format: "%.0f", $0) }
    /// A count as written.
    static let count: @Sendable (Double) -> String = { String(Int($0)) }
    /// Bytes, decimal units ("12.3 MB").
    static let bytes: @Sendable (Double) -> String = { Format.bytes(Int($0)) }
}

/// The summary tables' columns, from the declarations.
enum SummaryTable {
    typealias Column = (title: String, cell: @Sendable (RunSummary.Configuration) -> String)

    /// Every column of a table for `summary`: the declared figures (the Markdown table has the
    /// rate's interval too), SQL per row, the status, and the occasional figures some
    /// configuration has above zero.
    static func columns(_ summary: RunSummary, markdown: Bool) -> [Column] {
        let declared = ResultRow.columns.flatMap { column in column.tableCells.map { (column, $0) } }
        let regular = declared.filter { !$0.1.occasional && (markdown || !$0.1.markdownOnly) }
        let occasional = declared.filter { pair in
            pair.1.occasional && summary.configurations.contains { (value(pair.0, pair.1, $0) ?? 0) > 0 }
        }
        let figures: [Column] = regular.map { pair in column(pair.0, pair.1, markdown: markdown) }
        let extra: [Column] = occasional.map { pair in column(pair.0, pair.1, markdown: markdown) }
        return figures + own + extra
    }

    /// The configuration's own columns: SQL statements per row, and how many repetitions were not ok.
    private static let own: [Column] = [
        ("SQL/row", { c in c.sqlPerRow.map { String(format: "%.2f", $0) } ?? "" }),
        // not a results column: a table title
        ("status", { c in c.ok.count == c.rows.count ? "ok" : "\(c.rows.count - c.ok.count) not ok" }),
    ]

    private static func column(_ column: ResultColumn, _ cell: TableCell, markdown: Bool) -> Column {
        let title = markdown ? cell.markdownTitle ?? cell.title : cell.title
        guard cell.value == .interval else { return (title, { c in value(column, cell, c).map(cell.format) ?? "" }) }
        return (
            title,
            { c in
                c.statistics(of: column)?.medianInterval.map {
                    "\(cell.format($0.lowerBound)) … \(cell.format($0.upperBound))"
                } ?? ""
            }
        )
    }

    /// The cell's value for a configuration (nil: blank). A spread of one repetition is none.
    static func value(_ column: ResultColumn, _ cell: TableCell, _ c: RunSummary.Configuration) -> Double? {
        switch cell.value {
        case .last: return c.ok.last.flatMap { column.number?($0) }
        case .median: return c.statistics(of: column)?.median
        case .max: return c.statistics(of: column)?.max
        case .mad: return c.statistics(of: column).flatMap { $0.count > 1 ? $0.mad : nil }
        case .interval: return nil
        }
    }

}
