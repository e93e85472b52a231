import ObjectGraph
import Workload

/// One point of a run: every parameter a repetition is measured with, as one value.
///
/// Parsed from the command line (`RunParameter.all` says how), handed to the child process as
/// it is, read by the strategy through `StrategyJob`, and written to CSV by the same table. A
/// parameter a strategy does not use is left at its unused value (nil), so two points that
/// differ only in what a strategy ignores are one configuration.
public struct RunConfiguration: Codable, Hashable, Sendable {
    /// The strategy's name (`context-reset`).
    public var strategy: String = "batch"
    /// Which records: dataset, rows, seed, duplicates, key order and the dataset's sizes.
    public var workload = WorkloadSpec()
    /// Records per save or transaction; nil: the strategy's default (or unused).
    public var batchSize: Int?
    /// Concurrent producers, for strategies that take records from several.
    public var writers: Int?
    /// Simulated fetch time per record in µs, for strategies with producers.
    public var producerLatencyMicroseconds: Int?
    /// One coordinator for every writer context or one each, for strategies with several contexts.
    public var coordinators: CoordinatorMode?
    /// Where the store lives: a file (the default) or memory.
    public var storeKind: StoreKind = .file
    /// Journal mode and durability of a file store (nil in memory, where neither applies).
    public var journal: StoreOptions.Journal? = .wal
    public var synchronous: StoreOptions.Synchronous? = .normal
    /// Records per second in an open-loop run; nil: as fast as the strategy takes them.
    public var rate: Double?
    /// Keep a view context watching every save, as a list screen would.
    public var viewContext = false
    /// An import file read instead of generating records, and the distinct keys it holds.
    public var input: String?
    public var inputUniqueKeys: Int?

    public init() {}

    /// The strategy this configuration runs (nil for a name not in the registry).
    public var writeStrategy: (any WriteStrategy)? { StrategyRegistry.strategy(named: strategy) }

    /// Distinct keys the records hold: what a deduplicating strategy must store.
    public var uniqueKeys: Int { inputUniqueKeys ?? workload.uniqueKeys }

    /// The share of records repeating a key: the workload's, or measured from the import file.
    public var effectiveDupRate: Double {
        guard input != nil, let unique = inputUniqueKeys, workload.rows > 0 else { return workload.dupRate }
        return 1 - Double(unique) / Double(workload.rows)
    }
}

/// Whether the store is a file or lives in memory.
public enum StoreKind: String, Codable, Hashable, Sendable, CaseIterable {
    case file, memory
}
