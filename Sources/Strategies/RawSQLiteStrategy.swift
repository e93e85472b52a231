import ObjectGraph
import Report
import SQLiteKit
import Workload

/// The physical limit: SQLite alone, no engine, no object graph.
///
/// One reused prepared INSERT per row, values bound straight from the record's bytes, in one
/// transaction (or one per `--batch-size`), into the model's store as the engine lays it out. It
/// does not deduplicate: repeated records become rows, and the verifier reports them; on a store
/// with a uniqueness constraint the INSERT is `INSERT OR IGNORE`, the cheapest statement that
/// store accepts for a repeat.
package struct RawSQLiteStrategy: WriteStrategy {
    package init() {}
    package var name: String { "raw-sqlite" }
    package var summary: String { "one reused prepared INSERT per row in one transaction; no engine, no dedup" }
    package var idiom: String { "the physical limit every other strategy is compared with" }
    package var isLimit: Bool { true }
    package var keyNeed: KeyNeed { .nothing }
    /// No deduplication: every copy is a row of its own, related as its record says.
    package var repeatedKey: RepeatedKey { .any }
    /// No deduplication of its own: a repeated record is a second row, unless the store's
    /// constraint ignores it.
    package var expectations: StoreExpectations { StoreExpectations(uniqueKeys: false) }
    package var caveat: String {
        "the limit: no engine, one transaction; its duplicates are the repeated records, by design"
    }
    package var defaultBatchSize: Int? { nil }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try RawImport(batchSize: job.batchSize(for: self)).run(job)
    }
}

/// The raw insert loop: prepared statements, one transaction (or one per batch), no engine.
struct RawImport {
    var batchSize: Int

    func run(_ job: StrategyJob) throws -> StrategyCounters {
        let mapping = try job.importModel()
        let db = try job.openConnection()
        try StoreSchema.create(in: db, model: mapping.model)
        let stream = try job.makeStream(mapping.shape)
        var writer = try RawRecordWriter(
            db: db, mapping: mapping, pool: stream.pool, spec: job.workload,
            feedParents: try job.feedParents(mapping.shape),
            storage: ExternalStorage(storePath: job.store.path, inMemory: job.store.isInMemory),
            ignoringDuplicates: mapping.refusesRepeatedRecords)
        let batch = batchSize
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
            if unreported == 1024 {
                job.progress.add(unreported)
                unreported = 0
            }
        }
        if inTransaction > 0 {
            try writer.commit(db)
            job.latency.committed(arrivals)
        }
        job.progress.add(unreported)
        return StrategyCounters()
    }
}

/// Inserts records and their related objects with prepared statements, numbering `Z_PK` itself.
///
/// Related objects are inserted the first time a record names them, so the same code serves
/// generated records and import files whose keys are discovered as they are read.
struct RawRecordWriter {
    private let insertRecord: Statement
    private let insertParent: Statement?
    private let updateMax: Statement
    /// What each column after `Z_PK, Z_ENT, Z_OPT` is bound from: a field, or the related object.
    private let columns: [Column]
    private let shape: RecordShape
    private let recordEntity: EntityDescription
    private let parentEntity: EntityDescription?
    private let pool: PayloadPool?
    /// Makes a related object's other attributes, when its entity has any.
    private let parentValues: Generator?
    /// What a nested feed says of the related objects, over the generated values.
    private let feedParents: FeedParents?
    /// Z_PK of each related object by the record's parent index; 0 when not inserted yet.
    private var parentKeys: [Int64] = []
    /// The last order key given in each related object's ordered to-many (when the inverse is ordered).
    private var parentPositions: [Int64] = []
    private var nextRecordKey: Int64 = 1
    private var nextParentKey: Int64 = 1
    /// Records and related objects share a table (one hierarchy): one key space, the records'.
    private let sharesKeys: Bool

    /// A field's value (with its type, read once here rather than from the shape per row), the
    /// related object's key, its `Z_ENT` (a destination with sub-entities), the record's position
    /// in its ordered to-many, or NULL (another to-one, which nothing sets).
    private enum Column { case field(Int, FieldType), external(Int), parent, parentEntity(Int), parentPosition, null }
    /// Frames values of attributes that allow external storage, as Core Data's save does.
    private let storage: ExternalStorage
    /// The many-to-many's members and pairs, when the records relate through one.
    private var members: RawMemberWriter?
    private let hasMembers: Bool
    /// Told whether a record's INSERT put a row in.
    private let db: Database
    /// The related object's fields whose attributes allow external storage.
    private let externalParentFields: Set<Int>
    /// The related object's key fields and other fields' types, likewise.
    private let parentKeyFields: [(Int, FieldType)]
    private let parentTypes: [FieldType]
    /// The related object has a column pointing back at its record (a one-to-one).
    private let pointsBack: Bool

