import ObjectGraph
import Report
import SQLiteKit
import Workload

/// Everything a strategy needs for one measured repetition: the configuration it was asked for,
/// where its store goes, and where it reports what it did.
package struct StrategyJob: Sendable {
    /// Every parameter of the repetition, as parsed (see `RunParameter`).
    package var configuration: RunConfiguration
    /// Where the store goes and how durable commits are.
    package var store: StoreOptions
    /// How writer strategies hand records to their producers.
    package var writerScenario: WriterScenario = .split
    /// Latency from intended arrival to commit, in an open-loop run.
    package let latency = LatencyRecorder()
    /// Shared by the SQL layer of every connection the strategy opens.
    package var counters: StatementCounters
    /// Shared by every context of every container the strategy makes (`ObjectWorkTally`).
    package let objectWork = ObjectWorkTally()
    /// Where the strategy reports records done, for the timeline and progress.
    package var progress: ProgressCounter
    /// For an update, delete or read: the filled store's targets (set before the window).
    package var operationTarget: OperationTarget?
    /// What a strategy's `setUp` prepared for its window (object IDs known up front, a screen).
    package var prepared: PreparedState?

    package init(
        configuration: RunConfiguration, store: StoreOptions, counters: StatementCounters = StatementCounters(),
        progress: ProgressCounter = ProgressCounter()
    ) {
        self.configuration = configuration
        self.store = store
        self.counters = counters
        self.progress = progress
    }

    /// A job for `workload` with every other parameter at its default (tests build jobs so).
    package init(
        workload: WorkloadSpec, store: StoreOptions, counters: StatementCounters = StatementCounters(),
        progress: ProgressCounter = ProgressCounter()
    ) {
        var configuration = RunConfiguration()
        configuration.workload = workload
        self.init(configuration: configuration, store: store, counters: counters, progress: progress)
    }

    // MARK: The configuration, as strategies read it

    /// Which records to write.
    package var workload: WorkloadSpec {
        get { configuration.workload }
        set { configuration.workload = newValue }
    }
    /// Records per save or transaction; nil for the strategy's default.
    package var batchSize: Int? {
        get { configuration.batchSize }
        set { configuration.batchSize = newValue }
    }
    /// Concurrent producers (writer strategies).
    package var writers: Int {
        get { configuration.writers ?? 1 }
        set { configuration.writers = newValue }
    }
    /// Simulated time to fetch each record, in microseconds (writer strategies).
    package var producerLatencyMicroseconds: Int {
        get { configuration.producerLatencyMicroseconds ?? 0 }
        set { configuration.producerLatencyMicroseconds = newValue }
    }
    /// One coordinator for every writer context, or one per writer (SQLite's lock contended,
    /// as an app and its extension contend).
    package var coordinators: CoordinatorMode {
        get { configuration.coordinators ?? .shared }
        set { configuration.coordinators = newValue }
    }
    /// An import file to read the records from instead of generating them.
    package var input: String? {
        get { configuration.input }
        set { configuration.input = newValue }
    }
    /// Records per second in an open-loop run; nil: as fast as the strategy takes them.
    package var rate: Double? {
        get { configuration.rate }
        set { configuration.rate = newValue }
    }
    /// The screen in front of the strategy (`--view-context`); nil: none.
    package var screen: ScreenKind? {
        get { configuration.screen }
        set { configuration.screen = newValue }
    }

    /// What a batch request of the strategy asks for: `--result`, or the object IDs when the
    /// screen merges them or `fixUp` needs them (a batch insert's relationship fix-up fetches
    /// the rows it inserted by them). One rule, which the run's notes say too
    /// (`BatchResultNeed`).
    package func batchResultType(fixUpNeedsIDs: Bool = false) -> BatchResultType {
        BatchResultNeed(configuration, fixUpNeedsIDs: fixUpNeedsIDs).resultType
    }

    // MARK: The model

    /// The model the records are written with, its roles resolved (cached per process: the child
    /// resolves it before the measured window).
    package func importSource() throws -> ImportSource { try ImportSource.resolve(configuration) }

    /// The model the store is laid out with: the model's own, with the run's what-ifs.
    package func importModel() throws -> ImportModel {
        try ImportModel(importSource(), options: configuration.shapeOptions)
    }

    /// The records' shape.
    package func shape() throws -> RecordShape { try importSource().shape(configuration.shapeOptions) }

    /// The records of `shape`, in order: generated, or read from the input file; paced in an
    /// open-loop run.
    func makeStream(_ shape: RecordShape) throws -> RecordStream {
        let source: any RecordSource =
            try input.map { try RecordFileReader(path: $0, shape: shape) }
            ?? GeneratedRecords(spec: workload, shape: shape)
        return RecordStream(source, rate: rate, latency: latency)
    }

    /// What a nested feed says of the related objects (each order's own members), read once per
    /// process and shape: every writer's mapper gives created related objects these values. Nil
    /// for generated records and flat files (their related objects' attributes are generated).
    func feedParents(_ shape: RecordShape) throws -> FeedParents? {
        guard let input else { return nil }
        let key = FeedKey(path: input, shape: shape)
        if let cached = Self.feeds.withLock({ $0[key] }) { return cached }
        let read = try FeedParents.read(input, shape: shape)
        Self.feeds.withLock { $0[key] = .some(read) }
        return read
    }

    private struct FeedKey: Hashable {
        let path: String
        let shape: RecordShape
    }

    private static let feeds = Protected<[FeedKey: FeedParents?]>([:])

    /// Notes that `records` are durable now (for the open-loop latency).
    func committed(_ records: some Sequence<Record>) {
        if rate != nil { latency.committed(records.lazy.map(\.arrival)) }
    }

    /// Every record the store should hold, for the verifier (its key and related object's key):
    /// regenerated, or read back from the input file.
    package func forEachExpected(_ sink: (Record) throws -> Void) throws {
        let shape = try shape()
        if configuration.operation == .delete, let deleted = operationTarget, let target = shape.targetField {
            // The deleted targets are no longer expected, nor what the delete rules took with them.
            let cascaded = deleted.collateral > 0 ? deleted.cascadedParents : []
            try Generator(spec: workload, shape: shape).forEachExpected { record in
                guard OperationTarget.position(of: record, field: target, shape: shape) >= deleted.cutoff,
                    !cascaded.contains(record.parentIndex)
                else { return }
                try sink(record)
            }
            return
        }
        guard let input else { return try Generator(spec: workload, shape: shape).forEachExpected(sink) }
        let reader = try RecordFileReader(path: input, shape: shape)
        var record = Record()
        while try reader.next(into: &record) { try sink(record) }
    }

    /// The batch size to use: the job's, else the strategy's default, else everything at once.
    package func batchSize(for strategy: some WriteStrategy) -> Int {
        batchSize ?? strategy.defaultBatchSize ?? Int.max
    }

    /// A container of the engine `Store` on the job's store with `model`, counting into the
    /// job's counters.
    package func makeContainer<Store: ObjectStore>(_ model: ManagedObjectModel, as engine: Store.Type) throws -> Store {
        try Store(model: model, options: store, counters: counters, objectWork: objectWork)
    }

    /// The object work of the job's contexts since `before`, as the results count it.
    package func objectCounts(since before: ObjectWork) -> ObjectCounts {
        let w = objectWork.snapshot() - before
        var counts = ObjectCounts()
        counts.inserted = w.awakeFromInsert
        counts.fetched = w.fetched
        counts.faulted = w.faulted
        counts.snapshotted = w.snapshots
        counts.validated = w.validated
        counts.notified = w.objectsInChangeNotifications + w.objectsInSaveNotifications
        counts.merged = w.refreshed + w.removed
        return counts
    }

    /// Opens a new connection to the job's store, configured, counting into the job's counters.
    package func openConnection() throws -> Database {
        let db = try Database(path: store.path, counters: counters)
        try store.configure(db)
        return db
    }
}

