/// Everything that decides which records a run gets. Same spec, same records, on any machine.
public struct WorkloadSpec: Sendable, Hashable, Codable {
    public var dataset: Dataset = .expenses
    public var rows: Int = 100_000
    public var seed: UInt64 = 1
    /// Share of records that repeat an earlier key, in [0, 1).
    public var dupRate: Double = 0
    public var keyDistribution: KeyDistribution = .uniform
    /// The order new keys arrive in.
    public var keyOrder: KeyOrder = .ascending
    /// Number of categories (expenses).
    public var categories: Int = 50
    /// Number of albums (photos).
    public var albums: Int = 20
    /// Size of each photo's imageData (photos).
    public var payloadBytes: Int = 4096

    public init() {}

    /// Where each record's key comes from.
    public var keyPlan: KeyPlan {
        KeyPlan(rows: rows, dupRate: dupRate, distribution: keyDistribution, seed: seed)
    }

    /// Distinct keys the stream holds: what a deduplicating strategy must store.
    public var uniqueKeys: Int { keyPlan.uniqueKeys }

    /// Number of distinct parents (categories or albums) records are spread over.
    public var parents: Int { dataset == .expenses ? categories : albums }
}
