import Foundation

extension ChartData {
    /// 8. Reads against rows, in read words: the peak heap per row each read holds (left: what a
    /// list of that size costs in memory) and the rows it reads per second (right), one line per
    /// read strategy, from a `--rows` sweep of `--operation read`.
    static func reads(_ s: RunSummary) -> Chart {
        let reads = s.configurations.filter { operation(of: $0) == "read" && !$0.underCallgrind }
        let summary = RunSummary(charting: reads, unranked: s.unranked, options: s.options)
        var chart = series(summary, .named("reads"), need: "sweep of --rows with --operation read")
        guard chart.data != nil else { return chart }
        // The headline from the data: heap per row of each line (a strategy, and what else tells
        // its lines apart) at the largest size swept.
        let largest = reads.map(\.parameters.rows).max() ?? 0
        let parts = lines(summary, axis: .rows, minimumPoints: 1) { heapPerRow($0) != nil }
            .compactMap { line in
                line.configurations.first { $0.parameters.rows == largest }.flatMap(heapPerRow).map { (line.title, $0) }
            }
            .sorted { $0.1 < $1.1 }
            .map { "\($0.0) \(Format.bytes(Int($0.1.rounded())))" }
        // The rate axis's ticks read apart (1.2M, not 1M twice).
        let ticks = siTicks(upTo: reads.compactMap { $0.rate?.median }.max() ?? 1)
        chart.variables["step"] = n(ticks.step)
        chart.variables["format"] = ticks.format
        chart.variables["headline"] = wrapped(
            "peak heap per row at \(Format.thousands(largest)) rows: " + parts.joined(separator: ", "),
            width: 120
        ).joined(separator: "\\n")
        return chart
    }

    /// The peak heap per row of a configuration (the chart's first column), nil without it.
    static func heapPerRow(_ c: RunSummary.Configuration) -> Double? {
        ChartDeclaration.named("reads").columns[0].value(of: c)
    }
}
