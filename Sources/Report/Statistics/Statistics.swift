/// What the repetitions of one configuration say about a figure: centre, spread, a confidence
/// interval for the median, and which repetitions stand out.
///
/// The median and the MAD (median absolute deviation) lead, because benchmark samples on a
/// shared machine are skewed by stalls: one slow repetition moves the mean and the standard
/// deviation a lot and the median and MAD hardly. Both are still given. The interval is a
/// percentile bootstrap of the median (`Bootstrap`), deterministic for a sample, from five
/// repetitions on: with fewer, resampling cannot produce an interval worth printing. Outliers are
/// flagged by the modified z-score of Iglewicz and Hoaglin, |0.6745 (x − median) / MAD| > 3.5,
/// and kept: a stall is part of what was measured.
package struct Statistics: Sendable, Equatable {
    package let count: Int
    package let median: Double
    package let mean: Double
    /// The sample standard deviation (n − 1); 0 for one value.
    package let standardDeviation: Double
    /// Median absolute deviation from the median (unscaled).
    package let mad: Double
    package let min: Double
    package let max: Double
    /// 95 % bootstrap confidence interval of the median; nil below `minimumForInterval` values.
    /// Computed when asked (2,000 resamples): `compare` and the trend take thousands of medians
    /// of big samples and need no interval, which took most of their time when it was eager.
    package var medianInterval: ClosedRange<Double>? {
        count >= Self.minimumForInterval ? Bootstrap.medianInterval(sorted) : nil
    }
    /// The values, sorted.
    package let sorted: [Double]
    /// Positions (in the order given) of values whose modified z-score exceeds 3.5.
    package let outliers: [Int]

    /// Repetitions needed before an interval is given.
    package static let minimumForInterval = 5
    /// The modified z-score beyond which a value is flagged.
    package static let outlierThreshold = 3.5

    /// Nil for an empty sample.
    package init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        count = sorted.count
        median = Self.median(ofSorted: sorted)
        let average = sorted.reduce(0, +) / Double(count)
        mean = average
        let squares = sorted.reduce(0) { $0 + ($1 - average) * ($1 - average) }
        standardDeviation = count > 1 ? (squares / Double(count - 1)).squareRoot() : 0
        let centre = median
        mad = Self.median(ofSorted: sorted.map { abs($0 - centre) }.sorted())
        min = sorted[0]
        max = sorted[count - 1]
        self.sorted = sorted
        let spread = mad
        outliers = values.indices.filter { i in
            spread > 0 && abs(0.6745 * (values[i] - centre) / spread) > Self.outlierThreshold
        }
    }

    /// The modified z-score of `value` against this sample (nil when the MAD is 0).
    package func modifiedZScore(_ value: Double) -> Double? {
        mad > 0 ? 0.6745 * (value - median) / mad : nil
    }

    static func median(ofSorted sorted: [Double]) -> Double {
        let n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}

