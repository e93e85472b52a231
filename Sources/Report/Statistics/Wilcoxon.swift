import Foundation

/// The Wilcoxon signed-rank test: do paired differences lean one way?
///
/// The A/B gate asks it of the log ratios of paired timings (base and new revision measured back
/// to back): it uses the ranks of the differences only, so a stall in one pair counts as one
/// rank however long it was, and with the pairs' own pairing a drift of the machine cancels. Exact
/// (counting the 2ⁿ sign patterns by dynamic programming over rank sums) up to `exactLimit`
/// pairs; beyond, the normal approximation with continuity correction.
package enum Wilcoxon {
    /// Pairs up to which the p-value is exact.
    package static let exactLimit = 80

    /// The one-sided p-value that the differences tend to be greater than 0 (zeros dropped, ties
    /// given average ranks).
    package static func pGreater(_ differences: [Double]) -> Double {
        let d = differences.filter { $0 != 0 && $0.isFinite }
        guard !d.isEmpty else { return 1 }
        let ranks = averageRanks(d.map(abs))
        // Twice the ranks: average ranks of ties are halves, and the DP counts whole numbers.
        let doubled = ranks.map { Int(($0 * 2).rounded()) }
        let wPlus = zip(d, doubled).filter { $0.0 > 0 }.reduce(0) { $0 + $1.1 }
        if d.count <= exactLimit { return exactUpperTail(wPlus, ranks: doubled) }
        let n = Double(d.count)
        let mean = n * (n + 1) / 2
        let variance = n * (n + 1) * (2 * n + 1) / 6
        let z = (Double(wPlus) / 2 - mean / 2 - 0.5) / (variance / 4).squareRoot()
        return 0.5 * erfc(z / 2.0.squareRoot())
    }

    /// P(W⁺ ≥ w) when each rank's sign is a fair coin.
    static func exactUpperTail(_ w: Int, ranks: [Int]) -> Double {
        let total = ranks.reduce(0, +)
        var p = [Double](repeating: 0, count: total + 1)
        p[0] = 1
        var reach = 0
        for r in ranks {
            reach += r
            for s in stride(from: reach, through: r, by: -1) { p[s] = (p[s] + p[s - r]) / 2 }
            for s in stride(from: r - 1, through: 0, by: -1) { p[s] /= 2 }
        }
        return min(1, p[min(w, total)...].reduce(0, +))
    }

    /// Ranks 1…n of `values`, ties sharing the average of their ranks.
    static func averageRanks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var i = 0
        while i < order.count {
            var j = i
            while j + 1 < order.count && values[order[j + 1]] == values[order[i]] { j += 1 }
            let rank = Double(i + j + 2) / 2
            for k in i...j { ranks[order[k]] = rank }
            i = j + 1
        }
        return ranks
    }
}
