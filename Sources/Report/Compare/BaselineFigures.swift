/// A baseline's work figures, one line per configuration and figure, sorted: written beside the
/// baseline (`results/baseline.figures`) so that a rebaseline's diff shows what moved and nothing
/// else. The baseline itself changes on every line (run ids, dates, times); its figures do not
/// unless the code did.
package enum BaselineFigures {
    /// How the file starts: what `--figures` replaces (and nothing else).
    package static let signature = "# Work figures of the baseline"

    /// "context-reset rows=100000 | sql_statements | 291015": exact figures as their distinct
    /// values (a racing count as its range), near-exact ones as the median to three significant
    /// digits (the gate's tolerance is 0.5 %).
    package static func render(_ side: ComparisonSide) -> String {
        let labels = Comparison.labels(Array(side.groups.keys))
        var lines: [String] = []
        for (key, group) in side.groups {
            let label = labels[key]!
            for figure in Comparison.exactFigures {
                let values = Set(group.cells(figure).filter { !$0.isEmpty })
                guard !values.isEmpty else { continue }
                let numbers = values.compactMap(Int.init)
                let text =
                    numbers.count == values.count && values.count > 1
                    ? "\(Format.thousands(numbers.min()!))…\(Format.thousands(numbers.max()!))"
                    : values.sorted().map { Int($0).map(Format.thousands) ?? $0 }.joined(separator: "/")
                lines.append("\(label) | \(figure) | \(text)")
            }
            for figure in Comparison.nearExactFigures {
                guard let s = Statistics(group.cells(figure).compactMap(Double.init)) else { continue }
                lines.append("\(label) | \(figure) | \(significant(s.median))")
            }
        }
        return signature + " beside this file, one per line: its diff is what a rebaseline moved.\n"
            + lines.sorted().joined(separator: "\n") + "\n"
    }

    /// Three significant digits: 50,123 → "50.1 k", 883,991,689 → "884 M".
    static func significant(_ v: Double) -> String {
        let units: [(Double, String)] = [(1e9, " G"), (1e6, " M"), (1e3, " k")]
        for (scale, unit) in units where abs(v) >= scale {
            let x = v / scale
            return
                (x >= 100 ? String(format: "%.0f", x) : x >= 10 ? String(format: "%.1f", x) : String(format: "%.2f", x))
                + unit
        }
        return v >= 100 ? String(format: "%.0f", v) : String(format: "%.3g", v)
    }
}
