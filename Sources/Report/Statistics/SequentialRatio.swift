import Foundation

/// An interval for the ratio of two configurations that stays valid however the repetitions are
/// stopped (issue 56, item 1; decision 0042).
///
/// `--repeat auto` looks at the figures after every round and stops when the order is clear:
/// a fixed-sample interval read after every round would be wrong far more often than its 5 %
/// (each look is another chance to be fooled). Here each look spends its own share of the error,
/// α·6/(π²·j²) at the j-th look (they sum to α), and the look's interval is Student's t for the
/// mean of the paired log ratios at that level: by the union bound, the chance that any look
/// wrongly tells two equal configurations apart is at most α, whenever the stop comes. This is
/// Bonferroni over looks, the simplest group-sequential design with a spending function (Lan and
/// DeMets 1983); it is conservative, which costs rounds, not correctness.
package struct SequentialRatio: Sendable, Equatable {
    /// The pairs it was computed from, and which look that is (rounds less the first two).
    package let pairs: Int
    /// The ratio of geometric means, oriented so that above 1 favours the first.
    package let ratio: Double
    /// The interval of that ratio at this look's level.
    package let interval: ClosedRange<Double>
    /// The error this look may spend.
    package let level: Double

    /// The overall error: at most this share of equal pairs is ever told apart.
    package static let alpha = 0.05
    /// The fewest pairs a look is taken at (a t interval needs a spread, and the issue asks for
    /// three repetitions each at least).
    package static let minimumPairs = 3

    /// The share of `alpha` the look at `pairs` pairs spends.
    package static func level(pairs: Int) -> Double {
        let look = Double(pairs - minimumPairs + 1)
        return alpha * 6 / (Double.pi * Double.pi * look * look)
    }

    /// The interval from pairs (first, second) of one figure where higher is better; nil below
    /// `minimumPairs` or for a value that is not positive.
    package init?(_ pairs: [(Double, Double)]) {
        guard pairs.count >= Self.minimumPairs, pairs.allSatisfy({ $0.0 > 0 && $0.1 > 0 }) else { return nil }
        let d = pairs.map { log($0.0 / $0.1) }
        let n = Double(d.count)
        let mean = d.reduce(0, +) / n
        let variance = d.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        let level = Self.level(pairs: d.count)
        let half = StudentT.quantile(1 - level / 2, degrees: n - 1) * (variance / n).squareRoot()
        self.pairs = d.count
        self.ratio = exp(mean)
        self.interval = exp(mean - half)...exp(mean + half)
        self.level = level
    }

    /// What this look says of the two, with `minDifference` the smallest difference worth telling.
    package func verdict(minDifference: Double) -> Verdict {
        let margin = 1 + minDifference
        if interval.lowerBound > 1 && ratio >= margin { return .firstAhead }
        if interval.upperBound < 1 && 1 / ratio >= margin { return .secondAhead }
        if interval.lowerBound > 1 / margin && interval.upperBound < margin { return .tie }
        return .open
    }

    /// The round at which a pair whose paired log ratios average `logRatio` with spread `spread`
    /// would first be settled (told apart, or a tie within `minDifference`), if they came out
    /// exactly as expected; nil when no look up to `maximum` settles it (a ratio at the minimum
    /// difference never does). For `--dry-run`'s expected case: the same rule, without the noise.
    package static func roundsToSettle(logRatio: Double, spread: Double, minDifference: Double, maximum: Int) -> Int? {
        let margin = log(1 + minDifference)
        let lead = abs(logRatio)
        guard maximum >= minimumPairs else { return nil }
        for n in minimumPairs...maximum {
            let half =
                StudentT.quantile(1 - level(pairs: n) / 2, degrees: Double(n - 1)) * spread / Double(n).squareRoot()
            if (lead - half > 0 && lead >= margin) || lead + half < margin { return n }
        }
        return nil
    }

    /// The rounds a pair would settle in when its log ratio is known only from a calibration that
    /// reads it within ±`noise`: for a pair that far from 1 or further, `roundsToSettle` of the
    /// reading (both ends the same); for a nearer one, closer than one calibration tells it from
    /// 1, the earliest is the reading moved `noise` away from 1 and the latest the ratio at 1 (a
    /// tie, late or never). `--dry-run` prints a near pair's estimate as that range: a point
    /// estimate jumped between 27 and 60 s over ten calls of one sweep (decision 0043).
    package static func roundsToSettle(
        calibrated logRatio: Double, noise: Double, spread: Double, minDifference: Double, maximum: Int
    ) -> (earliest: Int?, latest: Int?) {
        let lead = abs(logRatio)
        let rounds = { (lead: Double) in
            roundsToSettle(logRatio: lead, spread: spread, minDifference: minDifference, maximum: maximum)
        }
        guard isNear(logRatio, noise: noise) else { return (rounds(lead), rounds(lead)) }
        return (rounds(lead + noise), rounds(0))
    }

    /// Whether a calibrated log ratio is nearer 1 than a calibration that reads within ±`noise`
    /// can tell from a tie.
    package static func isNear(_ logRatio: Double, noise: Double) -> Bool { abs(logRatio) < noise }

    package enum Verdict: Sendable, Equatable {
        /// Told apart, the first ahead by at least the minimum difference (or the second).
        case firstAhead, secondAhead
        /// Within the minimum difference of each other, both ways.
        case tie
        /// Not yet either.
        case open
    }
}

/// Student's t distribution: its CDF through the regularized incomplete beta function
/// (a continued fraction, Lentz's method), and its quantile by bisection.
package enum StudentT {
    package static func cdf(_ t: Double, degrees v: Double) -> Double {
        let x = v / (v + t * t)
        let tail = 0.5 * regularizedBeta(x, v / 2, 0.5)
        return t >= 0 ? 1 - tail : tail
    }

    package static func quantile(_ p: Double, degrees v: Double) -> Double {
        var (low, high) = (-1e6, 1e6)
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if cdf(mid, degrees: v) < p { low = mid } else { high = mid }
            if high - low < 1e-10 * max(1, abs(mid)) { break }
        }
        return (low + high) / 2
    }

    /// I_x(a, b).
    static func regularizedBeta(_ x: Double, _ a: Double, _ b: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        let logGammas: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let front = exp(logGammas + logPowers)
        if x < (a + 1) / (a + b + 2) { return front * continuedFraction(x, a, b) / a }
        return 1 - front * continuedFraction(1 - x, b, a) / b
    }

    private static func continuedFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...10_000 {
            let m = Double(m)
            var aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return h
    }
}
