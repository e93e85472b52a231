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

    /// The 95 % interval of the median of `sorted` (which must be sorted).
    package static func medianInterval(_ sorted: [Double]) -> ClosedRange<Double> {
        var random = SplitMix64(seed: seed)
        var medians: [Double] = []
        medians.reserveCapacity(resamples)
        var sample = [Double](repeating: 0, count: sorted.count)
        for _ in 0..<resamples {
            for i in sample.indices { sample[i] = sorted[random.next(below: sorted.count)] }
            sample.sort()
            medians.append(Statistics.median(ofSorted: sample))
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
        var a = [Double](repeating: 0, count: pairs.count), b = a
        for _ in 0..<resamples {
            for i in pairs.indices {
                let pick = pairs[random.next(below: pairs.count)]
                a[i] = pick.0
                b[i] = pick.1
            }
            a.sort()
            b.sort()
            let denominator = Statistics.median(ofSorted: b)
            guard denominator > 0 else { continue }
            ratios.append(Statistics.median(ofSorted: a) / denominator)
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
        var x = a, y = b
        for _ in 0..<resamples {
            for i in x.indices { x[i] = a[random.next(below: a.count)] }
            for i in y.indices { y[i] = b[random.next(below: b.count)] }
            x.sort()
            y.sort()
            let denominator = Statistics.median(ofSorted: y)
            guard denominator > 0 else { continue }
            ratios.append(Statistics.median(ofSorted: x) / denominator)
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
