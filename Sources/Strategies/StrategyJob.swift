import ObjectGraph
import Report
import SQLiteKit
import Workload

/// Everything a strategy needs for one measured repetition.
public struct StrategyJob: Sendable {
    /// Which records to write.
    public var workload: WorkloadSpec
    /// Where the store goes and how durable commits are.
    public var store: StoreOptions
    /// Records per save or transaction; nil for the strategy's default.
    public var batchSize: Int?
    /// Concurrent producers (writer strategies).
    public var writers: Int = 1
    /// Simulated time to fetch each record, in microseconds (writer strategies).
    public var producerLatencyMicroseconds: Int = 0
    /// Shared by the SQL layer of every connection the strategy opens.
    public var counters: StatementCounters
    /// Where the strategy reports records done, for the timeline and progress.
    public var progress: ProgressCounter

    public init(workload: WorkloadSpec, store: StoreOptions, counters: StatementCounters = StatementCounters(),
                progress: ProgressCounter = ProgressCounter()) {
        self.workload = workload
        self.store = store
        self.counters = counters
        self.progress = progress
    }

    /// The records, in order.
    public func makeSource() -> GeneratedRecords {
        GeneratedRecords(spec: workload)
    }

    /// The batch size to use: the job's, else the strategy's default, else everything at once.
    public func batchSize(for strategy: some WriteStrategy) -> Int {
        batchSize ?? strategy.defaultBatchSize ?? Int.max
    }

    /// Opens a new connection to the job's store, configured, counting into the job's counters.
    public func openConnection() throws -> Database {
        let db = try Database(path: store.path, counters: counters)
        try store.configure(db)
        return db
    }
}
