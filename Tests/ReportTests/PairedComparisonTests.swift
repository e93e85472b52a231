import Foundation
import SQLiteKit
import Testing

@testable import Report

/// Issue 32: the A/B gate's judgement in-process, on pairs built in code.
@Suite struct PairedComparisonTests {
    /// Values from SciPy's `wilcoxon(..., alternative='greater')` (exact): an independent check.
    @Test func theSignedRankTestMatchesAReferenceImplementation() {
        #expect(abs(Wilcoxon.pGreater([0.1, 0.2, -0.05, 0.3, 0.15, 0.12, -0.02, 0.08]) - 0.01953125) < 1e-12)
        #expect(abs(Wilcoxon.pGreater([1, 2, 3, 4, 5]) - 0.03125) < 1e-12)
        #expect(Wilcoxon.pGreater([]) == 1 && Wilcoxon.pGreater([0, 0]) == 1)
        // Symmetric: the other side's p of the same differences.
        #expect(abs(Wilcoxon.pGreater([-1, -2, -3, -4, -5]) - 1) < 1e-12)
    }

    /// `rounds` rounds of `strategies`, each new run `slower[strategy]` longer than its base, with
    /// noise that moves with the round (the machine) and some of its own.
    func rounds(_ strategies: [String], _ rounds: Int, slower: [String: Double], noise: Double = 0.02)
        -> (base: [[ResultRow]], new: [[ResultRow]])
    {
        var random = SplitMix64(seed: 7)
        func jitter() -> Double { 1 + noise * (Double(random.next(below: 2001)) / 1000 - 1) }
        var base: [[ResultRow]] = []
        var new: [[ResultRow]] = []
        for r in 1...rounds {
            let machine = 1 + 0.3 * sin(Double(r))   // the machine's state: shared by a pair
            var b: [ResultRow] = []
            var n: [ResultRow] = []
            for s in strategies {
                let rate = 50_000 / machine
                b += LikeForLikeTests.rows(s, 1, inv: "b\(r)", rate: { _ in rate * jitter() })
                n += LikeForLikeTests.rows(s, 1, inv: "n\(r)", rate: { _ in rate * jitter() / (1 + (slower[s] ?? 0)) })
            }
            base.append(b)
            new.append(n)
        }
        return (base, new)
    }

    @Test func aSlowdownOfOneStrategyIsFlaggedAndTheOthersAreNot() throws {
        let (base, new) = rounds(["batch", "context-reset", "prefetch"], 12, slower: ["context-reset": 0.05])
        let c = PairedComparison(base: base, new: new)
        let flagged = c.configurations.filter { $0.verdict == .slower }.map(\.strategy)
        #expect(flagged == ["context-reset"], "\(c.configurations.map { ($0.name, $0.change, $0.pSlower) })")
        let judged = try #require(c.configurations.first { $0.strategy == "context-reset" })
        #expect(abs(judged.change - 0.05) < 0.02 && judged.pairs == 12)
        // The shared machine drift (±30 % between rounds) cancels in the pairs: the others are unchanged.
        #expect(c.configurations.filter { $0.strategy != "context-reset" }.allSatisfy { abs($0.change) < 0.02 })
        let report = PairedReport.render(c, context: PairedReport.Context())
        #expect(report.hasPrefix("## loadgen ab: 1 configuration slower: context-reset (time +"), "\(report)")
        #expect(report.contains("**What it can see:**"))
    }

    /// A change under the threshold is no finding, however sure; too few pairs give no finding.
    @Test func belowTheThresholdOrWithFewPairsNothingIsFlagged() {
        let small = rounds(["batch"], 12, slower: ["batch": 0.01], noise: 0.001)
        #expect(PairedComparison(base: small.base, new: small.new).regressions.isEmpty)
        let few = rounds(["batch"], 3, slower: ["batch": 0.5])
        let c = PairedComparison(base: few.base, new: few.new)
        #expect(c.regressions.isEmpty, "3 pairs cannot reach p < 0.05 over one test: 1/8 at best")
        #expect(c.configurations[0].smallestVisible == nil)
    }

