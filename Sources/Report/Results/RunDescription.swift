/// Where and with what a run was made: the identity columns of a result row.
public struct RunIdentity: Codable, Sendable {
    public var runID: String
    /// ISO 8601, UTC.
    public var startedAt: String
    public var system: SystemInfo

    public init(runID: String, startedAt: String, system: SystemInfo) {
        self.runID = runID
        self.startedAt = startedAt
        self.system = system
    }
}

/// What was asked for: the parameter columns of a result row. Nil fields are blank in CSV.
public struct RunParameters: Codable, Sendable {
    public var strategy: String
    public var dataset: String
    public var rows: Int
    public var uniqueKeys: Int
    public var dupRate: Double
    public var keyDistribution: String
    public var zipfS: Double?
    /// "ascending" or "random".
    public var keyOrder: String?
    public var seed: UInt64
    public var batchSize: Int?
    public var writers: Int?
    public var producerLatencyMicroseconds: Int?
    public var coordinators: String?
    /// "file" or "memory".
    public var store: String
    public var journal: String
    public var synchronous: String
    /// 1-based index of this repetition, and how many were measured.
    public var repetition: Int
    public var repetitions: Int
    /// The imported file, when the records came from one.
    public var input: String?
    /// Records per second of an open-loop run.
    public var rate: Double?

    public init(strategy: String, dataset: String, rows: Int, uniqueKeys: Int, dupRate: Double,
                keyDistribution: String, seed: UInt64, store: String, journal: String, synchronous: String,
                repetition: Int, repetitions: Int) {
        self.strategy = strategy
        self.dataset = dataset
        self.rows = rows
        self.uniqueKeys = uniqueKeys
        self.dupRate = dupRate
        self.keyDistribution = keyDistribution
        self.seed = seed
        self.store = store
        self.journal = journal
        self.synchronous = synchronous
        self.repetition = repetition
        self.repetitions = repetitions
    }
}
