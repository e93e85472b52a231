/// Decides, for every position in the stream, whether the record is new or repeats an earlier
/// key, and which.
///
/// Exactly `round(rows × dupRate)` records repeat a key (never the first), spread evenly over the
/// stream, so the number of unique keys is known before a single record is made and every
/// position can be computed on its own: producers split a stream without coordinating.
package struct KeyPlan: Sendable, Equatable {
    package let rows: Int
    /// Records that repeat an earlier key.
    package let duplicates: Int
    package let distribution: KeyDistribution
    package let seed: UInt64
    private let zipf: ZipfSampler?

    package init(rows: Int, dupRate: Double, distribution: KeyDistribution, seed: UInt64) {
        precondition(rows >= 0 && dupRate >= 0 && dupRate < 1, "KeyPlan needs rows ≥ 0 and dupRate in [0, 1)")
        self.rows = rows
        self.duplicates = rows == 0 ? 0 : min(rows - 1, Int((Double(rows) * dupRate).rounded()))
        self.distribution = distribution
        self.seed = seed
        if case .zipf(let s) = distribution { zipf = ZipfSampler(s: s) } else { zipf = nil }
    }

    /// Distinct keys in the whole stream.
    package var uniqueKeys: Int { rows - duplicates }

    /// Repeats among the records before position `i`.
    @inline(__always)
    package func duplicatesBefore(_ i: Int) -> Int {
        guard rows > 0 else { return 0 }
        // i × duplicates can pass 2^63 for a billion rows: divide the full 128-bit product.
        return Int(UInt64(rows).dividingFullWidth(UInt64(i).multipliedFullWidth(by: UInt64(duplicates))).quotient)
    }

    /// Whether the record at `i` repeats an earlier key.
    @inline(__always)
    package func isRepeat(_ i: Int) -> Bool {
        duplicatesBefore(i + 1) > duplicatesBefore(i)
    }

    /// The unique-key index of the record at position `i`.
    @inline(__always)
    package func keyIndex(at i: Int) -> Int {
        let issued = i - duplicatesBefore(i)   // distinct keys before i
        guard isRepeat(i) else { return issued }
        let h = Mixing.hash(seed ^ 0x5EED_0F_D0B1E5, UInt64(i))
        switch distribution {
        case .uniform:
            return Int(h % UInt64(issued))
        case .zipf:
            let rank = zipf!.rank(n: issued) { attempt in
                Mixing.unit(attempt == 0 ? h : Mixing.hash(h, UInt64(attempt)))
            }
            return rank - 1   // rank 1 is the oldest key
        }
    }
}
