/// What happened to one figure of one configuration.
enum Outcome {
    case regression(Comparison.Finding)
    case improvement(Comparison.Finding)
    /// Within its rule; the finding is a near miss when it moved past half its threshold.
    case unchanged(Comparison.Kind, nearMiss: Comparison.Finding?)
    /// Shown, not judged (time and memory across machines).
    case reported(Comparison.Finding)
}

/// Judges every figure of one configuration by its rule: exact, near-exact with a tolerance
/// that follows the baseline's repeatability, or noisy (a threshold AND a Mann-Whitney test).
struct Judge {
    let baseline: ComparisonSide.Group
    let current: ComparisonSide.Group
    let key: [String]
    let label: String
    let options: Comparison.Options
    /// Across machines, time and memory are reported, not judged.
    let crossMachine: Bool

    /// The configuration's writers (1 when it has none).
    var writers: Int { Int(key[Comparison.writersColumn]) ?? 1 }

    /// Writers race: how the records divide between them, and who finds a key first, change
    /// from run to run, and with them the counts of saves, statements and duplicates. A history
    /// consumer (a lag is reported) races the importer the same way: how many transactions each
    /// drain finds, and so its fetches and purges, depend on when its thread wakes.
    var racing: Bool { writers > 1 || baseline.hasLag || current.hasLag }

    /// Repetitions a baseline needs before its spread says how a figure repeats.
    static let repetitionsToTrust = 3
    /// Repetitions a baseline needs before a racing count that agreed in all of them gets the
    /// tight band (two per writer, no 5 %): five agreeing repetitions (one night) say little about
    /// a race, fifteen (three nights) more.
    static let racingRepetitionsToTrust = 10

    /// Counted under callgrind: its time and memory are callgrind's (about 50 times slower, one
    /// repetition), so they are not judged at all.
    var underCallgrind: Bool { key[Comparison.counterColumn] == "callgrind" }

    /// Where writers race, the bytes allocated follow how the records split between them (how far
    /// each writer's tables grow): ±5 % from run to run at the same request count. They are
    /// judged as a noisy figure there, like memory.
    var noisyFigures: [Comparison.NoisyFigure] {
        if underCallgrind { return [] }
        return (options.workOnly ? [] : Comparison.noisyFigures)
            + (racing ? [.init(Column.allocatedBytesTotal.name, false, .memory)] : [])
    }

