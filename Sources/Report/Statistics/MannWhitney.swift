import Host

/// The Mann-Whitney U test: do two samples come from one distribution, or does one tend to be
/// larger?
///
/// The nightly gate asks it of noisy figures (`vs_limit`, peak RSS) because it uses ranks only:
/// it needs no normal distribution (benchmark samples are skewed by stalls), an outlier counts as
/// one rank however far out it lies, five repetitions a side are enough for p < 0.05 (the
/// smallest exact one-sided p at 5 and 5 is 1/252), and the answer is exact and the same every
/// time (no resampling).
package enum MannWhitney {
    /// The one-sided p-value that `a` tends to be greater than `b`. Exact (by counting
    /// arrangements of ranks) when there are no ties and both samples are small; otherwise the
    /// normal approximation with tie correction and continuity correction.
    package static func pGreater(_ a: [Double], _ b: [Double]) -> Double {
        guard !a.isEmpty, !b.isEmpty else { return 1 }
        let (u, hasTies) = uStatistic(a, b)
        if !hasTies && a.count + b.count <= 40 { return exactUpperTail(u: u, n1: a.count, n2: b.count) }
        return normalUpperTail(u: u, a: a, b: b)
    }

    /// U for `a`: the number of pairs (x in a, y in b) with x > y, ties counting one half.
    static func uStatistic(_ a: [Double], _ b: [Double]) -> (u: Double, hasTies: Bool) {
        var u = 0.0
        var ties = false
        for x in a {
            for y in b {
                if x > y {
                    u += 1
                } else if x == y {
                    u += 0.5
                    ties = true
                }
            }
        }
        let all = a + b
        if Set(all).count < all.count { ties = true }
        return (u, ties)
    }

    /// P(U ≥ u) under the null hypothesis, counting the ways to reach each U.
    static func exactUpperTail(u: Double, n1: Int, n2: Int) -> Double {
        // f(i, j) distributions built by adding the largest element from a (it beats all j of b)
        // or from b: f(i, j)(s) = f(i-1, j)(s - j) + f(i, j-1)(s).
        var table = [[[Double]]](repeating: [[Double]](repeating: [], count: n2 + 1), count: n1 + 1)
        for i in 0...n1 {
            for j in 0...n2 {
                var f = [Double](repeating: 0, count: i * j + 1)
                if i == 0 || j == 0 {
                    f[0] = 1
                } else {
                    for (s, w) in table[i - 1][j].enumerated() where w > 0 { f[s + j] += w }
                    for (s, w) in table[i][j - 1].enumerated() where w > 0 { f[s] += w }
                }
                table[i][j] = f
            }
        }
        let f = table[n1][n2]
        let total = f.reduce(0, +)
        let threshold = Int(u.rounded(.up))
        return f.enumerated().filter { $0.offset >= threshold }.reduce(0) { $0 + $1.element } / total
    }

    static func normalUpperTail(u: Double, a: [Double], b: [Double]) -> Double {
        let n1 = Double(a.count)
        let n2 = Double(b.count)
        let n = n1 + n2
        let mean = n1 * n2 / 2
        // Tie correction: Σ (t³ − t) over groups of equal values.
        var counts: [Double: Int] = [:]
        for v in a + b { counts[v, default: 0] += 1 }
        let tieSum = counts.values.reduce(0.0) { $0 + Double($1 * $1 * $1 - $1) }
        let variance = n1 * n2 / 12 * ((n + 1) - tieSum / (n * (n - 1)))
        guard variance > 0 else { return u > mean ? 0 : 1 }
        let z = (u - mean - 0.5) / variance.squareRoot()
        return 0.5 * erfc(z / 2.0.squareRoot())
    }
}
