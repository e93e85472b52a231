import Foundation
import Testing

@testable import Report

@Suite struct StatisticsTests {
    /// Values computed by hand (and, for the bootstrap, by an independent Python port of the
    /// same SplitMix64 resampling): the statistics are the textbook ones.
    @Test func centreSpreadAndOutliersAsComputedByHand() {
        let s = Statistics([10, 12, 11, 13, 100])!
        #expect(s.median == 12 && s.min == 10 && s.max == 100 && s.count == 5)
        #expect(s.mean == 29.2)
        #expect(abs(s.standardDeviation - 39.594191493197584) < 1e-9)
        #expect(s.mad == 1)   // |x − 12| = 2, 0, 1, 1, 88
        #expect(s.outliers == [4])   // 0.6745 × 88 / 1 = 59.4 > 3.5
        #expect(s.modifiedZScore(10) == -1.349)
        #expect(s.medianInterval == 10...100)   // five values: the resampled medians span them
        #expect(Statistics([3, 1, 2, 10])!.median == 2.5)
        #expect(Statistics([3, 1, 2, 10])!.medianInterval == nil)   // fewer than five repetitions
        #expect(Statistics([]) == nil)
    }

    @Test func theBootstrapIsSeededAndMatchesAReferenceImplementation() {
        let values: [Double] = [100, 102, 98, 101, 99, 103, 97, 100]
        let s = Statistics(values)!
        #expect(s.median == 100 && s.medianInterval == 98...102)
        #expect(Statistics(values.reversed())!.medianInterval == s.medianInterval)   // order does not matter
        #expect(s.outliers.isEmpty)
        let pairs: [(Double, Double)] = [(200, 100), (210, 101), (190, 99), (205, 100), (199, 98), (202, 102)]
        let ratio = Bootstrap.ratioInterval(pairs)!
        #expect(
            abs(ratio.lowerBound - 1.9646464646464648) < 1e-12 && abs(ratio.upperBound - 2.0646766169154227) < 1e-12)
        #expect(Statistics([5, 5, 5, 5, 5])!.medianInterval == 5...5 && Statistics([5, 5, 5, 5, 5])!.outliers.isEmpty)
    }

    /// The resamples' medians are read from counts of the ranks drawn, not by sorting each
    /// resample: the intervals must be the sorting definition's exactly, odd and even sizes, ties
    /// included, for the three intervals.
    @Test(arguments: [5, 6, 7, 40, 301])
    func theCountedResamplesGiveTheSortedDefinitionsIntervals(_ n: Int) throws {
        var random = SplitMix64(seed: UInt64(n))
        let a = (0..<n).map { _ in Double(random.next(below: 50)) + 100 }   // ties on purpose
        let b = (0..<n).map { _ in Double(random.next(below: 1000)) / 10 + 1 }
        func median(_ v: [Double]) -> Double { Statistics.median(ofSorted: v.sorted()) }
        func percentiles(_ v: [Double]) -> ClosedRange<Double> {
            let s = v.sorted()
            let c = s.count
            return s[
                max(0, Int((0.025 * Double(c)).rounded(.up)) - 1)]...s[
                    min(c - 1, Int((0.975 * Double(c)).rounded(.up)) - 1)]
        }
        // The definitions, resampling and sorting as the bootstrap was first written.
        var r = SplitMix64(seed: Bootstrap.seed)
        let sorted = a.sorted()
        let medians = (0..<Bootstrap.resamples).map { _ in median(sorted.indices.map { _ in sorted[r.next(below: n)] })
        }
        #expect(Bootstrap.resampledMedianInterval(sorted) == percentiles(medians))
        if n < Bootstrap.exactFrom { #expect(Bootstrap.medianInterval(sorted) == percentiles(medians)) }
        r = SplitMix64(seed: Bootstrap.seed)
        let pairs = Array(zip(a, b))
        let paired = (0..<Bootstrap.resamples).map { _ -> Double in
            let picks = pairs.indices.map { _ in pairs[r.next(below: n)] }
            return median(picks.map(\.0)) / median(picks.map(\.1))
        }
        #expect(Bootstrap.ratioInterval(pairs) == percentiles(paired))
        r = SplitMix64(seed: Bootstrap.seed)
        let unpaired = (0..<Bootstrap.resamples).map { _ -> Double in
            let x = a.indices.map { _ in a[r.next(below: n)] }
            let y = b.indices.map { _ in b[r.next(below: n)] }
            return median(x) / median(y)
        }
        #expect(Bootstrap.unpairedRatioInterval(a, b) == percentiles(unpaired))
    }

    /// From `exactFrom` values the median's interval is the resampling's exact limit: it must sit
    /// where 2,000 resamples put it, within their Monte Carlo error (a few ranks of the sample;
    /// the probability of a percentile's rank moves by √(0.025 × 0.975 / 2000) ≈ 0.35 %), for
    /// odd and even counts, small and large, with ties.
    @Test(arguments: [100, 101, 500, 2355, 20_000])
    func theExactMedianIntervalIsWhereTheResamplesPutIt(_ n: Int) {
        var random = SplitMix64(seed: UInt64(n) &* 7)
        let sorted = (0..<n).map { _ in exp(Double(random.next(below: 1_000_000)) / 1_000_000) * 100 }.sorted()
        let exact = Bootstrap.exactMedianInterval(sorted)
        let resampled = Bootstrap.resampledMedianInterval(sorted)
        func rank(_ v: Double) -> Int { sorted.firstIndex { $0 >= v } ?? n }
        let tolerance = max(2, Int((Double(n).squareRoot() * 0.08).rounded(.up)))
        #expect(abs(rank(exact.lowerBound) - rank(resampled.lowerBound)) <= tolerance, "\(exact) \(resampled)")
        #expect(abs(rank(exact.upperBound) - rank(resampled.upperBound)) <= tolerance, "\(exact) \(resampled)")
        // And where the binomial puts it: about ±1.96 √n / 2 ranks around the middle.
        let spread = Double(rank(exact.upperBound) - rank(exact.lowerBound)) / Double(n).squareRoot()
        #expect(spread > 1.7 && spread < 2.3, "\(spread)")
        let ties = [Double](repeating: 7, count: n)
        #expect(Bootstrap.exactMedianInterval(ties) == 7...7)
    }

    @Test func histogramQuantilesAreWithinOnePercent() {
        var h = LatencyHistogram()
        for us in 1...100_000 { h.record(nanoseconds: UInt64(us) * 1000) }
        #expect(h.count == 100_000)
        let p50 = h.quantileMilliseconds(0.5)!
        let p99 = h.quantileMilliseconds(0.99)!
        #expect(abs(p50 - 50.0) / 50.0 < 0.01)
        #expect(abs(p99 - 99.0) / 99.0 < 0.01)
        #expect(h.maxMilliseconds == 100.0)
        var other = LatencyHistogram()
        other.record(nanoseconds: 5_000_000_000)
        h.merge(other)
        #expect(h.maxMilliseconds == 5_000.0 && h.count == 100_001)
    }
}
