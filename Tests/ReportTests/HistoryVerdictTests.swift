import Testing

@testable import Report

/// The history consumer's lag is given over the repetitions (issue 44, item 7), and its verdict
/// follows the load: kept up when its backlog stays bounded as the import grows, judged by the
/// trend over the run (issue 54, item 8).
@Suite struct HistoryVerdictTests {
    static func rows(p99: [Double], fellBehind: [Bool], backlog: Int = 15_000) -> [ResultRow] {
        LikeForLikeTests.rows("history-consumer", rate: { _ in 3000 }).enumerated().map { i, row in
            var row = row
            var s = StrategyCounters()
            s.historyLagP50Milliseconds = 20
            s.historyLagP99Milliseconds = p99[i]
            s.fellBehind = fellBehind[i]
            s.peakBacklog = backlog
            row.measurement.strategy = s
            return row
        }
    }

    @Test func theLagIsTheMedianWithItsRangeAndTheVerdictOfEveryRepetition() {
        let kept = Summary.render(
            LikeForLikeTests.summary(
                Self.rows(p99: [253, 300, 484, 400, 350], fellBehind: [false, false, false, false, false])))
        #expect(
            kept.contains(
                "consumer lag p50 20.0 ms, p99 350.0 ms (medians; p99 253.0 … 484.0 ms over 5 repetitions); "
                    + "kept up in 5 of 5 repetitions (its backlog stayed bounded, backlog up to 15,000 records)"),
            "\(kept)")
        // A long lag is no verdict by itself: the backlog's trend is.
        let behind = Summary.render(
            LikeForLikeTests.summary(
                Self.rows(p99: [900, 950, 800, 990, 870], fellBehind: [true, true, false, true, true])))
        #expect(behind.contains("fell behind in 4 of 5 repetitions: its backlog grew with the import"), "\(behind)")
    }

    /// The rule on synthetic drains: transactions waiting at each.
    @Test func aBacklogThatGrowsWithTheImportIsFallingBehind() {
        #expect(BacklogTrend.keptUp([1, 1, 2, 1, 1, 1, 2, 1, 1]))
        #expect(BacklogTrend.keptUp([1, 2, 1, 3, 2, 1]), "a chunk arriving during a drain is not growth")
        #expect(!BacklogTrend.keptUp([1, 2, 3, 4, 5, 6, 7, 8, 9]))
        #expect(!BacklogTrend.keptUp([1, 1, 1, 2, 4, 8, 16, 32, 40]))
        #expect(BacklogTrend.keptUp([1, 2]) && !BacklogTrend.keptUp([12]))
        #expect(BacklogTrend.keptUp([]))
    }
}
