import Report
import Strategies

/// The summary of rows read back from results files, as `report` and `export` show it: the
/// limits unranked, the strategies' caveats as marks, the swept columns found in the rows.
enum ResultsSummary {
    static func make(_ rows: [ResultRow], options: ConclusionOptions) -> RunSummary {
        let limits = Set(StrategyRegistry.all.filter(\.isLimit).map(\.name))
        var marks: [String: String] = [:]
        for s in StrategyRegistry.all
        where !s.caveat.isEmpty && rows.contains(where: { $0.parameters.strategy == s.name }) {
            marks[s.name] = s.caveat
        }
        let swept = RunSummary.sweptColumns(rows.map(\.parameters), options: options)
        return RunSummary(rows: rows, sweptColumns: swept, marks: marks, unranked: limits, options: options)
    }
}
