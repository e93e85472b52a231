import SQLiteKit

/// One column of the results file: its name, whether it holds text, and how a row writes it and
/// reads it back.
///
/// Both directions live in one entry so that a column is declared once (`ResultRow.columns`):
/// the reader, the text columns `--json` keeps as strings and the parameter columns that
/// group rows into configurations all derive from that table.
package struct ResultColumn: Sendable {
    package let name: String
    /// True for text (a git revision may be all digits); false for a number or a blank.
    package let isText: Bool
    /// True for a parameter: what was asked for, not what was measured.
    package let isParameter: Bool
    let write: @Sendable (ResultRow) -> String
    /// Sets the row's value from a cell; a blank or unreadable cell leaves it as it was.
    let read: @Sendable (inout ResultRow, String) -> Void
}

/// A value a results cell holds.
package protocol ResultCell: Sendable {
    static var isText: Bool { get }
    init?(cell: String)
    /// The cell's text; `decimals` applies to fractions only.
    func cell(decimals: Int) -> String
}

extension Int: ResultCell {
    package static var isText: Bool { false }
    package init?(cell: String) { self.init(cell) }
    package func cell(decimals: Int) -> String { String(self) }
}

extension UInt64: ResultCell {
    package static var isText: Bool { false }
    package init?(cell: String) { self.init(cell) }
    package func cell(decimals: Int) -> String { String(self) }
}

extension Double: ResultCell {
    package static var isText: Bool { false }
    package init?(cell: String) { self.init(cell) }
    /// Blank for infinities and NaN, which no reader of the file could use.
    package func cell(decimals: Int) -> String { isFinite ? Format.fixed(self, decimals) : "" }
}

extension String: ResultCell {
    package static var isText: Bool { true }
    /// A blank cell is no value.
    package init?(cell: String) {
        guard !cell.isEmpty else { return nil }
        self = cell
    }
    package func cell(decimals: Int) -> String { self }
}

// MARK: - Builders

extension ResultColumn {
    /// A column of one value: blank when `get` has none, `set` when the cell reads as one.
    private static func value<V: ResultCell>(_ name: String, decimals: Int, get: @escaping @Sendable (ResultRow) -> V?,
                                             set: @escaping @Sendable (inout ResultRow, V) -> Void) -> ResultColumn {
        ResultColumn(name: name, isText: V.isText, isParameter: false,
                     write: { get($0)?.cell(decimals: decimals) ?? "" },
                     read: { row, cell in if let v = V(cell: cell) { set(&row, v) } })
    }

    /// A value of the row itself (identity, repetition).
    static func row<V: ResultCell>(_ name: String, _ path: WritableKeyPath<ResultRow, V> & Sendable) -> ResultColumn {
        value(name, decimals: 0, get: { $0[keyPath: path] }, set: { $0[keyPath: path] = $1 })
    }

    /// An optional value of the row itself, blank when absent.
    static func row<V: ResultCell>(_ name: String, _ path: WritableKeyPath<ResultRow, V?> & Sendable,
                                   decimals: Int = 0) -> ResultColumn {
        value(name, decimals: decimals, get: { $0[keyPath: path] }, set: { $0[keyPath: path] = $1 })
    }

    /// A measured value of the repetition, blank when absent.
    static func measured<V: ResultCell>(_ name: String, _ path: WritableKeyPath<RunMeasurement, V?> & Sendable,
                                        decimals: Int = 0) -> ResultColumn {
        value(name, decimals: decimals, get: { $0.measurement[keyPath: path] }, set: { $0.measurement[keyPath: path] = $1 })
    }

    /// A parameter, as its parameter table rendered it.
    static func parameter(_ name: String, text: Bool = false) -> ResultColumn {
        ResultColumn(name: name, isText: text, isParameter: true,
                     write: { $0.parameters[name] }, read: { row, cell in row.parameters.fields[name] = cell })
    }

    /// A figure the strategy reported; the row's counters exist once one of them is read.
    static func strategy<V: ResultCell>(_ name: String, _ path: WritableKeyPath<StrategyCounters, V?> & Sendable,
                                        decimals: Int = 0) -> ResultColumn {
        value(name, decimals: decimals, get: { $0.measurement.strategy?[keyPath: path] }, set: { row, v in
            var counters = row.measurement.strategy ?? StrategyCounters()
            counters[keyPath: path] = v
            row.measurement.strategy = counters
        })
    }

    /// A statement count; the row's snapshot exists once one of them is read.
    static func sql(_ name: String, _ path: WritableKeyPath<StatementCounters.Snapshot, Int> & Sendable) -> ResultColumn {
        value(name, decimals: 0, get: { $0.measurement.sql?[keyPath: path] }, set: { row, v in
            var sql = row.measurement.sql ?? StatementCounters.Snapshot()
            sql[keyPath: path] = v
            row.measurement.sql = sql
        })
    }

    /// A verifier finding; the row's verification exists once one of them is read.
    static func verified<V: ResultCell>(_ name: String, _ path: WritableKeyPath<Verification, V> & Sendable) -> ResultColumn {
        value(name, decimals: 0, get: { $0.measurement.verification?[keyPath: path] },
              set: { row, v in row.updateVerification { $0[keyPath: path] = v } })
    }

    /// An optional verifier finding (blank when the run had nothing to check it against).
    static func verified<V: ResultCell>(_ name: String, _ path: WritableKeyPath<Verification, V?> & Sendable) -> ResultColumn {
        value(name, decimals: 0, get: { $0.measurement.verification?[keyPath: path] ?? nil },
              set: { row, v in row.updateVerification { $0[keyPath: path] = v } })
    }

    /// A column the file writes for its readers and `ResultRow(csv:)` derives from others.
    static func derived(_ name: String, _ write: @escaping @Sendable (ResultRow) -> String) -> ResultColumn {
        ResultColumn(name: name, isText: false, isParameter: false, write: write, read: { _, _ in })
    }
}

extension ResultRow {
    fileprivate mutating func updateVerification(_ change: (inout Verification) -> Void) {
        var v = measurement.verification
            ?? Verification(storeRows: 0, duplicates: 0, lost: 0, badLinks: 0, integrity: "", storeBytes: 0)
        change(&v)
        measurement.verification = v
    }
}
