import Foundation

/// A nightly run compared with a baseline, configuration by configuration: exact where the work
/// is deterministic, within a small threshold where it is nearly so, and noise-aware where it is
/// noisy (a threshold AND a Mann-Whitney U test over the repetitions).
package struct Comparison: Sendable {
    /// How a figure is judged.
    package enum Kind: String, Sendable {
        /// Must match (counts of work and of correctness); any change fails.
        case exact
        /// Within `nearExact` (allocations, instructions, VM steps).
        case nearExact = "near-exact"
        /// Changed by more than a threshold AND significantly (MWU) over the repetitions.
        case noisy
    }

    package struct Options: Sendable {
        package var nearExact = 0.02
        package var speed = 0.10
        package var memory = 0.20
        /// One-sided significance level of the Mann-Whitney U test.
        package var alpha = 0.01
        package var crossMachine = false
        /// A configuration of the baseline missing from the new results is listed, not a failure.
        package var allowMissing = false
        package init() {}
    }

    /// One figure of one configuration that moved.
    package struct Finding: Sendable {
        package let configuration: String
        package let figure: String
        package let baseline: String
        package let now: String
        package let change: String
        package let verdict: String
    }

    package let regressions: [Finding]
    package let improvements: [Finding]
    /// Figures compared and found unchanged, by kind.
    package let unchanged: [Kind: Int]
    package let configurationsCompared: Int
    package let onlyInBaseline: [String]
    package let onlyInCurrent: [String]
    /// Whether a configuration of the baseline missing now is allowed (`--allow-missing`).
    package let allowsMissing: Bool
    /// What the two sides were measured on, for the report's heading.
    package let baselineMachines: [String]
    package let currentMachines: [String]
    package let crossMachine: Bool

    /// Clean when nothing regressed and every configuration of the baseline was measured again
    /// (unless `--allow-missing`): a gate that compared part of the baseline has not passed it.
    package var isClean: Bool { regressions.isEmpty && (allowsMissing || onlyInBaseline.isEmpty) }

    // MARK: Figures

    /// Correctness: must match in every configuration, racing or not.
    static let correctnessFigures = ["status", "integrity", "lost", "bad_links", "unexpected_rows", "leaked_connections"]
    /// Work counts: must match where one writer works; where writers race (more than one), within
    /// a band around the baseline's range.
    static let exactFigures = correctnessFigures + ["duplicates", "store_rows", "saves", "transactions", "sql_statements",
                                                    "sql_selects", "sql_inserts", "sql_updates", "sql_deletes"]
    static let nearExactFigures = ["allocations", "allocated_bytes_total", "instructions", "sql_vm_steps"]
    /// Noisy figures and whether higher is better.
    static let noisyFigures: [(figure: String, higherIsBetter: Bool)] = [("vs_limit", true), ("peak_rss_bytes", false)]
    /// Every column a comparison reads beyond the key, in one list (`ComparisonSide` keeps these).
    static let figureColumns = exactFigures + nearExactFigures + noisyFigures.map(\.figure)

    /// The columns that identify a configuration (the parameters), plus how instructions were
    /// counted: a callgrind row is a different measurement of the same configuration.
    static let keyColumns: [String] = ResultRow.parameterColumns + ["instructions_by"]

    // MARK: Comparing

    /// Compares the two sides. Throws when they were measured on different machines (unless
    /// `options.crossMachine`) and when they have no configuration in common: a gate that
    /// compared nothing must not pass.
    package init(baseline base: ComparisonSide, current now: ComparisonSide, options: Options = Options()) throws(CompareError) {
        baselineMachines = base.machines
        currentMachines = now.machines
        crossMachine = Set(baselineMachines) != Set(currentMachines) || baselineMachines.count > 1
        allowsMissing = options.allowMissing
        if crossMachine && !options.crossMachine {
            throw .foreignMachines("the files were measured on different machines or SQLite versions "
                + "(baseline: \(baselineMachines.joined(separator: "; ")); now: \(currentMachines.joined(separator: "; "))); "
                + "compare them anyway with --cross-machine")
        }
        let labels = Self.labels(Array(base.groups.keys) + Array(now.groups.keys))
        let common = base.groups.keys.filter { now.groups[$0] != nil }
        guard !common.isEmpty else {
            throw .nothingInCommon("no configuration of \(base.files.joined(separator: ", ")) (\(base.groups.count)) is in "
                + "\(now.files.joined(separator: ", ")) (\(now.groups.count)): nothing was compared. Were they run with the same "
                + "suite? ('loadgen run --suite bench/suites/nightly' makes the baseline's configurations)")
        }
        var regressions: [Finding] = [], improvements: [Finding] = []
        var unchanged: [Kind: Int] = [:]
        for key in common.sorted(by: { labels[$0]! < labels[$1]! }) {
            let judge = Judge(baseline: base.groups[key]!, current: now.groups[key]!, key: key, label: labels[key]!,
                              options: options)
            for outcome in judge.all() {
                switch outcome {
                case .regression(let f): regressions.append(f)
                case .improvement(let f): improvements.append(f)
                case .unchanged(let kind): unchanged[kind, default: 0] += 1
                }
            }
        }
        self.regressions = regressions
        self.improvements = improvements
        self.unchanged = unchanged
        configurationsCompared = common.count
        onlyInBaseline = base.groups.keys.filter { now.groups[$0] == nil }.map { labels[$0]! }.sorted()
        onlyInCurrent = now.groups.keys.filter { base.groups[$0] == nil }.map { labels[$0]! }.sorted()
    }

    /// "context-reset rows=100000": the strategy and the parameters that differ between its
    /// configurations (derived columns aside), and "(callgrind)" for rows counted under it.
    private static func labels(_ keys: [[String]]) -> [[String]: String] {
        let strategy = keyColumns.firstIndex(of: "strategy")!
        let counter = keyColumns.firstIndex(of: "instructions_by")!
        var labels: [[String]: String] = [:]
        for (name, mine) in Dictionary(grouping: keys, by: { $0[strategy] }) {
            let varying = keyColumns.indices.filter { i in
                i != strategy && i != counter && keyColumns[i] != "unique_keys" && Set(mine.map { $0[i] }).count > 1
            }
            for key in mine {
                let parts = varying.compactMap { i in key[i].isEmpty ? nil : "\(keyColumns[i])=\(key[i])" }
                labels[key] = ([name] + parts).joined(separator: " ") + (key[counter] == "callgrind" ? " (callgrind)" : "")
            }
        }
        return labels
    }
}

