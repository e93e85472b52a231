import Foundation
import Testing

@testable import Report

/// Issue 43, item 6: each lead says how much more one managed object may cost on a device than
/// here before the order flips, from the exact object counts and the measured rates.
@Suite struct BreakEvenTests {
    /// `LikeForLikeTests.rows` with every repetition handling `objects` managed objects per record.
    static func rows(_ strategy: String, objects: Double, rate: Double) -> [ResultRow] {
        LikeForLikeTests.rows(strategy, rate: LikeForLikeTests.steady(rate)).map { row in
            var row = row
            var counts = ObjectCounts()
            counts.inserted = Int(objects * Double(row.measurement.rowsDone!))
            row.measurement.objects = counts
            return row
        }
    }

    @Test func aLeadThatHandlesMoreObjectsHoldsUpToTheCostThatClosesTheGap() throws {
        // 50,000 rows/s against 20,000: 20 µs against 50 µs per record. The first handles 3
        // objects per record, the other 1: the other catches up at 30 µs / 2 = 15 µs per object.
        let s = LikeForLikeTests.summary(
            Self.rows("context-reset", objects: 3, rate: 50_000)
                + Self.rows("batch", objects: 1, rate: 20_000))
        let r = try #require(s.recommendations.first)
        let even = try #require(r.breakEvens.first)
        #expect(even.other.strategy == "batch")
        #expect(abs(try #require(even.breakEven.microseconds) - 15) < 0.3, "\(even.breakEven)")
        let text = Summary.recommendations(s)
        #expect(
            text.contains(
                "per managed object, context-reset over batch: holds unless a managed object costs at least 15 µs "
                    + "more on a device than here: 3.00 against 1.00 objects per record"), "\(text)")
        #expect(text.contains(BreakEven.guide))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
            .standardizedFileURL
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(BreakEven.guide).path))
        // JSON carries the figure and each configuration's objects per record.
        let ranked = JSONExport.recommendation(r)["ranked"] as! [[String: Any]]
        #expect(ranked[0]["objects_per_row"] as? Double == 3)
        #expect(abs((ranked[1]["break_even_us_per_object"] as? Double ?? 0) - 15) < 0.3)
    }

    @Test func aLeadThatHandlesFewerObjectsHoldsWhateverAnObjectCosts() throws {
        let s = LikeForLikeTests.summary(
            Self.rows("batch", objects: 0.5, rate: 50_000)
                + Self.rows("context-reset", objects: 2, rate: 20_000))
        let even = try #require(s.recommendations.first?.breakEvens.first)
        #expect(even.breakEven.seconds == nil)
        #expect(
            Summary.recommendations(s).contains(
                "batch over context-reset: holds whatever a managed object costs: "
                    + "0.50 against 2.00 objects per record"))
    }

    /// Counts a hundredth of an object apart are the same work: no figure from their tiny difference.
    @Test func nearlyEqualCountsHoldWhateverAnObjectCosts() throws {
        let s = LikeForLikeTests.summary(
            Self.rows("find-or-create-cached", objects: 1.011, rate: 50_000)
                + Self.rows("context-noreset", objects: 1.010, rate: 20_000))
        #expect(try #require(s.recommendations.first?.breakEvens.first).breakEven.seconds == nil)
    }

    @Test func noFigureWithoutObjectCountsOrALeadToldApart() throws {
        // Rows from before the count: nothing said.
        let old = LikeForLikeTests.summary(
            LikeForLikeTests.rows("context-reset", rate: LikeForLikeTests.steady(50_000))
                + LikeForLikeTests.rows("batch", rate: LikeForLikeTests.steady(20_000)))
        #expect(old.recommendations.first?.breakEvens.isEmpty == true)
        #expect(!Summary.recommendations(old).contains("per managed object"))
        // Two not told apart: no lead to hold.
        let tied = LikeForLikeTests.summary(
            Self.rows("context-reset", objects: 3, rate: 20_100)
                + Self.rows("batch", objects: 1, rate: 20_000))
        #expect(tied.recommendations.first?.breakEvens.isEmpty == true)
    }
}