    /// With `ignoringDuplicates`, a record whose key is already stored is skipped
    /// (`INSERT OR IGNORE` on a layout with a UNIQUE key).
    init(
        db: Database, mapping: ImportModel, pool: PayloadPool?, spec: WorkloadSpec, feedParents: FeedParents? = nil,
        storage: ExternalStorage, ignoringDuplicates: Bool = false
    ) throws {
        self.feedParents = feedParents
        self.storage = storage
        self.db = db
        members = try RawMemberWriter(db: db, mapping: mapping, spec: spec)
        hasMembers = members != nil
        externalParentFields = Set(
            mapping.shape.parentFields.indices.filter {
                mapping.parentEntity?.attribute(mapping.shape.parentFields[$0].name)?.allowsExternalStorage == true
            })
        let record = mapping.recordEntity
        let names = EntityDescription.fixedColumns + record.columns.map(\.name)
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        let verb = ignoringDuplicates ? "INSERT OR IGNORE" : "INSERT"
        insertRecord = try db.prepare(
            "\(verb) INTO \(record.tableName) (\(names.joined(separator: ", "))) VALUES (\(marks))")
        if let parent = mapping.parentEntity, !mapping.roles.parentKeys.isEmpty {
            // A one-to-one's related object points back at the record it is made for.
            let columns =
                (mapping.roles.parentKeys + mapping.shape.parentFields.map(\.name)
                + (mapping.roles.parentInverse.map { [$0] } ?? []))
                .map { parent.column(of: $0) }
            let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            insertParent = try db.prepare(
                "INSERT INTO \(parent.tableName) (Z_PK, Z_ENT, Z_OPT, \(columns.joined(separator: ", "))) "
                    + "VALUES (?, ?, 1, \(marks))")
            insertParent!.bind(parent.entityID, at: 2)
        } else {
            insertParent = nil
        }
        parentValues = mapping.shape.parentFields.isEmpty ? nil : Generator(spec: spec, shape: mapping.shape)
        updateMax = try db.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
        insertRecord.bind(record.entityID, at: 2)
        insertRecord.bind(1, at: 3)
        let shape = mapping.shape
        columns = Self.sources(of: record, mapping)
        sharesKeys = mapping.parentEntity?.rootEntityID == record.rootEntityID
        parentKeyFields = shape.parentKey.map { ($0, shape.fields[$0].type) }
        parentTypes = shape.parentFields.map(\.type)
        pointsBack = mapping.roles.parentInverse != nil
        self.shape = shape
        recordEntity = record
        parentEntity = mapping.parentEntity
        self.pool = pool
    }

    /// Where each column of the record's INSERT takes its value from.
    private static func sources(of record: EntityDescription, _ mapping: ImportModel) -> [Column] {
        record.columns.map { c in
            let isRole = c.property == mapping.roles.relationship
            switch c.kind {
            case .toOne: return isRole ? .parent : .null
            case .entityKey: return isRole ? .parentEntity(mapping.parentEntity?.entityID ?? 0) : .null
            case .orderKey: return isRole ? .parentPosition : .null
            case .attribute:
                let f = mapping.shape.field(named: c.property)!
                return record.attribute(c.property)?.allowsExternalStorage == true
                    ? .external(f) : .field(f, mapping.shape.fields[f].type)
            }
        }
    }

    /// Inserts one record (and its related object, the first time it is named).
    @inline(__always)
    mutating func insert(_ r: Record) throws {
        let parentKey = insertParent == nil ? 0 : try parent(of: r)
        insertRecord.bind(nextRecordKey, at: 1)
        // Bound without copies, and stepped while the record's bytes are borrowed.
        try r.values.withBorrowed { v in
            var index: Int32 = 4
            for column in columns {
                switch column {
                case .parent: insertRecord.bind(parentKey, at: index)
                case .parentEntity(let id): insertRecord.bind(id, at: index)
                case .parentPosition:
                    // Numbered as Core Data numbers a set from scratch: 2048, 3072, … (`OrderKey`).
                    parentPositions[r.parentIndex] +=
                        parentPositions[r.parentIndex] == 0 ? OrderKey.first : OrderKey.step
                    insertRecord.bind(parentPositions[r.parentIndex], at: index)
                case .field(let f, let type): bind(v, f, type: type, pool: pool, to: insertRecord, at: index)
                case .external(let f): try bindExternal(v, f, pool: pool, to: insertRecord, at: index)
                case .null: insertRecord.bindNull(at: index)
                }
                index += 1
            }
            try insertRecord.run()
        }
        // A record INSERT OR IGNORE skipped (a repeated key) has no row to pair.
        if _slowPath(hasMembers) && db.changes == 1 { try members?.insertPairs(of: r, recordKey: nextRecordKey) }
        nextRecordKey += 1
    }

