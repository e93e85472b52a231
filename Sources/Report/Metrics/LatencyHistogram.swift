/// A histogram of durations with bounded memory and about 1% relative error, like HdrHistogram.
///
/// Values are bucketed by their top bits: exact below 128 µs, then 64 buckets per power of two.
/// A million saves or records cost the same 30 KiB as ten, so latency can be recorded per record
/// without memory showing in the run's own figures. Not thread-safe: one per thread, then `merge`.
package struct LatencyHistogram: Sendable, Equatable {
    static let subBits = 6
    static let subCount = 1 << subBits   // buckets per power of two
    static let maxExponent = 40   // up to ~2^46 µs, beyond any run
    private var buckets: [Int]
    package private(set) var count = 0
    package private(set) var maxMicroseconds: UInt64 = 0
    private var sumMicroseconds: Double = 0

    package init() {
        buckets = [Int](repeating: 0, count: (Self.maxExponent + 2) * Self.subCount)
    }

    /// Records one duration in nanoseconds.
    @inline(__always)
    package mutating func record(nanoseconds: UInt64) {
        let us = nanoseconds / 1000
        buckets[Self.bucket(for: us)] += 1
        count += 1
        sumMicroseconds += Double(us)
        if us > maxMicroseconds { maxMicroseconds = us }
    }

    @inline(__always)
    static func bucket(for us: UInt64) -> Int {
        if us < UInt64(2 * subCount) { return Int(us) }
        let bits = 64 - us.leadingZeroBitCount   // ≥ subBits + 2
        let shift = bits - subBits - 1
        let exponent = min(shift, maxExponent)
        let mantissa = Int(us >> UInt64(shift)) - subCount   // 0..<subCount
        return (exponent + 1) * subCount + min(mantissa, subCount - 1)
    }

    /// The smallest value (µs) of a bucket, the inverse of `bucket(for:)`.
    static func lowerBound(of bucket: Int) -> UInt64 {
        if bucket < 2 * subCount { return UInt64(bucket) }
        let exponent = bucket / subCount - 1
        let mantissa = bucket % subCount + subCount
        return UInt64(mantissa) << UInt64(exponent)
    }

    /// Adds another histogram's counts to this one.
    package mutating func merge(_ other: LatencyHistogram) {
        for i in buckets.indices { buckets[i] += other.buckets[i] }
        count += other.count
        sumMicroseconds += other.sumMicroseconds
        maxMicroseconds = max(maxMicroseconds, other.maxMicroseconds)
    }

    /// The value at quantile `q` (0…1) in milliseconds, nil when empty. Reported at the middle
    /// of its bucket; the maximum is exact.
    package func quantileMilliseconds(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((q * Double(count)).rounded(.up)))
        var seen = 0
        for (i, n) in buckets.enumerated() where n > 0 {
            seen += n
            if seen >= rank {
                let low = Self.lowerBound(of: i)
                let high = Self.lowerBound(of: i + 1)
                let mid = Double(low) + Double(high - low) / 2
                return min(mid, Double(maxMicroseconds)) / 1000
            }
        }
        return Double(maxMicroseconds) / 1000
    }

    /// The largest value recorded, in milliseconds.
    package var maxMilliseconds: Double? { count > 0 ? Double(maxMicroseconds) / 1000 : nil }
    /// The sum of every value recorded, in milliseconds.
    package var totalMilliseconds: Double { sumMicroseconds / 1000 }
}
