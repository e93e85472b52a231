import Foundation

extension ChartData {
    /// 1. Median rate per configuration with its interval, one chart per operation: one
    /// horizontal bar per configuration, grouped by workload; the limit one line per workload at
    /// the limit's own measured rate; configurations that may not be recommended (their stores
    /// fall short of what the workload needs, the idiom is a bug it shows, a repetition failed)
    /// hatched grey and labelled with why. A linear scale unless the rates span more than ten
    /// times. Rows counted under callgrind are left out: their time is callgrind's.
    static func throughputs(_ s: RunSummary, limit: String, marks: [String: String]) -> [Chart] {
        let measured = s.configurations.filter { $0.rate != nil && !$0.underCallgrind }
        let declaration = ChartDeclaration.named("throughput")
        let drawn = ChartDeclaration.operations.filter { op in measured.contains { operation(of: $0) == op } }
        return ChartDeclaration.operations.map { op in
            let name = declaration.name(for: op)
            let mine = measured.filter { operation(of: $0) == op }
            guard !mine.isEmpty else {
                let why = measured.isEmpty ? "no repetition finished ok" : "no \(op) was measured"
                var chart = skip(name, "\(declaration.title) (\(op))", why)
                chart.quiet = !drawn.isEmpty
                return chart
            }
            return throughput(s, mine, operation: op, name: name, limit: limit, marks: marks)
        }
    }

    static func operation(of c: RunSummary.Configuration) -> String {
        c.parameters.operation
    }