    /// Binds field `f`'s bytes framed as Core Data frames an external-storage attribute's value
    /// (in a file past 128 KiB): a copy, as Core Data's own `_PFExternalReferenceData` makes.
    private func bindExternal(
        _ v: RecordValues.Borrowed, _ f: Int, pool: PayloadPool?, to statement: Statement,
        at index: Int32
    ) throws {
        if v.isNull(f) {
            statement.bindNull(at: index)
            return
        }
        guard case .data(let framed) = try storage.encode(.data(Array(v.bytes(f, pool: pool)))) else { return }
        framed.withUnsafeBytes { statement.bindBlob($0, at: index) }
    }

    /// Binds field `f` without copying its bytes: call inside `withBorrowed`, and step there.
    @inline(__always)
    private func bind(
        _ v: RecordValues.Borrowed, _ f: Int, type: FieldType, pool: PayloadPool?, to statement: Statement,
        at index: Int32
    ) {
        if v.isNull(f) {
            statement.bindNull(at: index)
            return
        }
        switch type {
        case .text: statement.bindText(noCopy: v.bytes(f, pool: pool), at: index)
        case .integer16, .integer32, .integer64: statement.bind(v.integer(f), at: index)
        case .real, .date: statement.bind(v.double(f), at: index)
        case .bool: statement.bind(v.bool(f) ? 1 : 0, at: index)
        case .bytes, .uuid: statement.bindBlob(noCopy: v.bytes(f, pool: pool), at: index)
        }
    }

    @inline(__always)
    private mutating func parent(of r: Record) throws -> Int64 {
        if r.parentIndex < parentKeys.count, parentKeys[r.parentIndex] != 0 { return parentKeys[r.parentIndex] }
        if r.parentIndex >= parentKeys.count {
            parentKeys.append(contentsOf: repeatElement(0, count: r.parentIndex + 1 - parentKeys.count))
            parentPositions.append(contentsOf: repeatElement(0, count: r.parentIndex + 1 - parentPositions.count))
        }
        let key = sharesKeys ? nextRecordKey : nextParentKey
        insertParent!.bind(key, at: 1)
        var others = RecordValues()
        let fromFeed = feedParents?.values(of: r.parentIndex)
        if let fromFeed { others = fromFeed } else { parentValues?.fillParent(r.parentIndex, into: &others) }
        try r.values.withBorrowed { v in
            try others.withBorrowed { o in
                for (i, (f, type)) in parentKeyFields.enumerated() {
                    bind(v, f, type: type, pool: pool, to: insertParent!, at: Int32(3 + i))
                }
                let others = Int32(3 + parentKeyFields.count)
                for (f, type) in parentTypes.enumerated() {
                    if externalParentFields.contains(f) {
                        try bindExternal(o, f, pool: parentValues?.pool, to: insertParent!, at: others + Int32(f))
                    } else {
                        bind(o, f, type: type, pool: parentValues?.pool, to: insertParent!, at: others + Int32(f))
                    }
                }
                if pointsBack { insertParent!.bind(nextRecordKey, at: others + Int32(parentTypes.count)) }
                try insertParent!.run()
            }
        }
        parentKeys[r.parentIndex] = key
        if sharesKeys { nextRecordKey += 1 } else { nextParentKey += 1 }
        return key
    }

    /// Records the highest keys handed out in `Z_PRIMARYKEY` (so every committed state is a
    /// consistent store, as Core Data keeps it) and commits.
    func commit(_ db: Database) throws {
        try recordMaxKeys()
        try db.execute("COMMIT")
    }

    private func recordMaxKeys() throws {
        try members?.recordMaxKey()
        // Keys are counted on the root's row (one key space per table).
        let parent = sharesKeys ? [] : parentEntity.map { [($0, nextParentKey)] } ?? []
        for (entity, next) in [(recordEntity, nextRecordKey)] + parent {
            updateMax.bind(next - 1, at: 1)
            updateMax.bind(entity.rootEntityID, at: 2)
            try updateMax.run()
        }
    }
}
