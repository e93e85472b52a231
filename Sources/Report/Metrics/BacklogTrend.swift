/// Whether a consumer of persistent history kept up with an import: its backlog (the
/// transactions waiting at each drain) stays bounded as the import grows. Judged by the trend
/// over the run, not by the last drain nor by a lag's share of the run: a consumer merging more
/// slowly than the importer commits finds more waiting at every drain (issue 54, item 8: at 15 k,
/// 60 k and 120 k rows the p99 lag went 0.30, 1.14 and 5.54 s while each size said "kept up").
package enum BacklogTrend {
    /// `waiting`: transactions fetched at each drain, in order. Kept up when the last third of the
    /// drains found on average at most twice what the first third did (or two more: a chunk
    /// committed during a drain is one waiting transaction, not growth); with fewer than three
    /// drains, when none found more than two.
    package static func keptUp(_ waiting: [Int]) -> Bool {
        guard waiting.count >= 3 else { return (waiting.max() ?? 0) <= 2 }
        let third = waiting.count / 3
        let first = mean(waiting.prefix(third))
        let last = mean(waiting.suffix(third))
        return last <= max(2 * first, first + 2)
    }

    private static func mean(_ values: ArraySlice<Int>) -> Double {
        values.isEmpty ? 0 : Double(values.reduce(0, +)) / Double(values.count)
    }
}
