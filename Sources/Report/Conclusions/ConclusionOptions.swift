/// What a run's conclusion is asked for, and what the strategy catalogue tells it.
///
/// Report knows no strategy: what an idiom is for, which bug it demonstrates and how a team
/// closes a gap in its store come from the caller (filled from the strategy registry).
package struct ConclusionOptions: Sendable {
    /// What "best" means.
    package enum Objective: String, Sendable, CaseIterable {
        /// Most rows per second (or the highest `vs_limit` across invocations).
        case rate
        /// Least peak RSS.
        case rss
        /// Least p99 latency: open-loop latency to commit with `--rate`, else p99 save time.
        case latency

        package var phrase: String {
            switch self {
            case .rate: return "most rows per second"
            case .rss: return "least peak RSS"
            case .latency: return "least p99 latency"
            }
        }

        package var higherIsBetter: Bool { self == .rate }
    }

    package var objective = Objective.rate
    /// Configurations above these are excluded from the recommendation.
    package var maxRSSBytes: Int?
    package var maxLatencyMilliseconds: Double?
    /// The smallest difference worth reporting: a lead below it reads as equal.
    package var minDifference = 0.05
    /// What every configuration must deliver (`--require`); nil: what each workload needs
    /// (`Requirement.needs(of:)`).
    package var require: Set<Requirement>?
    /// `--require first-wins`: the app keeps a key's first copy on purpose, so a store holding an
    /// older copy's values is what it wants (`current` is never needed).
    package var firstWins = false
    /// Per strategy and need, what Core Data offers to close the gap when its store falls short
    /// ("a uniqueness constraint with a merge policy, or batch-upsert").
    package var fixes: [String: [Requirement: String]] = [:]
    /// What a strategy cannot deliver by what it is, whatever its store holds (a read that returns
    /// dictionaries gives no managed objects): short of it wherever it is needed.
    package var neverDelivers: [String: Set<Requirement>] = [:]
    /// Strategies that demonstrate a bug, with the bug and its fix: measured, never recommended.
    package var bugs: [String: (bug: String, fix: String)] = [:]
    /// Strategies whose result is another thing than the records (a count): compared only with
    /// strategies of the same purpose.
    package var purposes: [String: String] = [:]
    /// Strategies that record persistent history whatever was asked (they consume it): a workload
    /// of only these, beside the run's others, exists because they forced it, and no one asked
    /// for its recommendation (issue 44, item 10).
    package var forcesHistory: Set<String> = []
    /// The parameter columns that describe the workload (the records), not a choice: a
    /// recommendation is made per workload, never across them (10 k rows against 100 k rows is
    /// not a choice a team makes).
    package var workloadColumns: [Column] = []
    /// The columns a chart's subtitle says when every drawn configuration shares a value (the
    /// caller's declarations: `RunParameter.shownInSubtitles`), after the records and their rows.
    package var subtitleColumns: [Column] = []
    /// On/off columns, written "yes" or blank: there a blank is "off", a value of its own, not a
    /// parameter the strategy ignores.
    package var switchColumns: Set<Column> = []
    /// Each parameter column's cell when its flag is not given (the caller's table): a dashboard
    /// names a configuration by the parameters that differ from these, so that a parameter added
    /// later, at its default, renames nothing.
    package var parameterDefaults: [Column: String] = [:]

    package init() {}

    /// The default of `--min-difference`.
    package static let defaultMinDifference = 0.05

    /// What configuration `c` must deliver. A strategy whose result is another thing than the
    /// records (a count) returns no objects to need: `objects` is not asked of it.
    func needs(of c: RunSummary.Configuration) -> Set<Requirement> {
        var needs = require ?? Requirement.needs(of: c.parameters)
        if firstWins { needs.remove(.current) }
        return purposes[c.strategy] == nil ? needs : needs.subtracting([.objects])
    }

    /// The value of column `column` as a ranking or a heading reads it: a switch's blank is "off".
    func value(_ column: Column, of parameters: ParameterValues) -> String {
        let value = parameters[column]
        guard switchColumns.contains(column) else { return value }
        return value.isEmpty ? "off" : value == "yes" ? "on" : value
    }
}
