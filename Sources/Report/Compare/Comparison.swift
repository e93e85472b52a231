import Foundation

/// A nightly run compared with a baseline, configuration by configuration: exact where the work
/// is deterministic, within a small threshold where it is nearly so, and noise-aware where it is
/// noisy (a threshold AND a Mann-Whitney U test over the repetitions).
package struct Comparison: Sendable {
    /// How a figure is judged.
    package enum Kind: String, Sendable {
        /// Must match (counts of work and of correctness); any change fails.
        case exact
        /// Within a tolerance that follows the baseline's own repeatability (allocations,
        /// instructions, VM steps).
        case nearExact = "near-exact"
        /// Changed by more than a threshold AND significantly (MWU) over the repetitions.
        case noisy
    }

    /// The smallest change of a noisy figure this comparison could have flagged: a current
    /// sample with the baseline's spread and the current count of repetitions, moved by
    /// `change`, would pass both the threshold and the Mann-Whitney test. Nil when no change
    /// up to 100 % would (too few repetitions, too much spread).
    package struct Detectable: Sendable {
        package let configuration: String
        package let figure: String
        package let change: Double?
        package let baselineRepetitions: Int
        package let currentRepetitions: Int
        /// The baseline's spread: (max − min) / median.
        package let spread: Double
    }

    package struct Options: Sendable {
        /// The tolerance of a near-exact figure whose baseline repeats (to which its own spread,
        /// tripled, is added when wider). Exactly repeating counts get exactly this.
        package var nearExact = 0.005
        /// The tolerance where writers race and the baseline has too few repetitions to measure
        /// their spread: racing writers move allocations and VM steps by a few percent.
        package static let racingNearExact = 0.05
        /// The least move of `vs_limit` (down) and of peak RSS and racing allocated bytes (up) that
        /// counts, where the baseline shows its night-to-night drift (two runs or more): then the
        /// threshold is this or twice that drift, whichever is wider.
        /// 7.5 %: four nightlies of unchanged code moved a median `vs_limit` by up to 5.5 %
        /// against a baseline of three runs (−4.5 % with p = 0.004), so 5 % would flag untouched
        /// code; a slowdown that costs CPU shows first in the instructions anyway.
        /// Each noisy threshold's floor (`NoisyThreshold.defaultFloor` unless an option says).
        package var floors: [NoisyThreshold: Double] = Dictionary(
            uniqueKeysWithValues: NoisyThreshold.allCases.map { ($0, $0.defaultFloor) })
        package var speed: Double { floors[.speed]! }
        /// The speed threshold where the baseline is one night: its drift is unknown.
        package static let speedWithoutDrift = NoisyThreshold.speed.withoutDrift
        /// Night-to-night drift counts twice: three nights show a few percent of it, not its worst.
        package static let driftFactor = 2.0
        /// One-sided significance level of the Mann-Whitney U test.
        package var alpha = 0.01
        package var crossMachine = false
        /// Judge work only (exact and near-exact figures): time and memory are judged elsewhere
        /// (the A/B gate's pairs), so they are neither judged, shown, nor missed here, and rows of
        /// another machine are compared as with `crossMachine`.
        package var workOnly = false
        /// A configuration of the baseline missing from the new results is listed, not a failure.
        package var allowMissing = false
        /// The share of a threshold past which an unflagged move is listed as a near miss.
        package static let nearMissShare = 0.5
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
        /// The configuration's parameters, column by column: what reproduces it (a bisect).
        package var parameters: [String: String] = [:]
    }

    package let regressions: [Finding]
    package let improvements: [Finding]
    /// Figures that moved past half their threshold without being flagged: what to watch.
    package let nearMisses: [Finding]
    /// Time and memory across machines (`--cross-machine`): shown, never judged.
    package let reported: [Finding]
    /// The smallest change of each noisy figure the gate could flag, per configuration.
    package let detectable: [Detectable]
    /// Figures compared and found unchanged, by kind.
    package let unchanged: [Kind: Int]
    package let configurationsCompared: Int
    package let onlyInBaseline: [String]
    package let onlyInCurrent: [String]
    /// Whether a configuration of the baseline missing now is allowed (`--allow-missing`).
    package let allowsMissing: Bool
    /// Figures a file of the baseline lacks (an older version wrote it): not judged, said once.
    package let unjudgedFigures: [String]
    /// What the two sides were measured on, for the report's heading.
    package let baselineMachines: [String]
    package let currentMachines: [String]
    package let crossMachine: Bool
    /// The two sides ran on one machine with different Swift versions (`--work-only`): judged,
    /// the toolchain being part of what changed.
    package let toolchainChanged: Bool
    /// Work only: time and memory were left to the A/B pairs.
    package let workOnly: Bool

    /// Clean when nothing regressed and every configuration of the baseline was measured again
    /// (unless `--allow-missing`): a gate that compared part of the baseline has not passed it.
    package var isClean: Bool { regressions.isEmpty && (allowsMissing || onlyInBaseline.isEmpty) }

    // MARK: Figures

    /// Correctness: must match in every configuration, racing or not.
    /// Each list derives from the rules the results table declares with its columns
    /// (`ResultRow.columns`, `.judged(…)`), in file order.
    static let correctnessFigures = ResultRow.columns.filter { $0.rule == .correctness }.map(\.name)
    /// Work counts: must match where they repeat; where writers race, within a band around the
    /// baseline's range.
    static let exactFigures = correctnessFigures + ResultRow.columns.filter { $0.rule == .exact }.map(\.name)
    /// The exact figures' names, for a caller that picks what to bisect on.
    package static var exactFigureNames: [String] { exactFigures }
    static let nearExactFigures = ResultRow.columns.filter {
        $0.rule == .nearExact || $0.rule == .nearExactOnOneMachine
    }.map(\.name)
    /// The near-exact figures another machine counts differently: shown across machines, not judged.
    static let oneMachineFigures = ResultRow.columns.filter { $0.rule == .nearExactOnOneMachine }.map(\.name)
    /// Noisy figures, whether higher is better, and the threshold that judges each.
    static let noisyFigures: [NoisyFigure] = ResultRow.columns.compactMap { column in
        if case .noisy(let higherIsBetter, let threshold) = column.rule {
            return NoisyFigure(column.name, higherIsBetter, threshold)
        }
        return nil
    }

    /// A figure judged as noisy, as the results table declares it.
    struct NoisyFigure {
        let figure: String
        let higherIsBetter: Bool
        let threshold: NoisyThreshold
        init(_ figure: String, _ higherIsBetter: Bool, _ threshold: NoisyThreshold) {
            self.figure = figure
            self.higherIsBetter = higherIsBetter
            self.threshold = threshold
        }
    }
    /// Every column a comparison reads beyond the key, in one list (`ComparisonSide` keeps these).
    static let figureColumns: [Column] = (exactFigures + nearExactFigures + noisyFigures.map(\.figure))
        .compactMap(Column.init(header:))

    /// The columns that identify a configuration (the parameters), plus how instructions were
    /// counted: a callgrind row is a different measurement of the same configuration.
    static let keyColumns: [Column] = ResultRow.parameterColumns + [.instructionsBy]
    /// Where a key holds the writers and how instructions were counted (found once).
    static let writersColumn = keyColumns.firstIndex(of: .writers)!
    static let counterColumn = keyColumns.firstIndex(of: .instructionsBy)!

    // MARK: Comparing

    /// Compares the two sides. Throws when they were measured on different machines or Swift
    /// versions (unless `options.crossMachine`: then time and memory are only reported) and when
    /// they have no configuration in common: a gate that compared nothing must not pass.
    package init(baseline base: ComparisonSide, current now: ComparisonSide, options: Options = Options())
        throws(CompareError)
    {
        baselineMachines = base.machines
        currentMachines = now.machines
        unjudgedFigures = base.missingFigures
        (crossMachine, toolchainChanged) = try Self.machines(base, now, options: options)
        allowsMissing = options.allowMissing
        workOnly = options.workOnly
        let labels = Self.labels(Array(base.groups.keys) + Array(now.groups.keys))
        let common = base.groups.keys.filter { now.groups[$0] != nil }
        guard !common.isEmpty else { throw Self.nothingInCommon(base, now) }
        var regressions: [Finding] = []
        var improvements: [Finding] = []
        var nearMisses: [Finding] = []
        var reported: [Finding] = []
        var unchanged: [Kind: Int] = [:]
        var detectable: [Detectable] = []
        for key in common.sorted(by: { labels[$0]! < labels[$1]! }) {
            let judge = Judge(
                baseline: base.groups[key]!, current: now.groups[key]!, key: key, label: labels[key]!,
                options: options, crossMachine: crossMachine)
            for outcome in judge.all() {
                switch outcome {
                case .regression(let f): regressions.append(f)
                case .improvement(let f): improvements.append(f)
                case .unchanged(let kind, let nearMiss):
                    unchanged[kind, default: 0] += 1
                    if let nearMiss { nearMisses.append(nearMiss) }
                case .reported(let f): reported.append(f)
                }
            }
            detectable += judge.detectable()
        }
        self.regressions = regressions
        self.improvements = improvements
        self.nearMisses = nearMisses
        self.reported = reported
        self.detectable = detectable
        self.unchanged = unchanged
        configurationsCompared = common.count
        onlyInBaseline = base.groups.keys.filter { now.groups[$0] == nil }.map { labels[$0]! }.sorted()
        onlyInCurrent = now.groups.keys.filter { base.groups[$0] == nil }.map { labels[$0]! }.sorted()
    }

    /// Whether the sides ran on different machines (time and memory then only reported), and
    /// whether only the Swift version differs on one machine under `--work-only`.
    ///
    /// The gate's work part counts instructions exactly, which only one machine repeats: other
    /// hardware or SQLite cannot be judged, and saying "compared exactly, no regression" of
    /// figures it did not judge was the issue-58 probe's finding. Another Swift on one machine is
    /// part of the change (a pull request that moves the toolchain): judged.
    private static func machines(
        _ base: ComparisonSide, _ now: ComparisonSide,
        options: Options
    ) throws(CompareError) -> (cross: Bool, toolchain: Bool) {
        let differ = Set(base.machines) != Set(now.machines) || base.machines.count > 1
        let oneMachine = Set(base.hardware) == Set(now.hardware) && base.hardware.count == 1
        if options.workOnly && differ && !oneMachine {
            throw .foreignMachines(
                "the two sides ran on different machines or SQLite versions (baseline: "
                    + "\(base.hardware.joined(separator: "; ")); now: \(now.hardware.joined(separator: "; "))): instructions and "
                    + "allocations repeat exactly only on one machine; run both binaries on one machine, as the gate does"
            )
        }
        let toolchain = options.workOnly && differ && oneMachine
        let cross = differ && !toolchain
        if cross && !options.crossMachine && !options.workOnly {
            throw .foreignMachines(
                "the files were measured on different machines, SQLite or Swift versions "
                    + "(baseline: \(base.machines.joined(separator: "; ")); now: \(now.machines.joined(separator: "; "))); "
                    + "compare them anyway with --cross-machine")
        }
        return (cross, toolchain)
    }

    /// Why two sides share no configuration: columns that tell configurations apart missing from
    /// an older file, or suites that differ.
    private static func nothingInCommon(_ base: ComparisonSide, _ now: ComparisonSide) -> CompareError {
        let missing = base.missingKeyColumns + now.missingKeyColumns
        if !missing.isEmpty {
            return .nothingInCommon(
                "nothing was compared: the column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) "
                    + "that tell\(missing.count == 1 ? "s" : "") configurations apart \(missing.count == 1 ? "is" : "are") missing "
                    + "(an older loadgen wrote that file): make that file again with this loadgen")
        }
        return .nothingInCommon(
            "no configuration of \(base.files.joined(separator: ", ")) (\(base.groups.count)) is in "
                + "\(now.files.joined(separator: ", ")) (\(now.groups.count)): nothing was compared. Were they run with the same "
                + "suite? ('loadgen run --suite bench/suites/nightly' makes the baseline's configurations)")
    }

    /// "context-reset rows=100000": the strategy and the parameters that differ between its
    /// configurations (derived columns aside), and "(callgrind)" for rows counted under it.
    static func labels(_ keys: [[String]]) -> [[String]: String] {
        let strategy = keyColumns.firstIndex(of: .strategy)!
        let counter = counterColumn
        var labels: [[String]: String] = [:]
        for (name, mine) in Dictionary(grouping: keys, by: { $0[strategy] }) {
            let varying = keyColumns.indices.filter { i in
                i != counter && keyColumns[i].isFreeParameter && Set(mine.map { $0[i] }).count > 1
            }
            for key in mine {
                let parts = varying.compactMap { i in key[i].isEmpty ? nil : "\(keyColumns[i])=\(key[i])" }
                labels[key] =
                    ([name] + parts).joined(separator: " ") + (key[counter] == "callgrind" ? " (callgrind)" : "")
            }
        }
        return labels
    }
}
