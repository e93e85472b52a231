import Testing
@testable import Report

/// Issue 44, item 7: the history consumer's lag is given over the repetitions, with a verdict.
@Suite struct HistoryVerdictTests {
    static func rows(p99: [Double]) -> [ResultRow] {
        LikeForLikeTests.rows("history-consumer", rate: { _ in 3000 }).enumerated().map { i, row in
            var row = row
            var s = StrategyCounters()
            s.historyLagP50Milliseconds = 20
            s.historyLagP99Milliseconds = p99[i]
            row.measurement.strategy = s
            return row
        }
    }

    @Test func theLagIsTheMedianWithItsRangeAndAVerdict() {
        // 3,000 rows at 3,000 rows/s: a run of one second.
        let kept = Summary.render(LikeForLikeTests.summary(Self.rows(p99: [253, 300, 484, 400, 350])))
        #expect(kept.contains("consumer lag p50 20.0 ms, p99 350.0 ms (medians; p99 253.0 … 484.0 ms over 5 repetitions); "
                              + "kept up: its p99 lag is 35.0 % of the run"), "\(kept)")
        let behind = Summary.render(LikeForLikeTests.summary(Self.rows(p99: [900, 950, 800, 990, 870])))
        #expect(behind.contains("fell behind: its p99 lag is 90 % of the run, growing with it"), "\(behind)")
    }
}