/// What happened to one figure.
enum Outcome {
    case regression(Comparison.Finding)
    case improvement(Comparison.Finding)
    case unchanged(Comparison.Kind)
}

/// Judges every figure of one configuration.
private struct Judge {
    let baseline: ComparisonSide.Group
    let current: ComparisonSide.Group
    let key: [String]
    let label: String
    let options: Comparison.Options

    /// The configuration's writers (1 when it has none).
    var writers: Int { Int(key[Comparison.keyColumns.firstIndex(of: "writers")!]) ?? 1 }

    /// Writers race: how the records divide between them, and who finds a key first, change
    /// from run to run, and with them the counts of saves, statements and duplicates. A history
    /// consumer (a lag is reported) races the importer the same way: how many transactions each
    /// drain finds, and so its fetches and purges, depend on when its thread wakes.
    var racing: Bool { writers > 1 || baseline.hasLag || current.hasLag }

    func all() -> [Outcome] {
        // Where writers race, the bytes allocated follow how the records split between them (how
        // far each writer's tables grow): ±5 % from run to run at the same request count. They
        // are judged as a noisy figure there, like memory.
        let bytes = "allocated_bytes_total"
        let nearExact = Comparison.nearExactFigures.filter { !racing || $0 != bytes }
        let noisy = Comparison.noisyFigures + (racing ? [(figure: bytes, higherIsBetter: false)] : [])
        let judged: [(String, () -> Outcome?)] = Comparison.exactFigures.map { f in (f, { exact(f) }) }
            + nearExact.map { f in (f, { self.nearExact(f) }) }
            + noisy.map { n in (n.figure, { self.noisy(n.figure, higherIsBetter: n.higherIsBetter) }) }
        let gone = judged.map(\.0).filter(isMissing)
        let outcomes = judged.filter { !gone.contains($0.0) }.compactMap { $0.1() }
        guard !gone.isEmpty else { return outcomes }
        let blanks = gone.map { f in current.cells(f).filter(\.isEmpty).count }.max() ?? 0
        return outcomes + [.regression(finding(gone.joined(separator: ", "), "measured", "blank in \(blanks) of \(current.rows)",
                                               "", "missing: the baseline has \(gone.count == 1 ? "it" : "them"), the new results do not"))]
    }

    /// A figure the baseline has that is blank now, in some repetitions or all: a regression,
    /// whatever kind it is. Skipping it would let a run that lost its verifier (or a hand-edited
    /// file) pass with fewer figures judged.
    private func isMissing(_ figure: String) -> Bool {
        baseline.cells(figure).contains { !$0.isEmpty } && current.cells(figure).contains(where: \.isEmpty)
    }

    private func values(_ group: ComparisonSide.Group, _ figure: String) -> [String] {
        group.cells(figure).filter { !$0.isEmpty }
    }

    /// The reader checked every cell of a numeric column, so each parses.
    private func numbers(_ group: ComparisonSide.Group, _ figure: String) -> [Double] {
        values(group, figure).compactMap(Double.init)
    }

