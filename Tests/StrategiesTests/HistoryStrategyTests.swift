import Foundation
import ObjectGraph
import Report
import Testing

@testable import Strategies

/// Persistent history through the strategies: every import idiom records it when asked, and
/// the history consumer keeps its screen current with it alone.
@Suite struct HistoryStrategyTests {
    static let engineImports = StrategyRegistry.all.filter { $0.operation == .import && !$0.isLimit }.map(\.name)

    @Test(arguments: engineImports)
    func everyImportRecordsHistoryWhenAsked(name: String) throws {
        let strategy = StrategyRegistry.strategy(named: name)!
        let o = try run(strategy, history: true)
        #expect(o.verification.problems(strategy.expectations).isEmpty)
        let changes = try #require(o.verification.historyChanges)
        #expect(o.sql.insert > o.verification.storeRows, "history rows are inserts too")
        // The consumer purges what it merged (its own test checks what is left).
        guard !strategy.requiresHistory else { return }
        // Every stored expense was inserted in some save or batch, and each insert is a change.
        #expect(changes >= o.verification.storeRows, "\(changes) changes for \(o.verification.storeRows) rows")
        // Where no producers race the count is deterministic: a second run records as many.
        if !strategy.usesWriters {
            #expect(try run(strategy, history: true).verification.historyChanges == changes)
        }
    }

    @Test func theConsumersScreenShowsEveryRowAndAutomaticMergesShowNone() throws {
        let o = try run(HistoryConsumerStrategy())
        let rows = o.verification.storeRows
        #expect(rows == 480 && o.verification.problems(.complete).isEmpty)
        #expect(o.counters.viewObjects == rows)
        #expect(o.counters.autoMergeMissed == rows)
        // The lag is a time: the test checks it was measured and its percentiles are in order,
        // never how long it was.
        let p50 = try #require(o.counters.historyLagP50Milliseconds)
        let p99 = try #require(o.counters.historyLagP99Milliseconds)
        #expect(p99 >= p50, "lag p50 \(p50) ms, p99 \(p99) ms")
        // Purged before the last token: only the last transaction's changes are left, at most
        // one chunk's fix-up (an update per inserted row of the chunk).
        let left = o.verification.historyChanges ?? -1
        #expect(left > 0 && left <= 100)
    }
}