/// Whether writer contexts share one coordinator.
package enum CoordinatorMode: String, Sendable, Codable, CaseIterable {
    case shared
    case perWriter = "per-writer"
}

/// How records reach the producers of a writer strategy.
package enum WriterScenario: Sendable, Codable, Equatable {
    /// Producer p takes positions p, p + K, p + 2K, …: every record once.
    case split
    /// Every producer takes every record, and no writer saves before all have looked their keys
    /// up: the deterministic race of the buggy downloader (tests use it).
    case sameKeysForEveryWriter
}

/// What a strategy prepared before its window: untimed work its idiom assumes done (object IDs
/// known up front, a screen already showing the records).
package final class PreparedState: @unchecked Sendable {
    // Written by `setUp` before the window, read by `run` on the same thread afterwards.
    package var objectIDs: [ManagedObjectID] = []
    /// The container the window uses (of the run's engine: `FilledStore` takes it back as its own).
    package var container: (any ObjectStore)?
    package var screen: (any ScreenInFront)?
    package init() {}
}

// MARK: - Verifying

extension StrategyJob {
    /// Checks the job's store on a connection of its own against what the records say it must
    /// hold (each unique key, related to its object).
    package func verifyStore(repeated: RepeatedKey = .first) throws -> Verification {
        let model = try importModel()
        var layout = model.verifierLayout
        layout.externalDirectory = store.isInMemory ? nil : ExternalStorage.directory(forStore: store.path)
        let verifier = StoreVerifier(path: store.path, layout: layout)
        let shape = model.shape
        let pool = PayloadPool(for: shape, seed: workload.seed)
        let fields = shape.key + shape.parentKey
        let pairs: ((StoreVerifier.ExpectedSink) throws -> Void)? =
            shape.members == nil
            ? nil
            : { sink in
                try forEachExpectedPair(shape, pool: pool, sink)
            }
        let values = shape.key + shape.changingFields
        // Only an import of records that repeat keys can keep an older copy.
        let repeats = configuration.operation == .import && (input != nil || workload.dupRate > 0)
        let current: ((StoreVerifier.ExpectedSink) throws -> Void)? =
            !repeats
            ? nil
            : { sink in
                try forEachCurrent { record in
                    try sink { statement in Self.bind(values, of: record, shape, pool: pool, to: statement) }
                }
            }
        // Records whose related object a delete's cascade took (and whose own rule kept them)
        // are related to nothing now.
        let orphaned = operationTarget.map { $0.siblingsLoseParent ? $0.cascadedParents : [] } ?? []
        return try verifier.verify(
            repeated: repeated,
            expected: { sink in
                try forEachExpected { record in
                    // Copied (SQLite's own copy): the verifier steps after this returns.
                    try sink { statement in
                        Self.bind(fields, of: record, shape, pool: pool, to: statement)
                        if orphaned.contains(record.parentIndex) {
                            for i in shape.parentKey.indices { statement.bindNull(at: Int32(shape.key.count + i + 1)) }
                        }
                    }
                }
            }, pairs: pairs, current: current)
    }

