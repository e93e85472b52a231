import ObjectGraph
import SQLiteKit
import Workload

/// What a list screen showed, added up so that the check can tell whether it showed the
/// store's rows: each row's note and its related object's key, hashed (FNV-1a) and summed, so
/// the order of the rows does not matter and a wrong, missing or repeated value does.
struct ShownDigest {
    private(set) var value: UInt64 = 0
    private(set) var rows = 0

    /// One row: the note and the related object's key as the cell shows them (nil: none).
    mutating func add(note: Value?, key: Value?) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        Self.hash(note, into: &h)
        Self.hash(key, into: &h)
        value &+= Mixing.mix(h)
        rows += 1
    }

    /// The sum in 52 bits, as `StrategyCounters.shownDigest` carries it.
    var result: UInt64 { value & (1 << 52 - 1) }

    /// A value's bytes as SQLite's text of the column gives them (text, an integer's digits,
    /// bytes), or a mark for no value.
    private static func hash(_ v: Value?, into h: inout UInt64) {
        switch v {
        case .string(let s)?: for b in s.utf8 { add(b, &h) }
        case .integer(let i)?: for b in String(i).utf8 { add(b, &h) }
        case .data(let d)?: for b in d { add(b, &h) }
        case .null?, nil: add(0xFF, &h)
        case let other?: for b in other.description.utf8 { add(b, &h) }
        }
        add(0x1F, &h)
    }

    private static func hash(column c: Int32, of s: Statement, into h: inout UInt64) {
        if s.isNull(at: c) { add(0xFF, &h) } else { s.withBytes(at: c) { for b in $0 { add(b, &h) } } }
        add(0x1F, &h)
    }

    @inline(__always)
    private static func add(_ b: UInt8, _ h: inout UInt64) { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }

    /// What a screen of every row shows, read from the store with plain SQL: each record's note
    /// (`note`, nil when the entity has none) and its related object's key (`key` of `parent`
    /// through `foreignKey`, nil without a relationship).
    static func ofStore(
        _ db: Database, table: String, note: String?, foreignKey: String?, parent: (table: String, key: String)?
    ) throws -> UInt64 {
        let noteColumn = note.map { "r.\($0)" } ?? "NULL"
        let keyColumn = parent.map { "p.\($0.key)" } ?? "NULL"
        var sql = "SELECT \(noteColumn), \(keyColumn) FROM \(table) r"
        if let parent, let foreignKey { sql += " LEFT OUTER JOIN \(parent.table) p ON r.\(foreignKey) = p.Z_PK" }
        let s = try db.prepare(sql)
        var digest = ShownDigest()
        while try s.step() {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            hash(column: 0, of: s, into: &h)
            hash(column: 1, of: s, into: &h)
            digest.value &+= Mixing.mix(h)
        }
        return digest.result
    }
}