    func all() -> [Outcome] {
        let noisyNames = noisyFigures.map(\.figure)
        let nearExact = Comparison.nearExactFigures.filter { !noisyNames.contains($0) }
        let judged: [(String, () -> Outcome?)] =
            Comparison.exactFigures.map { f in (f, { exact(f) }) }
            + nearExact.map { f in (f, { self.nearExact(f) }) }
            + noisyFigures.map { n in (n.figure, { self.noisy(n) }) }
        // Across machines a time or memory figure may be missing (another kind of counter): it
        // is not judged there, so its absence is not either.
        let timeAndMemory = Comparison.noisyFigures.map(\.figure)
        let gone = judged.map(\.0).filter { isMissing($0) && !(crossMachine && noisyNames.contains($0)) }
            .filter { !(options.workOnly && timeAndMemory.contains($0)) }
        let outcomes = judged.filter { !gone.contains($0.0) }.compactMap { $0.1() }
        guard !gone.isEmpty else { return outcomes }
        let blanks = gone.map { f in current.cells(f).filter(\.isEmpty).count }.max() ?? 0
        return outcomes + [
            .regression(
                finding(
                    gone.joined(separator: ", "), "measured", "blank in \(blanks) of \(current.rows)",
                    "", "missing: the baseline has \(gone.count == 1 ? "it" : "them"), the new results do not"))
        ]
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

    // MARK: Exact

    /// Exact figures. Where no writers race, a count must match. Where they race (or a history
    /// consumer does), a work count is compared by a band: the current median must lie within
    /// the baseline's range widened by two per writer (a writer's last partial batch is a save of
    /// two transactions, or none) — and, unless the count repeated in every one of ten or more
    /// baseline repetitions, by the range itself and 5 % of the median too. So one-writer at four
    /// writers, whose statements repeat in all 15 repetitions of three nights, fails on an extra
    /// statement per save, while many-writers-constrained's saves (20 in 14 of 15, 21 once) and
    /// history-consumer's selects (120, then 119 in 3 of 15) move within their slack.
    /// Correctness figures are exact everywhere.
    private func exact(_ figure: String) -> Outcome? {
        let before = values(baseline, figure)
        let after = values(current, figure)
        guard !before.isEmpty, !after.isEmpty else { return nil }
        let distinct = Set(before)
        if distinct.count == 1 && (!racing || Comparison.correctnessFigures.contains(figure)) {
            let expected = before[0]
            let wrong = after.filter { $0 != expected }
            guard let first = wrong.first else { return .unchanged(.exact, nearMiss: nil) }
            return .regression(
                finding(
                    figure, Self.count(expected),
                    wrong.count == after.count
                        ? Self.count(first)
                        : "\(Self.count(first)) in \(wrong.count) of \(after.count)",
                    countChange(expected, first), "changed: an exact figure must match"))
        }
        let b = before.compactMap(Double.init)
        let a = after.compactMap(Double.init)
        guard b.count == before.count, let low = b.min(), let high = b.max(), let now = Statistics(a)?.median else {
            return .regression(
                finding(
                    figure, distinct.sorted().joined(separator: "/"), Set(after).sorted().joined(separator: "/"),
                    "", "changed"))
        }
        // Each writer may end with a partial batch or not: a save and its two transactions each.
        // A count that repeated in every one of enough repetitions gets that much slack alone: an
        // extra statement per save is then seen (one-writer at four writers passed the wide band).
        let repeated = distinct.count == 1 && before.count >= Self.racingRepetitionsToTrust
        let slack =
            repeated
            ? max(1, 2 * Double(writers))
            : max(1, 2 * Double(writers), high - low, 0.05 * (Statistics(b)?.median ?? 0))
        let text =
            repeated ? "\(Self.format(low)) (in all \(before.count))" : "\(Self.format(low))…\(Self.format(high))"
        let band =
            repeated
            ? "writers race; it repeated in every baseline repetition, so within ±\(Self.format(slack))"
            : "writers race, compared by a band"
        if now > high + slack {
            return .regression(
                finding(figure, text, Self.format(now), change(String(high), String(now)), "above the band (\(band))"))
        }
        if now < low - slack {
            return .improvement(
                finding(figure, text, Self.format(now), change(String(low), String(now)), "below the band (\(band))"))
        }
        return .unchanged(.exact, nearMiss: nil)
    }

    // MARK: Near-exact

    /// The tolerance of a near-exact figure: `nearExact` (0.5 %) or three times the baseline's
    /// own spread, whichever is wider, once the baseline has the repetitions to show its spread;
    /// with fewer, 0.5 % where one writer works (with Swift's hashing fixed the counts repeat) and
    /// 5 % where writers race.
    func tolerance(_ before: Statistics) -> Double {
        let spread = before.min > 0 ? before.max / before.min - 1 : 0
        if before.count >= Self.repetitionsToTrust { return max(options.nearExact, 3 * spread) }
        return racing ? max(Comparison.Options.racingNearExact, 3 * spread) : max(options.nearExact, 3 * spread)
    }

    private func nearExact(_ figure: String) -> Outcome? {
        let b = numbers(baseline, figure)
        let a = numbers(current, figure)
        guard let before = Statistics(b), let now = Statistics(a), before.median > 0 else { return nil }
        let threshold = tolerance(before)
        let ratio = now.median / before.median - 1
        let verdict = String(
            format: "%@ than ±%.2f %% (%d repetitions)", abs(ratio) > threshold ? "more" : "less",
            threshold * 100, before.count)
        let cells = (Self.format(before.median), Self.format(now.median), Self.percent(ratio))
        if crossMachine && Comparison.oneMachineFigures.contains(figure) {
            guard abs(ratio) > Comparison.Options.nearMissShare * options.nearExact else {
                return .unchanged(.nearExact, nearMiss: nil)
            }
            return .reported(
                finding(
                    figure, cells.0, cells.1, cells.2,
                    "across machines: not judged (another CPU or kernel "
                        + "counts other instructions and allocations for the same binary)"))
        }
        if ratio > threshold { return .regression(finding(figure, cells.0, cells.1, cells.2, "more work: " + verdict)) }
        if ratio < -threshold {
            return .improvement(finding(figure, cells.0, cells.1, cells.2, "less work: " + verdict))
        }
        let near = abs(ratio) > Comparison.Options.nearMissShare * threshold
        return .unchanged(.nearExact, nearMiss: near ? finding(figure, cells.0, cells.1, cells.2, verdict) : nil)
    }

    // MARK: Noisy

    /// Noisy figures: a regression only when the medians moved by more than the threshold in the
    /// bad direction AND the samples differ significantly (one-sided Mann-Whitney U, p < alpha).
    /// A move past half the threshold either way is a near miss, with its p. Across machines the
    /// figure is only reported.
    private func noisy(_ n: Comparison.NoisyFigure) -> Outcome? {
        let figure = n.figure
        let higherIsBetter = n.higherIsBetter
        let b = numbers(baseline, figure)
        let a = numbers(current, figure)
        guard let before = Statistics(b), let now = Statistics(a), before.median > 0 else { return nil }
        let ratio = now.median / before.median - 1
        let threshold = noisyThreshold(figure, n.threshold)
        let worse = higherIsBetter ? -ratio : ratio
        let pWorse = higherIsBetter ? MannWhitney.pGreater(b, a) : MannWhitney.pGreater(a, b)
        let pBetter = higherIsBetter ? MannWhitney.pGreater(a, b) : MannWhitney.pGreater(b, a)
        let cells = (Self.format(before.median), Self.format(now.median), Self.percent(ratio))
        let p = worse > 0 ? pWorse : pBetter
        let word = worse > 0 ? (higherIsBetter ? "slower" : "bigger") : (higherIsBetter ? "faster" : "smaller")
        let test = String(format: "Mann-Whitney p = %.3f, %d vs %d repetitions", p, b.count, a.count)
        if crossMachine {
            return .reported(
                finding(figure, cells.0, cells.1, cells.2, "\(word) (\(test)); across machines: not judged"))
        }
        if worse > threshold && pWorse < options.alpha {
            return .regression(
                finding(
                    figure, cells.0, cells.1, cells.2,
                    String(format: "%@ past ±%.1f %% (%@ < %.2f)", word, threshold * 100, test, options.alpha)))
        }
        if -worse > threshold && pBetter < options.alpha {
            return .improvement(finding(figure, cells.0, cells.1, cells.2, "\(word) (\(test))"))
        }
        guard abs(ratio) > Comparison.Options.nearMissShare * threshold else {
            return .unchanged(.noisy, nearMiss: nil)
        }
        let limit = String(format: "±%.1f %%", threshold * 100)
        let why =
            abs(ratio) > threshold ? "past the \(limit) threshold but not significant" : "within the \(limit) threshold"
        return .unchanged(.noisy, nearMiss: finding(figure, cells.0, cells.1, cells.2, "\(word), \(why) (\(test))"))
    }

    /// The threshold of a noisy figure: the option's floor or twice the baseline's night-to-night
    /// drift, whichever is wider; with a baseline of one night, the larger fixed threshold.
    func noisyThreshold(_ figure: String, _ kind: NoisyThreshold) -> Double {
        let floor = options.floors[kind] ?? kind.defaultFloor
        guard let drift = baseline.drift(figure) else { return max(floor, kind.withoutDrift) }
        return max(floor, Comparison.Options.driftFactor * drift)
    }

    /// The smallest change of each noisy figure that would have been flagged here.
    func detectable() -> [Comparison.Detectable] {
        guard !crossMachine else { return [] }
        return noisyFigures.compactMap { noisy in
            let figure = noisy.figure
            let b = numbers(baseline, figure)
            let n = numbers(current, figure).count
            guard let before = Statistics(b), before.median > 0, n > 0 else { return nil }
            let threshold = noisyThreshold(figure, noisy.threshold)
            let change = Power.smallestFlaggedChange(
                baseline: before.sorted, currentCount: n, threshold: threshold,
                alpha: options.alpha, worseIsLower: noisy.higherIsBetter)
            return Comparison.Detectable(
                configuration: label, figure: figure, change: change, baselineRepetitions: b.count,
                currentRepetitions: n, spread: (before.max - before.min) / before.median)
        }
    }

    // MARK: Findings

    private func finding(_ figure: String, _ before: String, _ now: String, _ change: String, _ verdict: String)
        -> Comparison.Finding
    {
        var f = Comparison.Finding(
            configuration: label, figure: figure, baseline: before, now: now, change: change, verdict: verdict)
        f.parameters = Dictionary(uniqueKeysWithValues: zip(Comparison.keyColumns.map(\.name), key))
        return f
    }

    /// An exact figure's change as the difference it is: "+5" (38,458 → 38,463), never
    /// "+0.0 %"; a figure that is not a number (integrity, status) has none.
    private func countChange(_ before: String, _ after: String) -> String {
        guard let b = Int(before), let a = Int(after) else { return change(before, after) }
        return (a >= b ? "+" : "") + Format.thousands(a - b)
    }

    /// A count with thousands separators; any other cell as it is.
    static func count(_ cell: String) -> String { Int(cell).map(Format.thousands) ?? cell }

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

/// What size of change the noisy rule can see.
enum Power {
    /// The smallest change (0.005 steps, up to 1) that a current sample of `currentCount`
    /// repetitions with the baseline's spread (its quantiles) would need to be flagged: past
    /// `threshold` and significant at `alpha`. Nil when none up to 100 % would be.
    static func smallestFlaggedChange(
        baseline sorted: [Double], currentCount n: Int, threshold: Double, alpha: Double,
        worseIsLower: Bool
    ) -> Double? {
        // The current sample has the baseline's distribution and range: its quantiles from the
        // least to the greatest (the median for one repetition).
        let shape = (0..<n).map { i -> Double in
            let position = (n == 1 ? 0.5 : Double(i) / Double(n - 1)) * Double(sorted.count - 1)
            let low = Int(position)
            let high = min(sorted.count - 1, low + 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
        }
        for step in 1...200 {
            let change = Double(step) * 0.005
            guard change > threshold else { continue }
            let moved = shape.map { worseIsLower ? $0 * (1 - change) : $0 * (1 + change) }
            let p = worseIsLower ? MannWhitney.pGreater(sorted, moved) : MannWhitney.pGreater(moved, sorted)
            if p < alpha { return change }
        }
        return nil
    }
}
