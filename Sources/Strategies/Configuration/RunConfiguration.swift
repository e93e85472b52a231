import ObjectGraph
import Workload

/// One point of a run: every parameter a repetition is measured with, as one value.
///
/// Parsed from the command line (`RunParameter.all` says how), handed to the child process as
/// it is, read by the strategy through `StrategyJob`, and written to CSV by the same table. A
/// parameter a strategy does not use is left at its unused value (nil), so two points that
/// differ only in what a strategy ignores are one configuration.
package struct RunConfiguration: Codable, Hashable, Sendable {
    /// The strategy's name (`context-reset`).
    package var strategy: String = "batch"
    /// What is measured: an import, or an update, delete or read of a filled store.
    package var operation: Operation = .import
    /// The share of the records an update or delete targets (nil for imports and reads).
    package var fraction: Double?
    /// Which records: dataset, rows, seed, duplicates, key order and the dataset's sizes.
    package var workload = WorkloadSpec()
    /// A team's own model (`--model`) and the roles named for it; empty: the dataset's bundled model.
    package var model = ModelChoice()
    /// Records per save or transaction; nil: the strategy's default (or unused).
    package var batchSize: Int?
    /// Concurrent producers, for strategies that take records from several. The defaults of
    /// these three are values, not nil, so that a strategy using them records what it ran with
    /// whether or not the flag was given: `writers=""` and `writers=1` were one configuration
    /// under two keys, never compared with each other.
    package var writers: Int? = 1
    /// Simulated fetch time per record in µs, for strategies with producers.
    package var producerLatencyMicroseconds: Int? = 0
    /// One coordinator for every writer context or one each, for strategies with several contexts.
    package var coordinators: CoordinatorMode? = .shared
    /// Where the store lives: a file (the default) or memory.
    package var storeKind: StoreKind = .file
    /// Journal mode and durability of a file store (nil in memory, where neither applies).
    package var journal: StoreOptions.Journal? = .wal
    package var synchronous: StoreOptions.Synchronous? = .runDefault
    /// Pragmas set on every connection of the store (`RunParameter.pragma`), by name.
    package var pragmas: [String: Int64] = [:]
    /// Records per second in an open-loop run; nil: as fast as the strategy takes them.
    package var rate: Double?
    /// The screen in front of every strategy (`--view-context`); nil: none.
    package var screen: ScreenKind?
    /// What batch requests return (`--result`); nil: the strategy issues none.
    package var batchResult: BatchResultType? = .statusOnly
    /// Record persistent history (`NSPersistentHistoryTrackingKey`) in the store.
    package var history = false
    /// An import file read instead of generating records, and the distinct keys it holds.
    package var input: String?
    package var inputUniqueKeys: Int?

    package init() {}

    /// The knobs of generated values this configuration sets.
    package var shapeOptions: ShapeOptions {
        var options = ShapeOptions()
        options.payloadBytes = workload.payloadBytes
        options.stringLength = workload.stringLength
        options.attributeBytes = workload.attributeBytes
        options.members = model.members
        options.membersPerRecord = workload.members
        options.memberPool = workload.parents
        options.usesFeed = input != nil
        return options
    }

    /// The strategy this configuration runs (nil for a name not in the registry).
    package var writeStrategy: (any WriteStrategy)? { StrategyRegistry.strategy(named: strategy) }

    /// Distinct keys the records hold: what a deduplicating strategy must store.
    package var uniqueKeys: Int { inputUniqueKeys ?? workload.uniqueKeys }

    /// The share of records repeating a key: the workload's, or measured from the import file.
    package var effectiveDupRate: Double {
        guard input != nil, let unique = inputUniqueKeys, workload.rows > 0 else { return workload.dupRate }
        return 1 - Double(unique) / Double(workload.rows)
    }
}

/// Whether the store is a file or lives in memory.
package enum StoreKind: String, Codable, Hashable, Sendable, CaseIterable {
    case file, memory
}