/// Percentile bootstrap with a fixed seed: the same sample always gives the same interval, so a
/// summary can be reproduced and tested.
package enum Bootstrap {
    /// Resamples drawn per interval.
    package static let resamples = 2_000
    /// The generator's seed (any fixed value; this one spells "bootstrap" in hex-ish).
    package static let seed: UInt64 = 0xB007_57A9

    // Each resample is drawn as before (n indices from the generator, in order), but its median
    // is read from how many times each rank of the sorted sample was drawn instead of sorting the
    // resample: the same value, in O(n) instead of O(n log n). Over a year of nightlies (3,000
    // values a configuration, 2,000 resamples) sorting was most of `plot`'s and `report`'s time.

    /// The 95 % interval of the median of `sorted` (which must be sorted): from `exactFrom`
    /// values on, the resampling's exact limit (`exactMedianInterval`), below it 2,000 resamples.
    package static func medianInterval(_ sorted: [Double]) -> ClosedRange<Double> {
        sorted.count >= exactFrom ? exactMedianInterval(sorted) : resampledMedianInterval(sorted)
    }

    /// From this many values the median's interval is computed, not resampled: resampling costs
    /// 2,000 × n draws, and a 100 MB results file (2,355 values a configuration) spent a quarter
    /// of `report`'s and `plot`'s time there; the exact limit differs from 2,000 resamples by
    /// less than their own Monte Carlo error.
    package static let exactFrom = 100

    /// The percentile interval of the median that infinitely many resamples would give (the
    /// exact bootstrap distribution of an order statistic, Efron 1982, §3): a resample's k-th
    /// smallest value is at most the sample's j-th exactly when at least k of its n draws fall
    /// on the j smallest, a binomial(n, j/n) count, so P = I_{j/n}(k, n − k + 1). Each end is
    /// the smallest j whose probability reaches 2.5 % or 97.5 %, as the nearest-rank percentile
    /// of the resampled medians is. For an even count the median is the mean of the two middle
    /// order statistics; its ends are taken as the means of theirs (adjacent order statistics
    /// move together: the difference is within a spacing of the sample).
    static func exactMedianInterval(_ sorted: [Double]) -> ClosedRange<Double> {
        let n = sorted.count
        func orderStatistic(_ k: Int, reaching q: Double) -> Double {
            var (low, high) = (1, n)
            while low < high {
                let j = (low + high) / 2
                if atLeast(k, of: n, p: Double(j) / Double(n)) >= q { high = j } else { low = j + 1 }
            }
            return sorted[low - 1]
        }
        let middle = n % 2 == 1 ? [(n + 1) / 2] : [n / 2, n / 2 + 1]
        let low = middle.map { orderStatistic($0, reaching: 0.025) }.reduce(0, +) / Double(middle.count)
        let high = middle.map { orderStatistic($0, reaching: 0.975) }.reduce(0, +) / Double(middle.count)
        return low...high
    }

    /// P(X ≥ k) for X ~ binomial(n, p): I_p(k, n − k + 1).
    static func atLeast(_ k: Int, of n: Int, p: Double) -> Double {
        p >= 1 ? 1 : StudentT.regularizedBeta(p, Double(k), Double(n - k + 1))
    }

    /// The median's interval from `resamples` resamples of `sorted`.
    static func resampledMedianInterval(_ sorted: [Double]) -> ClosedRange<Double> {
        var random = SplitMix64(seed: seed)
        var medians: [Double] = []
        medians.reserveCapacity(resamples)
        var draws = RankDraws(count: sorted.count)
        for _ in 0..<resamples {
            for _ in sorted.indices { draws.draw(random.next(below: sorted.count)) }
            medians.append(draws.median { sorted[$0] })
        }
        return percentiles(&medians)
    }

    /// The 95 % interval of median(a) / median(b) over resamples of `pairs` (a, b) taken
    /// together: for two strategies measured in the same rounds, pairing keeps the drift of the
    /// machine out of the ratio.
    package static func ratioInterval(_ pairs: [(Double, Double)]) -> ClosedRange<Double>? {
        guard pairs.count >= Statistics.minimumForInterval else { return nil }
        var random = SplitMix64(seed: seed)
        var ratios: [Double] = []
        ratios.reserveCapacity(resamples)
        let a = Ranks(pairs.map(\.0))
        let b = Ranks(pairs.map(\.1))
        var drawsA = RankDraws(count: pairs.count)
        var drawsB = drawsA
        for _ in 0..<resamples {
            for _ in pairs.indices {
                let pick = random.next(below: pairs.count)
                drawsA.draw(a.rank[pick])
                drawsB.draw(b.rank[pick])
            }
            let numerator = drawsA.median { a.sorted[$0] }
            let denominator = drawsB.median { b.sorted[$0] }
            guard denominator > 0 else { continue }
            ratios.append(numerator / denominator)
        }
        return ratios.isEmpty ? nil : percentiles(&ratios)
    }

    /// The 95 % interval of median(a) / median(b), each side resampled on its own: for samples
    /// that share no rounds (rows of different invocations, each divided by its own limit).
    package static func unpairedRatioInterval(_ a: [Double], _ b: [Double]) -> ClosedRange<Double>? {
        guard a.count >= Statistics.minimumForInterval, b.count >= Statistics.minimumForInterval else { return nil }
        var random = SplitMix64(seed: seed)
        var ratios: [Double] = []
        ratios.reserveCapacity(resamples)
        let x = Ranks(a)
        let y = Ranks(b)
        var drawsX = RankDraws(count: a.count)
        var drawsY = RankDraws(count: b.count)
        for _ in 0..<resamples {
            for _ in a.indices { drawsX.draw(x.rank[random.next(below: a.count)]) }
            for _ in b.indices { drawsY.draw(y.rank[random.next(below: b.count)]) }
            let numerator = drawsX.median { x.sorted[$0] }
            let denominator = drawsY.median { y.sorted[$0] }
            guard denominator > 0 else { continue }
            ratios.append(numerator / denominator)
        }
        return ratios.isEmpty ? nil : percentiles(&ratios)
    }

    /// The 2.5th and 97.5th percentiles (nearest rank).
    private static func percentiles(_ values: inout [Double]) -> ClosedRange<Double> {
        values.sort()
        let n = values.count
        let low = values[Swift.max(0, Int((0.025 * Double(n)).rounded(.up)) - 1)]
        let high = values[Swift.min(n - 1, Int((0.975 * Double(n)).rounded(.up)) - 1)]
        return low...high
    }
}

/// A sample's values sorted, and each value's rank among them (ties in the order given).
struct Ranks {
    let sorted: [Double]
    /// `rank[i]`: where value i of the sample sits in `sorted`.
    let rank: [Int]

    init(_ values: [Double]) {
        let order = values.indices.sorted { (values[$0], $0) < (values[$1], $1) }
        sorted = order.map { values[$0] }
        var rank = [Int](repeating: 0, count: values.count)
        for (position, i) in order.enumerated() { rank[i] = position }
        self.rank = rank
    }
}

/// One resample of a sorted sample, as how many times each rank was drawn: its median is read
/// by walking the counts, with no sort.
struct RankDraws {
    private var counts: [Int32]
    /// How many values the resample has so far.
    private(set) var drawn = 0

    init(count: Int) { counts = [Int32](repeating: 0, count: count) }

    mutating func draw(_ rank: Int) {
        counts[rank] += 1
        drawn += 1
    }

    /// The resample's median (`value` gives the sorted sample's value at a rank), and a fresh
    /// resample after it.
    mutating func median(_ value: (Int) -> Double) -> Double {
        let n = drawn
        // 0-based positions of the middle value(s) in the sorted resample.
        let low = (n - 1) / 2
        let high = n / 2
        var seen = 0
        var lowValue: Double?
        var result = 0.0
        for rank in counts.indices where counts[rank] > 0 {
            seen += Int(counts[rank])
            if lowValue == nil, seen > low { lowValue = value(rank) }
            if seen > high {
                result = low == high ? lowValue! : (lowValue! + value(rank)) / 2
                break
            }
        }
        for i in counts.indices { counts[i] = 0 }
        drawn = 0
        return result
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, and the same on every platform.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<n (n ≤ 2³²: the tiny modulo bias of `% n` is irrelevant here, and simple
    /// to reproduce in another language).
    mutating func next(below n: Int) -> Int { Int(next() % UInt64(n)) }
}