    /// Issue 55, item 18: when ab cannot judge (it exits 2), ab.md's heading says so, not "no
    /// slowdown", and a configuration is counted once, not once per measure.
    @Test func aPageThatCouldNotJudgeSaysSo() {
        let few = rounds(["batch", "prefetch"], 3, slower: [:])
        let c = PairedComparison(base: few.base, new: few.new)
        var context = PairedReport.Context()
        context.unjudged = "2 configurations could not be judged: 3 pairs cannot flag a slowdown at this level"
        let report = PairedReport.render(c, context: context)
        #expect(report.hasPrefix("## loadgen ab: not judged: 2 configurations could not be judged"), "\(report)")
        #expect(report.contains(" 2 configurations cannot be flagged at all"), "\(report)")
    }

    /// What the base measured alone, or the new alone, is said, never silently dropped; the work
    /// that changed reads as numbers.
    @Test func unpairedConfigurationsAndWorkChangesAreSaid() {
        var (base, new) = rounds(["batch", "prefetch"], 6, slower: [:])
        for r in new.indices { new[r].removeAll { $0.parameters.strategy == "prefetch" } }
        for r in base.indices {
            for i in base[r].indices {
                base[r][i].measurement.sql = StatementCounters.Snapshot(
                    select: 0, insert: 38_453, update: 0, delete: 0, transaction: 0, other: 0, commits: 2, vmSteps: 0)
            }
        }
        for r in new.indices {
            for i in new[r].indices {
                new[r][i].measurement.sql = StatementCounters.Snapshot(
                    select: 0, insert: 38_458, update: 0, delete: 0, transaction: 0, other: 0, commits: 2, vmSteps: 0)
            }
        }
        let c = PairedComparison(base: base, new: new)
        #expect(c.unpaired.map(\.why) == ["measured by the base only"], "\(c.unpaired)")
        let report = PairedReport.render(c, context: PairedReport.Context())
        #expect(report.contains("sql_statements 38,453 → 38,458 (+5)"), "\(report)")
        #expect(report.contains("**Not judged:** prefetch"), "\(report)")
    }
}

/// Issue 46: wall time and CPU time each judged; what the pairs can see stated as the change
/// they would flag 9 times in 10; a history consumer's racing counts are no work change.
@Suite struct PairedMeasuresTests {
    /// `rounds` pairs of one configuration whose wall times move ±`wallNoise` a run and CPU
    /// times ±1 %, the new side's CPU time `cpuSlower` longer.
    func pairs(_ rounds: Int, cpuSlower: Double, wallSlower: Double = 0, wallNoise: Double = 0.15)
        -> (base: [[ResultRow]], new: [[ResultRow]])
    {
        var random = SplitMix64(seed: 11)
        func jitter(_ share: Double) -> Double { 1 + share * (Double(random.next(below: 2001)) / 1000 - 1) }
        func row(_ inv: String, cpu: Double, slower: Double = 0) -> ResultRow {
            var r = LikeForLikeTests.rows(
                "context-reset", 1, inv: inv, rate: { _ in 50_000 * jitter(wallNoise) / (1 + slower) })[0]
            r.measurement.cpuUserSeconds = cpu * jitter(0.01)
            r.measurement.cpuSystemSeconds = 0.01
            return r
        }
        var base: [[ResultRow]] = []
        var new: [[ResultRow]] = []
        for r in 1...rounds {
            base.append([row("b\(r)", cpu: 0.05)])
            new.append([row("n\(r)", cpu: 0.05 * (1 + cpuSlower), slower: wallSlower)])
        }
        return (base, new)
    }

