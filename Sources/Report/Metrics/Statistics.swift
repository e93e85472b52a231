/// Order statistics over the repetitions of one strategy.
public struct Statistics: Sendable, Equatable {
    public let median: Double
    public let min: Double
    public let max: Double
    public let count: Int

    /// Nil for an empty sample.
    public init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let n = sorted.count
        median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        min = sorted[0]
        max = sorted[n - 1]
        count = n
    }

    /// Half the min…max range relative to the median: the spread the summary shows as ±.
    public var relativeSpread: Double { median == 0 ? 0 : (max - min) / 2 / median }
}
