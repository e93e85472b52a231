import ObjectGraph
import Report
import SQLiteKit
import Workload

/// The physical limit: SQLite alone, no engine, no object graph.
///
/// One reused prepared INSERT per row, values bound straight from the record's bytes, in one
/// transaction (or one per `--batch-size`), into the same Z-table layout the engine writes. It
/// does not deduplicate: repeated records become rows, and the verifier reports them.
package struct RawSQLiteStrategy: WriteStrategy {
    package init() {}
    package var name: String { "raw-sqlite" }
    package var summary: String { "one reused prepared INSERT per row in one transaction; no engine, no dedup" }
    package var idiom: String { "the physical limit every other strategy is compared with" }
    package var isLimit: Bool { true }
    package var keyConstraint: KeyConstraint { .none }
    /// No index on the key: a repeated record is a second row, by design.
    package var expectations: StoreExpectations { StoreExpectations(uniqueKeys: false) }
    package var caveat: String { "the limit: no engine, one transaction; its duplicates are the repeated records, by design" }
    package var defaultBatchSize: Int? { nil }

    package func run(_ job: StrategyJob) throws -> StrategyCounters {
        try RawImport(keyConstraint: keyConstraint, batchSize: job.batchSize(for: self)).run(job)
    }
}

/// The raw insert loop: prepared statements, one transaction (or one per batch), no engine.
struct RawImport {
    var keyConstraint: KeyConstraint
    var batchSize: Int

    func run(_ job: StrategyJob) throws -> StrategyCounters {
        let mapping = DatasetMapping(dataset: job.workload.dataset, key: keyConstraint)
        let db = try job.openConnection()
        try StoreSchema.create(in: db, model: mapping.model)
        var writer = try RawRecordWriter(db: db, mapping: mapping, payloadBytes: job.workload.payloadBytes,
                                         seed: job.workload.seed, ignoringDuplicates: keyConstraint == .unique)
        let batch = batchSize
        let stream = try job.makeStream()
        var record = Record()
        var inTransaction = 0
        var unreported = 0
        // Open-loop runs only: when each record of the open transaction was due.
        var arrivals: [UInt64] = []
        while try stream.next(into: &record) {
            if inTransaction == 0 { try db.execute("BEGIN") }
            try writer.insert(record)
            if job.rate != nil { arrivals.append(record.arrival) }
            inTransaction += 1
            unreported += 1
            if inTransaction == batch {
                try writer.commit(db)
                job.latency.committed(arrivals)
                arrivals.removeAll(keepingCapacity: true)
                inTransaction = 0
            }
            if unreported == 1024 { job.progress.add(unreported); unreported = 0 }
        }
        if inTransaction > 0 {
            try writer.commit(db)
            job.latency.committed(arrivals)
        }
        job.progress.add(unreported)
        return StrategyCounters()
    }
}

/// Inserts records and their parents with prepared statements, numbering `Z_PK` itself.
///
/// Parents (categories, albums) are inserted the first time a record names them, so the same
/// code serves generated records and import files whose names are discovered as they are read.
struct RawRecordWriter {
    private let insertRecord: Statement
    private let insertParent: Statement
    private let updateMax: Statement
    private let fields: [RecordField]
    private let mapping: DatasetMapping
    private let payloads: PayloadPool?
    /// Z_PK of each parent by the record's parent index; 0 when not inserted yet.
    private var parentKeys: [Int64] = []
    private var nextRecordKey: Int64 = 1
    private var nextParentKey: Int64 = 1

    /// With `ignoringDuplicates`, a record whose key is already stored is skipped
    /// (`INSERT OR IGNORE` on a layout with a UNIQUE key).
    init(db: Database, mapping: DatasetMapping, payloadBytes: Int, seed: UInt64, ignoringDuplicates: Bool = false) throws {
        let record = mapping.recordEntity, parent = mapping.parentEntity
        let columns = ["Z_PK", "Z_ENT", "Z_OPT"] + record.columns.map(\.name)
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let verb = ignoringDuplicates ? "INSERT OR IGNORE" : "INSERT"
        insertRecord = try db.prepare("\(verb) INTO \(record.tableName) (\(columns.joined(separator: ", "))) VALUES (\(marks))")
        insertParent = try db.prepare("INSERT INTO \(parent.tableName) (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)")
        updateMax = try db.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
        insertRecord.bind(record.entityID, at: 2)
        insertRecord.bind(1, at: 3)
        insertParent.bind(parent.entityID, at: 2)
        self.fields = mapping.recordFields
        self.mapping = mapping
        self.payloads = mapping.dataset == .photos ? PayloadPool(payloadBytes: payloadBytes, seed: seed) : nil
    }

    /// Inserts one record (and its parent, the first time it is named).
    @inline(__always)
    mutating func insert(_ r: Record) throws {
        let parentKey = try parent(of: r)
        insertRecord.bind(nextRecordKey, at: 1)
        try r.key.withBytes { key in
            try r.note.withBytes { note in
                var index: Int32 = 4
                for field in fields {
                    switch field {
                    case .key: insertRecord.bindText(noCopy: key, at: index)
                    case .parent: insertRecord.bind(parentKey, at: index)
                    case .amount: insertRecord.bind(r.amount, at: index)
                    case .date: insertRecord.bind(r.date, at: index)
                    case .note: insertRecord.bindText(noCopy: note, at: index)
                    case .isSeen: insertRecord.bind(r.isSeen ? 1 : 0, at: index)
                    case .imageData:
                        if let bytes = r.payload {
                            bytes.withUnsafeBytes { insertRecord.bindBlob($0, at: index) }
                        } else {
                            bindPayload(r.payloadOffset, at: index)
                        }
                    }
                    index += 1
                }
                try insertRecord.run()
            }
        }
        nextRecordKey += 1
    }

    @inline(__always)
    private func bindPayload(_ offset: Int, at index: Int32) {
        // The pool outlives the statement's execution, so binding without a copy is safe.
        if let payloads { insertRecord.bindBlob(noCopy: payloads.payload(at: offset), at: index) }
    }

    @inline(__always)
    private mutating func parent(of r: Record) throws -> Int64 {
        if r.parentIndex < parentKeys.count, parentKeys[r.parentIndex] != 0 { return parentKeys[r.parentIndex] }
        if r.parentIndex >= parentKeys.count {
            parentKeys.append(contentsOf: repeatElement(0, count: r.parentIndex + 1 - parentKeys.count))
        }
        let key = nextParentKey
        insertParent.bind(key, at: 1)
        try r.parentName.withBytes { insertParent.bindText(noCopy: $0, at: 3); try insertParent.run() }
        parentKeys[r.parentIndex] = key
        nextParentKey += 1
        return key
    }

    /// Records the highest keys handed out in `Z_PRIMARYKEY` (so every committed state is a
    /// consistent store, as Core Data keeps it) and commits.
    func commit(_ db: Database) throws {
        try recordMaxKeys()
        try db.execute("COMMIT")
    }

    private func recordMaxKeys() throws {
        for (entity, next) in [(mapping.recordEntity, nextRecordKey), (mapping.parentEntity, nextParentKey)] {
            updateMax.bind(next - 1, at: 1)
            updateMax.bind(entity.entityID, at: 2)
            try updateMax.run()
        }
    }
}