    @Test func aCPUSlowdownHiddenInWallTimeNoiseIsFlaggedOnCPUTime() throws {
        let (base, new) = pairs(30, cpuSlower: 0.06)
        let c = PairedComparison(base: base, new: new)
        let cpu = try #require(c.configurations.first { $0.measure == .cpu })
        #expect(cpu.verdict == .slower, "\(cpu)")
        #expect(c.configurations.count == 2 && c.testLevel == 0.025)
        let report = PairedReport.render(c, context: PairedReport.Context())
        #expect(report.contains("1 configuration slower: context-reset (CPU time +"), "\(report)")
        // Slower on both measures, a configuration is one slowdown said with both.
        let both = pairs(30, cpuSlower: 0.2, wallSlower: 0.2, wallNoise: 0.02)
        let twice = PairedReport.render(
            PairedComparison(base: both.base, new: both.new), context: PairedReport.Context())
        #expect(
            twice.hasPrefix("## loadgen ab: 1 configuration slower: context-reset (time +")
                && twice.contains("; CPU time +"),
            "\(twice.prefix(200))")
        let unchanged = pairs(30, cpuSlower: 0)
        #expect(PairedComparison(base: unchanged.base, new: unchanged.new).regressions.isEmpty)
    }

    /// "Smallest visible" is a change these pairs' spread would flag in at least 9 of 10 trials:
    /// checked here on 40 fresh trials drawn from the same spread, shifted by it.
    @Test func theSmallestVisibleChangeIsCaughtNineTimesInTen() throws {
        var random = SplitMix64(seed: 5)
        func noise() -> Double { 0.09 * (Double(random.next(below: 2001)) / 1000 - 1) }
        let observed = (0..<30).map { _ in noise() }
        let level = 0.05 / 10
        let visible = try #require(PairedComparison.smallestVisible(observed, level: level, threshold: 0.03))
        let caught = (0..<40).filter { _ in
            Wilcoxon.pGreater((0..<30).map { _ in noise() + log(1 + visible) }) < level
        }.count
        #expect(caught >= 34, "\(visible): caught \(caught) of 40")
        // Where the pairs themselves would just be flagged (the old figure) is a smaller change.
        let shifted = (1...200).map { Double($0) * 0.005 }.first { s in
            s >= 0.03
                && Wilcoxon.pGreater(observed.map { $0 - Statistics.median(ofSorted: observed.sorted()) + log(1 + s) })
                    < level
        }
        #expect(try #require(shifted) < visible)
    }

    @Test func aHistoryConsumersRacingCountsAreNoWorkChange() {
        var base = [LikeForLikeTests.rows("history-consumer", 1, inv: "b", rate: { _ in 40_000 })]
        var new = [LikeForLikeTests.rows("history-consumer", 1, inv: "n", rate: { _ in 40_000 })]
        for (side, statements) in [(0, 7_770), (1, 7_771)] {
            var row = side == 0 ? base[0][0] : new[0][0]
            row.measurement.sql = StatementCounters.Snapshot(
                select: 0, insert: statements, update: 0, delete: 0, transaction: 0,
                other: 0, commits: 2, vmSteps: 0)
            var counters = StrategyCounters()
            counters.historyLagP50Milliseconds = 12
            row.measurement.strategy = counters
            if side == 0 { base[0][0] = row } else { new[0][0] = row }
        }
        #expect(PairedComparison(base: base, new: new).workChanges.isEmpty)
    }
}

/// Issue 32, 4: the gate's report reads as numbers and says what it covered.
@Suite struct GateReportTests {
    @Test func anExactChangeReadsAsTheDifferenceItIs() throws {
        let base = ComparisonTests.night("a") { id, _ in ComparisonTests.row("batch", id, statements: 38_458) }
        let now = ComparisonTests.night("b") { id, _ in ComparisonTests.row("batch", id, statements: 38_463) }
        var b = ComparisonSide()
        var n = ComparisonSide()
        try b.add(base, source: "baseline")
        try n.add(now, source: "now")
        let c = try Comparison(baseline: b, current: n)
        let finding = try #require(c.regressions.first { $0.figure == "sql_statements" })
        #expect(finding.baseline == "38,458" && finding.now == "38,463" && finding.change == "+5", "\(finding)")
    }

    @Test func allowMissingSaysHowManyConfigurationsItCovered() throws {
        let base =
            ComparisonTests.night("a") { id, _ in ComparisonTests.row("batch", id) }
            + ComparisonTests.night("p") { id, _ in ComparisonTests.row("prefetch", id) }
        let now = ComparisonTests.night("b") { id, _ in ComparisonTests.row("batch", id) }
        var b = ComparisonSide()
        var n = ComparisonSide()
        try b.add(base, source: "baseline")
        try n.add(now, source: "now")
        var options = Comparison.Options()
        options.allowMissing = true
        let report = CompareReport.render(
            try Comparison(baseline: b, current: n, options: options), baseline: ["b"], current: ["n"])
        #expect(
            report.hasPrefix("## loadgen compare: no regression in 1 of 2 configurations; 1 not measured"), "\(report)")
    }
}