    /// Exact figures. Where writers race (or the baseline's repetitions disagree among
    /// themselves), a work count is compared by a band instead: the current median must lie
    /// within the baseline's range widened by the range itself, 5 % of the median, or two per
    /// writer (a writer's last partial batch is a save of two transactions, or none), whichever
    /// is most, and the finding says so. Correctness figures are exact everywhere.
    private func exact(_ figure: String) -> Outcome? {
        let before = values(baseline, figure), after = values(current, figure)
        guard !before.isEmpty, !after.isEmpty else { return nil }
        let distinct = Set(before)
        let banded = racing && !Comparison.correctnessFigures.contains(figure)
        if distinct.count == 1 && !banded {
            let expected = before[0]
            let wrong = after.filter { $0 != expected }
            guard let first = wrong.first else { return .unchanged(.exact) }
            return .regression(finding(figure, expected, wrong.count == after.count ? first : "\(first) in \(wrong.count) of \(after.count)",
                                       change(expected, first), "changed: an exact figure must match"))
        }
        let b = before.compactMap(Double.init), a = after.compactMap(Double.init)
        guard b.count == before.count, let low = b.min(), let high = b.max(), let now = Statistics(a)?.median else {
            return .regression(finding(figure, distinct.sorted().joined(separator: "/"), Set(after).sorted().joined(separator: "/"),
                                       "", "changed"))
        }
        // Each writer may end with a partial batch or not: a save and its two transactions each.
        let slack = max(1, 2 * Double(writers), high - low, 0.05 * (Statistics(b)?.median ?? 0))
        let text = "\(Self.format(low))…\(Self.format(high))"
        if now > high + slack {
            return .regression(finding(figure, text, Self.format(now), change(String(high), String(now)),
                                       "above the band (writers race, compared by a band)"))
        }
        if now < low - slack {
            return .improvement(finding(figure, text, Self.format(now), change(String(low), String(now)),
                                        "below the band (writers race, compared by a band)"))
        }
        return .unchanged(.exact)
    }

    /// Near-exact figures: medians within `nearExact`, or within the baseline's own spread when
    /// that is wider (writers racing).
    private func nearExact(_ figure: String) -> Outcome? {
        let b = numbers(baseline, figure), a = numbers(current, figure)
        guard let before = Statistics(b), let now = Statistics(a), before.median > 0 else { return nil }
        let spread = before.min > 0 ? before.max / before.min - 1 : 0
        // Racing writers move these too: allow them twice the baseline's own spread, and 5 %.
        let threshold = racing ? max(2.5 * options.nearExact, 2 * spread) : max(options.nearExact, spread)
        let ratio = now.median / before.median - 1
        let verdict = String(format: "%@ than ±%.1f %%", abs(ratio) > threshold ? "more" : "less", threshold * 100)
        if ratio > threshold {
            return .regression(finding(figure, Self.format(before.median), Self.format(now.median), Self.percent(ratio),
                                       "more work: " + verdict))
        }
        if ratio < -threshold {
            return .improvement(finding(figure, Self.format(before.median), Self.format(now.median), Self.percent(ratio),
                                        "less work: " + verdict))
        }
        return .unchanged(.nearExact)
    }

    /// Noisy figures: a regression only when the medians moved by more than the threshold in the
    /// bad direction AND the samples differ significantly (one-sided Mann-Whitney U, p < alpha).
    private func noisy(_ figure: String, higherIsBetter: Bool) -> Outcome? {
        let b = numbers(baseline, figure), a = numbers(current, figure)
        guard let before = Statistics(b), let now = Statistics(a), before.median > 0 else { return nil }
        let ratio = now.median / before.median - 1
        let threshold = higherIsBetter ? options.speed : options.memory
        let worse = higherIsBetter ? -ratio : ratio
        let pWorse = higherIsBetter ? MannWhitney.pGreater(b, a) : MannWhitney.pGreater(a, b)
        let pBetter = higherIsBetter ? MannWhitney.pGreater(a, b) : MannWhitney.pGreater(b, a)
        let text = (Self.format(before.median), Self.format(now.median), Self.percent(ratio))
        if worse > threshold && pWorse < options.alpha {
            return .regression(finding(figure, text.0, text.1, text.2,
                                       String(format: "%@ (Mann-Whitney p = %.3f < %.2f, %d vs %d repetitions)",
                                              higherIsBetter ? "slower" : "bigger", pWorse, options.alpha, b.count, a.count)))
        }
        if -worse > threshold && pBetter < options.alpha {
            return .improvement(finding(figure, text.0, text.1, text.2,
                                        String(format: "%@ (Mann-Whitney p = %.3f)", higherIsBetter ? "faster" : "smaller", pBetter)))
        }
        return .unchanged(.noisy)
    }

    private func finding(_ figure: String, _ before: String, _ now: String, _ change: String, _ verdict: String) -> Comparison.Finding {
        Comparison.Finding(configuration: label, figure: figure, baseline: before, now: now, change: change, verdict: verdict)
    }

    private func change(_ before: String, _ after: String) -> String {
        guard let b = Double(before), let a = Double(after), b != 0 else { return "" }
        return Self.percent(a / b - 1)
    }

    static func percent(_ ratio: Double) -> String { String(format: "%+.1f %%", ratio * 100) }

    static func format(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
        return abs(v) >= 100 ? String(format: "%.0f", v) : String(format: "%.4g", v)
    }
}