    /// Every key's records in feed order, ending with its last copy (what its rows must hold):
    /// the generated stream's last copies, or every record of the import file as it is.
    private func forEachCurrent(_ sink: (Record) throws -> Void) throws {
        let shape = try shape()
        guard let input else { return try Generator(spec: workload, shape: shape).forEachLast(sink) }
        let reader = try RecordFileReader(path: input, shape: shape)
        var record = Record()
        while try reader.next(into: &record) { try sink(record) }
    }

    /// Binds `fields` of `record` at 1, 2, … with their stored types.
    private static func bind(
        _ fields: [Int], of record: Record, _ shape: RecordShape, pool: PayloadPool?, to statement: Statement
    ) {
        for (i, f) in fields.enumerated() {
            let index = Int32(i + 1)
            let v = record.values
            switch shape.fields[f].type {
            case .text: v.withBytes(f, pool: pool) { statement.bindText($0, at: index) }
            case .integer16, .integer32, .integer64: statement.bind(v.integer(f), at: index)
            case .real, .date: statement.bind(v.double(f), at: index)
            case .bool: statement.bind(v.bool(f) ? 1 : 0, at: index)
            case .bytes, .uuid: v.withBytes(f, pool: pool) { statement.bindBlob($0, at: index) }
            }
        }
    }

    /// Every pair the store's many-to-many must hold: each unique key's record key, then each of
    /// its members' keys (generated: a feed's records are not related through one).
    private func forEachExpectedPair(_ shape: RecordShape, pool: PayloadPool?, _ sink: StoreVerifier.ExpectedSink)
        throws
    {
        guard let members = shape.members else { return }
        let generator = Generator(spec: workload, shape: shape)
        var memberValues = RecordValues()
        try generator.forEachExpected { record in
            for i in generator.members(ofKey: record.keyIndex) {
                generator.fillMember(i, into: &memberValues)
                let key = RecordMapper.value(memberValues, 0, type: members.key.type, pool: generator.pool)
                try sink { statement in
                    Self.bind(shape.key, of: record, shape, pool: pool, to: statement)
                    statement.bindValue(key, at: Int32(shape.key.count + 1))
                }
            }
        }
    }
}
