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
        -> (base: [[ResultRow]], new: [[ResultRow]]) {
        var random = SplitMix64(seed: 7)
        func jitter() -> Double { 1 + noise * (Double(random.next(below: 2001)) / 1000 - 1) }
        var base: [[ResultRow]] = [], new: [[ResultRow]] = []
        for r in 1...rounds {
            let machine = 1 + 0.3 * sin(Double(r))   // the machine's state: shared by a pair
            var b: [ResultRow] = [], n: [ResultRow] = []
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
        #expect(report.hasPrefix("## loadgen ab: 1 slowdown: context-reset +"), "\(report)")
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

    /// What the base measured alone, or the new alone, is said, never silently dropped; the work
    /// that changed reads as numbers.
    @Test func unpairedConfigurationsAndWorkChangesAreSaid() {
        var (base, new) = rounds(["batch", "prefetch"], 6, slower: [:])
        for r in new.indices { new[r].removeAll { $0.parameters.strategy == "prefetch" } }
        for r in base.indices { for i in base[r].indices { base[r][i].measurement.sql = StatementCounters.Snapshot(select: 0, insert: 38_453, update: 0, delete: 0, transaction: 0, other: 0, commits: 2, vmSteps: 0) } }
        for r in new.indices { for i in new[r].indices { new[r][i].measurement.sql = StatementCounters.Snapshot(select: 0, insert: 38_458, update: 0, delete: 0, transaction: 0, other: 0, commits: 2, vmSteps: 0) } }
        let c = PairedComparison(base: base, new: new)
        #expect(c.unpaired.map(\.why) == ["measured by the base only"], "\(c.unpaired)")
        let report = PairedReport.render(c, context: PairedReport.Context())
        #expect(report.contains("sql_statements 38,453 → 38,458 (+5)"), "\(report)")
        #expect(report.contains("**Not judged:** prefetch"), "\(report)")
    }
}

/// Issue 32, 4: the gate's report reads as numbers and says what it covered.
@Suite struct GateReportTests {
    @Test func anExactChangeReadsAsTheDifferenceItIs() throws {
        let base = ComparisonTests.night("a") { id, _ in ComparisonTests.row("batch", id, statements: 38_458) }
        let now = ComparisonTests.night("b") { id, _ in ComparisonTests.row("batch", id, statements: 38_463) }
        var b = ComparisonSide(), n = ComparisonSide()
        try b.add(base, source: "baseline")
        try n.add(now, source: "now")
        let c = try Comparison(baseline: b, current: n)
        let finding = try #require(c.regressions.first { $0.figure == "sql_statements" })
        #expect(finding.baseline == "38,458" && finding.now == "38,463" && finding.change == "+5", "\(finding)")
    }

    @Test func allowMissingSaysHowManyConfigurationsItCovered() throws {
        let base = ComparisonTests.night("a") { id, _ in ComparisonTests.row("batch", id) }
            + ComparisonTests.night("p") { id, _ in ComparisonTests.row("prefetch", id) }
        let now = ComparisonTests.night("b") { id, _ in ComparisonTests.row("batch", id) }
        var b = ComparisonSide(), n = ComparisonSide()
        try b.add(base, source: "baseline")
        try n.add(now, source: "now")
        var options = Comparison.Options()
        options.allowMissing = true
        let report = CompareReport.render(try Comparison(baseline: b, current: n, options: options), baseline: ["b"], current: ["n"])
        #expect(report.hasPrefix("## loadgen compare: no regression in 1 of 2 configurations; 1 not measured"), "\(report)")
    }
}
