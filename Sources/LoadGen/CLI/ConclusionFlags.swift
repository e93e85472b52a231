import Foundation
import Report
import Strategies

/// The options that say what a run concludes, shared by `run` and `report`: the objective, the
/// limits a recommendation must respect, and the smallest difference worth reporting.
enum ConclusionFlags {
    static let specs: [OptionSpec] = [
        .option(
            "--objective", "rate|rss|latency", "what the recommendation optimises: rows/s, peak RSS or p99 latency",
            // not a results column: an --objective value
            default: "rate"),
        .option(
            "--max-rss", "SIZE",
            "leave out of the recommendation what peaks above SIZE in bytes, by its median repetition; "
                + "K, M and G are decimal, as every size loadgen prints (90M = 90 × 10⁶ = 90,000,000 bytes, not 90 MiB)"
        ),
        .option("--max-latency", "MS", "leave out of the recommendation what has a p99 latency above MS"),
        .option(
            "--min-difference", "R", "the smallest difference a ranking reports; below it two read as equal",
            default: "0.05"),
        .option(
            "--require", "unique,links,screen,objects,current,first-wins|none",
            "what every recommended store must hold (default: what the workload needs: unique keys where keys repeat, "
                + "each key's last values where repeats change them (current), records linked to their parent, a current "
                + "screen with --view-context); objects: a read must return managed objects (a screen that edits or "
                + "follows saves); first-wins: the app keeps a key's first copy on purpose (current is not needed)"),
    ]

    /// The options `a` gives, with the strategies' advice and the workload's columns.
    static func options(_ a: Arguments) throws -> ConclusionOptions {
        var options = ConclusionOptions()
        let objective = try a.choice(
            // not a results column: an --objective value
            "--objective", ConclusionOptions.Objective.allCases.map(\.rawValue), default: "rate")
        options.objective = ConclusionOptions.Objective(rawValue: objective)!
        if let text = a.string("--max-rss") {
            guard let bytes = bytes(text) else {
                throw CommandError.usage(
                    "\(a.command): --max-rss expects a size in bytes with an optional K, M or G "
                        + "(200M, 1.5G; above 0, at most 1000000G), got '\(text)'")
            }
            options.maxRSSBytes = bytes
        }
        options.maxLatencyMilliseconds = try a.double(
            "--max-latency", in: 0.001...1e9, describe: "milliseconds above 0")
        options.minDifference = try a.double(
            "--min-difference", default: ConclusionOptions.defaultMinDifference, in: 0...1,
            describe: "a share from 0 to 1 (0.05: five percent)")!
        (options.require, options.firstWins) = try require(a)
        options.fillFromCatalogue()
        return options
    }

    /// What the strategy catalogue tells a conclusion (fixes, bugs, purposes) and the workload's
    /// columns, with no flag read: what `plot` needs to draw outcomes as `run` judges them.
    static var catalogue: ConclusionOptions {
        var options = ConclusionOptions()
        options.fillFromCatalogue()
        return options
    }

    /// The word of `--require` that says the app keeps a key's first copy on purpose.
    static let firstWins = "first-wins"

    /// `--require unique,links` or `none`: nil when not given (each workload's own needs); and
    /// whether `first-wins` was said (alone, it keeps the workload's needs but `current`).
    static func require(_ a: Arguments) throws -> (Set<Requirement>?, firstWins: Bool) {
        guard let text = a.string("--require") else { return (nil, false) }
        let accepted = "unique, links, screen, objects, current and first-wins, comma-separated, or none"
        if text == "none" { return ([], false) }
        var set: Set<Requirement> = []
        var firstWins = false
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            if word == Self.firstWins {
                firstWins = true
                continue
            }
            guard let requirement = Requirement(rawValue: String(word)) else {
                throw CommandError.usage("\(a.command): --require: '\(word)' is not accepted; expects \(accepted)")
            }
            set.insert(requirement)
        }
        if firstWins && set.contains(.current) {
            throw CommandError.usage("\(a.command): --require: current and first-wins contradict each other; give one")
        }
        return (firstWins && set.isEmpty ? nil : set, firstWins)
    }

    /// The columns that describe the records and the task, not a choice a team makes: a
    /// recommendation is made per value of them. Whether a screen watches (`view_context`), history
    /// is recorded and how many producers deliver records (`writers`) are the app's, not the
    /// import's.
    /// Derived from the parameter table (`RunParameter.describesWorkload`), plus the two columns
    /// no flag of the table sets: the distinct keys the records hold and the import file.
    static let workloadColumns: [Column] =
        RunParameter.all.filter(\.describesWorkload).flatMap(\.columns) + [.uniqueKeys, .input]

    /// "200M", "1.5G", "300000000" (decimal units, as the summaries print sizes).
    /// The largest size `--max-rss` takes (1000000G).
    static let maximumBytes = 1e15

    static func bytes(_ text: String) -> Int? {
        let units: [Character: Double] = ["K": 1e3, "M": 1e6, "G": 1e9]
        var number = text.uppercased()
        if number.hasSuffix("B") { number.removeLast() }
        var scale = 1.0
        if let unit = number.last, let factor = units[unit] {
            scale = factor
            number.removeLast()
        }
        // Up to a petabyte: a larger limit holds nothing back, and past 2⁶³ it is no Int.
        guard let value = Double(number), value.isFinite, value > 0, value * scale <= maximumBytes else { return nil }
        return Int(value * scale)
    }
}

