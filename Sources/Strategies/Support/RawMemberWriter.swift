import ObjectGraph
import SQLiteKit
import Workload

/// `raw-sqlite`'s many-to-many: each member row inserted once (its key and generated attributes),
/// each record's pairs inserted into the join table with one reused statement, no engine.
struct RawMemberWriter {
    private let generator: Generator
    private let members: RecordShape.Members
    private let insertMember: Statement
    private let insertPair: Statement
    private let memberEntity: EntityDescription
    /// Z_PK of each member by index; 0 when not inserted yet.
    private var keys: [Int64]
    private var nextKey: Int64 = 1
    private let updateMax: Statement

    /// Nil without a many-to-many (or with no members per record).
    init?(db: Database, mapping: ImportModel, spec: WorkloadSpec) throws {
        guard let members = mapping.shape.members, members.perRecord > 0,
            let entity = mapping.model.entity(named: members.entity),
            let join = ImportModel.joinColumns(mapping.recordEntity, members, entity)
        else { return nil }
        self.members = members
        memberEntity = entity
        generator = Generator(spec: spec, shape: mapping.shape)
        let columns = [members.key.name] + members.fields.map(\.name)
        insertMember = try db.prepare(
            "INSERT INTO \(entity.tableName) (Z_PK, Z_ENT, Z_OPT, "
                + columns.map { entity.column(of: $0) }.joined(separator: ", ") + ") VALUES (?, "
                + "\(entity.entityID), 1, " + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")")
        insertPair = try db.prepare(
            "INSERT OR REPLACE INTO \(join.table)(\(join.record), \(join.member)) VALUES (?, ?)")
        updateMax = try db.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
        keys = Array(repeating: 0, count: members.pool)
    }

    /// The pairs of the record stored as `recordKey` (call only when its row went in), its members
    /// inserted the first time named.
    mutating func insertPairs(of r: Record, recordKey: Int64) throws {
        for i in generator.members(ofKey: r.keyIndex) {
            if keys[i] == 0 { try insert(member: i) }
            insertPair.bind(recordKey, at: 1)
            insertPair.bind(keys[i], at: 2)
            try insertPair.run()
        }
    }

    private mutating func insert(member i: Int) throws {
        var values = RecordValues()
        generator.fillMember(i, into: &values)
        insertMember.bind(nextKey, at: 1)
        for (f, spec) in ([members.key] + members.fields).enumerated() {
            let value = RecordMapper.value(values, f, type: spec.type, pool: generator.pool)
            insertMember.bindValue(value, at: Int32(f + 2))
        }
        try insertMember.run()
        keys[i] = nextKey
        nextKey += 1
    }

    /// The members' highest key, in `Z_PRIMARYKEY`.
    func recordMaxKey() throws {
        updateMax.bind(nextKey - 1, at: 1)
        updateMax.bind(memberEntity.rootEntityID, at: 2)
        try updateMax.run()
    }
}

extension Statement {
    /// Binds a value as the engine holds it.
    func bindValue(_ value: Value, at index: Int32) {
        switch value {
        case .null: bindNull(at: index)
        case .integer(let n): bind(n, at: index)
        case .double(let x), .date(let x): bind(x, at: index)
        case .string(let s): bind(s, at: index)
        case .bool(let b): bind(b ? 1 : 0, at: index)
        case .data(let bytes): bytes.withUnsafeBytes { bindBlob($0, at: index) }
        }
    }
}