    private static func throughput(
        _ s: RunSummary, _ measured: [RunSummary.Configuration], operation: String, name: String,
        limit: String, marks: [String: String]
    ) -> Chart {
        let (bars, spans) = orderedBars(s, measured, limit: limit)
        let varying = s.options.workloadColumns.filter { column in
            (column == .strategy || column.isFreeParameter)
                && Set(bars.map { s.options.value(column, of: $0.parameters) }).count > 1
        }
        let labelled = bars.filter { !$0.label.isEmpty }.map { Set($0.label.split(separator: " ").map(String.init)) }
        let shared =
            labelled.count == bars.count
            ? labelled.dropFirst().reduce(labelled.first ?? []) { $0.intersection($1) } : []
        // The declared columns, then apart: 0 may be recommended, 1 may not, 2 the limit itself.
        let declaration = ChartDeclaration.named("throughput")
        var text = declaration.header + " apart\n"
        var longest = 0
        for (i, c) in bars.enumerated() {
            let values = ChartColumn.values(declaration.columns, of: c).map { $0.map(n) ?? "NaN" }.joined(
                separator: " ")
            let outcome = apartReason(c, s) ?? "ok"
            let why =
                outcome == "ok" || c.strategy == limit
                ? ""
                : " — "
                    + outcome.replacingOccurrences(of: "short:", with: "short: ")
                    .replacingOccurrences(of: "+", with: ", ")
            // Several workloads in one chart: each bar says which (what its label lacks of it);
            // what every bar shares is the subtitle's, not a label's.
            let words = c.label.split(separator: " ").map(String.init).filter { !shared.contains($0) }
            let workload = varying.compactMap { column -> String? in
                let value = s.options.value(column, of: c.parameters)
                let word = "\(column)=\(value)"
                return value.isEmpty || words.contains(word) || (value == "on" && words.contains(column.name))
                    ? nil : word
            }
            let label =
                ([c.strategy + (c.strategy == limit ? " (limit)" : "")] + words + workload).joined(separator: " ") + why
            longest = max(longest, label.count)
            // Quoted: gnuplot reads a quoted field with spaces as one column.
            text +=
                "\(bars.count - i) \"\(label.replacingOccurrences(of: "\"", with: "'"))\" \(values) "
                + "\(c.strategy == limit ? 2 : outcome == "ok" ? 0 : 1)\n"
        }
        // The limit: one segment per workload across its bars, at the limit's measured median.
        text += "\n\n# limit_rows_per_s y_top y_bottom\n"
        for span in spans {
            text +=
                "\(n(span.rate)) \(n(Double(bars.count - span.first) + 0.45)) \(n(Double(bars.count - span.last) - 0.45))\n"
        }
        if spans.isEmpty { text += "NaN NaN NaN\n" }
        return Chart(
            name: name, title: "\(declaration.title) (\(operation))", data: text,
            series: Self.throughputTitles(limit: limit), skipped: nil,
            variables: throughputVariables(
                s, bars: bars, spans: spans, operation: operation, limit: limit,
                marks: marks, longest: longest))
    }

    /// The titles of the bars' three kinds, in the order of the `apart` column.
    /// Why a bar is drawn apart, nil when it may be recommended: a broken promise, or a cap the
    /// team set (issue 44, item 2), as the run's conclusion excludes it.
    private static func apartReason(_ c: RunSummary.Configuration, _ s: RunSummary) -> String? {
        c.verdict.isOK ? RunSummary.overCap(c, options: s.options)?.flag : c.verdict.outcome
    }

    static func throughputTitles(limit: String) -> [String] {
        [
            "may be recommended", "may not: short of what the workload needs, over a cap, a bug it shows, or failed",
            "limit (\(limit), its measured median)",
        ]
    }

    /// Bars top to bottom: each workload's limit first, then its configurations in run order; and
    /// each limit's span over its workload's bars (gnuplot's y grows upwards, so the first bar
    /// gets the highest y).
    private static func orderedBars(_ s: RunSummary, _ measured: [RunSummary.Configuration], limit: String)
        -> (bars: [RunSummary.Configuration], spans: [(rate: Double, first: Int, last: Int)])
    {
        let workloads = RunSummary.groups(measured.filter { $0.strategy != limit }) {
            RunSummary.workload(of: $0, options: s.options)
        }
        var bars: [RunSummary.Configuration] = []
        var spans: [(rate: Double, first: Int, last: Int)] = []
        func drawn(_ c: RunSummary.Configuration) -> Bool { bars.contains { $0.parameters == c.parameters } }
        for (_, members) in workloads {
            let start = bars.count
            // The limit of these records: what it sets of the workload is what they have (it
            // uses no screen, no writers, no history: those are blank in its row).
            let own = measured.first { l in
                l.strategy == limit
                    && s.options.workloadColumns.allSatisfy { column in
                        l.parameters[column].isEmpty || l.parameters[column] == members[0].parameters[column]
                    }
            }
            if let own, !drawn(own) { bars.append(own) }
            for c in members where !drawn(c) { bars.append(c) }
            if let rate = own?.rate?.median, bars.count > start { spans.append((rate, start, bars.count - 1)) }
        }
        return (workloads.isEmpty ? measured : bars, spans)
    }

    /// What the script needs of a throughput chart: scale, ticks, margin, the limit's note, the
    /// settings and the caveats.
    private static func throughputVariables(
        _ s: RunSummary, bars: [RunSummary.Configuration], spans: [(rate: Double, first: Int, last: Int)],
        operation: String, limit: String, marks: [String: String], longest: Int
    ) -> [String: String] {
        let lows = bars.compactMap { $0.rate?.min }.filter { $0 > 0 }
        let highest = max(bars.compactMap { $0.rate?.max }.max() ?? 1, spans.map(\.rate).max() ?? 0)
        let logScale = highest / (lows.min() ?? 1) > 10
        // A log scale starts at the decade below the slowest bar, not at 1.
        let start = logScale ? pow(10, floor(log10(lows.min() ?? 1))) : 0
        let ticks = siTicks(upTo: highest)
        let caveats = bars.map(\.strategy).uniqued().compactMap { strategy in
            marks[strategy].map { "\(strategy): \($0)" }
        }
        .flatMap { wrapped($0, width: 110) }
        let apart = bars.filter { apartReason($0, s) != nil && $0.strategy != limit }.count
        let titles = throughputTitles(limit: limit)
        return [
            "titleok": titles[0], "titleapart": titles[1], "titlelimit": titles[2], "count": String(bars.count),
            "log": logScale ? "1" : "0", "start": n(start),
            "unit": unit(operation), "limits": String(spans.count), "apart": String(apart),
            "limitbar": bars.contains { $0.strategy == limit } ? "1" : "0",
            "margin": String(max(20, Int(Double(longest) * 0.85) + 3)),
            "step": n(ticks.step), "format": ticks.format,
            "limitnote": spans.isEmpty
                ? (operation == "import"
                    ? "no limit was measured in these runs"
                    : "operations on a filled store have no limit")
                : "black line: the limit, \(limit)'s own median on the same records",
            "settings": wrapped(settings(s, of: bars), width: 120).joined(separator: "\\n"),
            "caveats": caveats.joined(separator: "\\n"),
        ]
    }

    /// Ticks for a linear axis from 0 to `top` that read apart: a step of 1, 2 or 5 × 10ⁿ giving
    /// five to ten ticks, and SI prefixes with a decimal where a tick needs one (1.5M, not 2M
    /// twice).
    static func siTicks(upTo top: Double) -> (step: Double, format: String) {
        guard top > 0, top.isFinite else { return (1, "%.0s%c") }
        let raw = top / 6
        let decade = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * decade }.first { $0 >= raw } ?? 10 * decade
        let needsDecimal = stride(from: step, through: top + step, by: step).contains { tick in
            let exponent = floor(log10(tick) / 3) * 3
            let mantissa = tick / pow(10, exponent)
            return abs(mantissa - mantissa.rounded()) > 1e-9
        }
        // Below ten thousand a decimal prefix would print "500.0" beside "1.5k": plain numbers read better.
        if needsDecimal && top < 10_000 { return (step, "%g") }
        return (step, needsDecimal ? "%.1s%c" : "%.0s%c")
    }

    /// `text` in lines of at most `width` characters, broken at spaces.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return line.isEmpty ? lines : lines + [line]
    }
}
