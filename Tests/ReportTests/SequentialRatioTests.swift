import Foundation
import Testing

@testable import Report

/// `--repeat auto`'s stopping rule on synthetic samples (issue 56, item 1): a clear difference
/// stops at the fewest rounds, equal configurations stop as a tie or run to the budget, and
/// however often it looks, equal configurations are told apart no more often than its 5 %.
@Suite struct SequentialRatioTests {
    /// A normal draw from a seeded generator (Box-Muller): the same samples on every run.
    struct Normal {
        var random: SplitMix64
        init(seed: UInt64) { random = SplitMix64(seed: seed) }
        mutating func next() -> Double {
            let u = (Double(random.next() >> 11) + 0.5) / Double(1 << 53)
            let v = (Double(random.next() >> 11) + 0.5) / Double(1 << 53)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
    }

    @Test func studentsQuantilesMatchTheTables() {
        for (p, v, t) in [
            (0.975, 2.0, 4.302653), (0.975, 9.0, 2.262157), (0.995, 30.0, 2.749996), (0.9, 1.0, 3.077684),
        ] {
            #expect(abs(StudentT.quantile(p, degrees: v) - t) < 1e-4, "t(\(p), \(v))")
        }
    }

    /// Twice as fast with a few per cent of noise: told apart at the third round, the fewest.
    @Test func aClearDifferenceStopsAtTheFewestRounds() throws {
        let s = try #require(SequentialRatio([(100, 51), (98, 50), (103, 49)]))
        #expect(s.pairs == 3 && s.verdict(minDifference: 0.05) == .firstAhead, "\(s)")
        #expect(SequentialRatio([(100, 51), (98, 50)]) == nil, "no look before three rounds")
    }

    /// Equal within a per cent: a tie within the 5 % minimum difference at the third round.
    @Test func equalConfigurationsStopAsATie() throws {
        let s = try #require(SequentialRatio([(100, 100.4), (99.5, 99.8), (100.2, 100.1)]))
        #expect(s.verdict(minDifference: 0.05) == .tie, "\(s)")
    }

    /// Over 1,000 simulated equal pairs, each looked at after every round from the third to the
    /// thirtieth and stopped at the first verdict: the share wrongly told apart stays at or
    /// below 5 %; with 10 % noise most never settle and run to the budget.
    @Test func equalPairsAreRarelyToldApartHoweverOftenItLooks() {
        var normal = Normal(seed: 56)
        var wrong = 0
        var ties = 0
        var open = 0
        for _ in 0..<1_000 {
            var pairs: [(Double, Double)] = []
            var verdict = SequentialRatio.Verdict.open
            for _ in 1...30 {
                pairs.append((100 * exp(0.1 * normal.next()), 100 * exp(0.1 * normal.next())))
                guard let s = SequentialRatio(pairs) else { continue }
                verdict = s.verdict(minDifference: 0.05)
                if verdict != .open { break }
            }
            switch verdict {
            case .firstAhead, .secondAhead: wrong += 1
            case .tie: ties += 1
            case .open: open += 1
            }
        }
        #expect(wrong <= 50, "\(wrong) of 1,000 equal pairs told apart")
        #expect(wrong + ties + open == 1_000 && open > 500, "ties \(ties), open \(open)")
    }

    /// A 20 % difference under 10 % noise is told apart within thirty rounds (14 at the median:
    /// the price of spending the error over every look).
    @Test func aModerateDifferenceIsToldApartWithinThirtyRounds() {
        var normal = Normal(seed: 7)
        var rounds: [Int] = []
        for _ in 0..<100 {
            var pairs: [(Double, Double)] = []
            for n in 1...30 {
                pairs.append((120 * exp(0.1 * normal.next()), 100 * exp(0.1 * normal.next())))
                if let s = SequentialRatio(pairs), s.verdict(minDifference: 0.05) == .firstAhead {
                    rounds.append(n)
                    break
                }
            }
        }
        #expect(rounds.count >= 95, "\(rounds.count) of 100 told apart")
        #expect(rounds.sorted()[rounds.count / 2] <= 15, "median rounds \(rounds.sorted()[rounds.count / 2])")
    }

    /// `--dry-run`'s expected rounds come from the same rule played without noise: a 2× lead
    /// settles at the fewest rounds, a small lead takes more, the larger the spread the more,
    /// and a ratio just inside the minimum difference never settles (it runs to the budget).
    @Test func theRoundsToSettleFollowTheRule() {
        func rounds(_ ratio: Double, spread: Double = 0.05) -> Int? {
            SequentialRatio.roundsToSettle(logRatio: log(ratio), spread: spread, minDifference: 0.05, maximum: 100)
        }
        #expect(rounds(2) == 3 && rounds(0.5) == 3)
        let small = rounds(1.15)
        let smaller = rounds(1.10)
        #expect(
            small != nil && smaller != nil && small! > 3 && smaller! > small!,
            "\(String(describing: small)) \(String(describing: smaller))")
        #expect((rounds(1.15, spread: 0.1) ?? .max) > small!)
        #expect(rounds(1.04) == nil)
        // Equal configurations: a tie once the interval fits within ±5 %, late with this spread.
        #expect((rounds(1.0) ?? .max) > 10 && rounds(1.0, spread: 0.01) == 3)
    }

    /// A pair a calibration reads closer to 1 than it can tell (±20 %) settles anywhere between
    /// the reading pushed 20 % further apart and a tie; a farther pair keeps one round.
    @Test func aNearPairSettlesWithinARange() {
        func range(_ ratio: Double) -> (earliest: Int?, latest: Int?) {
            SequentialRatio.roundsToSettle(
                calibrated: log(ratio), noise: 0.2, spread: 0.05, minDifference: 0.05, maximum: 100)
        }
        func rounds(_ logRatio: Double) -> Int? {
            SequentialRatio.roundsToSettle(logRatio: logRatio, spread: 0.05, minDifference: 0.05, maximum: 100)
        }
        let near = range(1.08)
        #expect(near.earliest != nil && near.earliest == rounds(log(1.08) + 0.2), "\(near)")
        #expect(near.latest == rounds(0) && (near.latest ?? .max) > near.earliest!, "\(near)")
        // Read the other way round (the follower first), the same range.
        #expect(range(1 / 1.08).earliest == near.earliest && range(1 / 1.08).latest == near.latest)
        let far = range(1.5)
        #expect(far.earliest == rounds(log(1.5)) && far.latest == far.earliest && far.earliest == 3, "\(far)")
    }
}