extension ConclusionOptions {
    /// Fills what the registry and the parameter table say: per strategy its fixes, its bug and
    /// its purpose; the workload's columns and the switches.
    mutating func fillFromCatalogue() {
        for s in StrategyRegistry.all {
            var fixes: [Requirement: String] = [:]
            for requirement in Requirement.allCases { fixes[requirement] = s.fix(for: requirement) }
            self.fixes[s.name] = fixes
            if let bug = s.demonstratedBug { bugs[s.name] = (bug.bug, bug.fix) }
            if let purpose = s.purpose { purposes[s.name] = purpose }
            if !s.neverDelivers.isEmpty { neverDelivers[s.name] = s.neverDelivers }
            if s.requiresHistory { forcesHistory.insert(s.name) }
        }
        workloadColumns = ConclusionFlags.workloadColumns
        // `store` (file or memory) is set by --store, not by a parameter of the table.
        subtitleColumns = RunParameter.all.filter(\.inSubtitles).flatMap(\.columns) + [.store]
        switchColumns = Set(RunParameter.all.filter { $0.impliedValue != nil }.flatMap(\.columns))
        let unset = RunConfiguration()
        for parameter in RunParameter.all {
            for (column, cell) in zip(parameter.columns, parameter.fields(of: unset)) {
                parameterDefaults[column] = cell
            }
        }
    }
}

// MARK: - What each invocation asked (issue 44, item 1)

extension ConclusionFlags {
    /// The conclusion flags' names: what `report`, `plot` and `export` read back from a run.
    static var names: [String] { specs.map(\.name) }

    /// Whether `a` gives any conclusion flag (then it decides, for every row).
    static func given(_ a: Arguments) -> Bool { names.contains { a.has($0) } }

    /// The options a recorded `loadgen run …` command asked for: its conclusion flags parsed as
    /// `run` parsed them; nil for a command that cannot be read (a suite line, a hand-made row).
    static func recorded(_ command: String) -> ConclusionOptions? {
        guard let words = Rerun.shellWords(command), words.count >= 2, words[0] == "loadgen", words[1] == "run",
            !words.contains("--suite")
        else { return nil }
        var picked: [String] = []
        var i = 2
        while i < words.count {
            let name = String(words[i].split(separator: "=", maxSplits: 1).first ?? "")
            if names.contains(name) {
                picked.append(words[i])
                if !words[i].contains("="), i + 1 < words.count {
                    picked.append(words[i + 1])
                    i += 1
                }
            }
            i += 1
        }
        return try? options(Arguments(command: "run", arguments: picked, specs: specs))
    }

    /// What a command that reads results (`report`, `plot`, `export`) concludes with, the one rule
    /// all three follow: the conclusion flags given decide for every row; without them, what the
    /// rows' invocations asked when they agree; else the defaults, and the groups that differ
    /// (empty when the options decide for every row).
    static func reading(_ a: Arguments, rows: [ResultRow])
        throws -> (
            options: ConclusionOptions, differing: [(asked: String, options: ConclusionOptions, rows: [ResultRow])]
        )
    {
        if given(a) { return (try options(a), []) }
        let groups = byInvocation(rows)
        return groups.count == 1 ? (groups[0].options, []) : (try options(a), groups.count > 1 ? groups : [])
    }

    /// The rows grouped by what their invocations asked, in file order, each with its options
    /// and a phrase naming them ("--objective rss --max-rss 60M"): one group when every
    /// invocation asked the same (or nothing readable, which reads as the defaults).
    static func byInvocation(_ rows: [ResultRow]) -> [(asked: String, options: ConclusionOptions, rows: [ResultRow])] {
        var groups: [(asked: String, options: ConclusionOptions, rows: [ResultRow])] = []
        var cache: [String: (String, ConclusionOptions)] = [:]
        for command in rows.map(\.identity.command).uniqued() where cache[command] == nil {
            let options = recorded(command) ?? catalogue
            cache[command] = (phrase(options), options)
        }
        // One question asked (the usual case): the rows as they are, not a copy of every row.
        let asked = Set(cache.values.map(\.0))
        if asked.count == 1, let (phrase, options) = cache.values.first { return [(phrase, options, rows)] }
        for row in rows {
            guard let (asked, options) = cache[row.identity.command] else { continue }
            if let i = groups.firstIndex(where: { $0.asked == asked }) {
                groups[i].rows.append(row)
            } else {
                groups.append((asked, options, [row]))
            }
        }
        return groups
    }

    /// The flags that give `options`, the defaults left out ("" for all defaults).
    static func phrase(_ options: ConclusionOptions) -> String {
        var words: [String] = []
        if options.objective != .rate { words.append("--objective \(options.objective.rawValue)") }
        if let rss = options.maxRSSBytes { words.append("--max-rss \(rss)") }
        if let latency = options.maxLatencyMilliseconds { words.append(String(format: "--max-latency %g", latency)) }
        if options.minDifference != ConclusionOptions.defaultMinDifference {
            words.append(String(format: "--min-difference %g", options.minDifference))
        }
        if options.require != nil || options.firstWins {
            let named = (options.require ?? []).sorted().map(\.rawValue) + (options.firstWins ? [firstWins] : [])
            words.append("--require " + (named.isEmpty ? "none" : named.joined(separator: ",")))
        }
        return words.joined(separator: " ")
    }
}
