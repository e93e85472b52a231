import SQLiteKit

/// One column of the results file: its name, whether it holds text, and how a row writes it and
/// reads it back.
///
/// Both directions live in one entry so that a column is declared once (`ResultRow.columns`):
/// the reader, the text columns `--json` keeps as strings and the parameter columns that
/// group rows into configurations all derive from that table.
package struct ResultColumn: Sendable {
    package let column: Column
    /// The header's name for it.
    package var name: String { column.name }
    /// True for text (a git revision may be all digits); false for a number or a blank.
    package let isText: Bool
    /// True for a parameter: what was asked for, not what was measured.
    package let isParameter: Bool
    /// A parameter that follows from others (`unique_keys`, from `rows` and `dup_rate`): it never
    /// tells two configurations apart by itself, so labels, sweeps and groupings pass over it.
    package private(set) var followsFromOthers = false
    /// What a cell may hold, checked when a file is read.
    package private(set) var domain: CellDomain
    /// How `compare` judges the figure (nil: not judged), declared with the column so that a
    /// gated figure is one line of the table and a misspelt name cannot be skipped silently.
    package private(set) var rule: CompareRule?
    /// What a benchmark dashboard tracks of the figure (nil: not exported): its unit and which
    /// way is better, declared with the column as `rule` is.
    package private(set) var metric: DashboardMetric?
    /// How the summary of a configuration gives the figure (nil: not in the summary CSV).
    package private(set) var summary: SummaryAggregate?
    /// How the summary tables show the figure (none: not in them).
    package private(set) var tableCells: [TableCell] = []
    /// The cell as a number, for statistics over repetitions (nil for text, or a blank).
    package private(set) var number: (@Sendable (ResultRow) -> Double?)?

    /// The parameter, as one that follows from others (`followsFromOthers`).
    func following() -> ResultColumn {
        var column = self
        column.followsFromOthers = true
        return column
    }

    /// The column, judged by `rule`.
    func judged(_ rule: CompareRule) -> ResultColumn {
        var column = self
        column.rule = rule
        return column
    }

    /// The column, in the summary tables as `cells` say.
    func tabled(_ cells: TableCell...) -> ResultColumn {
        var column = self
        column.tableCells = cells
        return column
    }

    /// The column, in the summary CSV as `aggregate` says.
    func summarized(_ aggregate: SummaryAggregate) -> ResultColumn {
        var column = self
        column.summary = aggregate
        return column
    }

    /// The column, exported to benchmark dashboards in `unit`, better when `better`.
    func tracked(_ unit: String, better: DashboardMetric.Better) -> ResultColumn {
        var column = self
        column.metric = DashboardMetric(unit: unit, better: better)
        return column
    }
    let write: @Sendable (ResultRow) -> String
    /// Sets the row's value from a cell; a blank or unreadable cell leaves it as it was.
    let read: @Sendable (inout ResultRow, String) -> Void
}

/// How a configuration's summary (`--summary-csv`) gives a figure over its repetitions that were ok.
package enum SummaryAggregate: Sendable, Equatable {
    /// Statistics of the values, each a column `<name>_<statistic>`, with `decimals` places.
    case statistics([SummaryStatistic], decimals: Int)
    /// The last repetition's value (a count that repeats exactly), as the column `<name>`.
    case last
    /// The median of the values, as the column `<name>`.
    case median(decimals: Int)
}

/// A statistic of a figure over repetitions, named as its summary column's suffix.
package enum SummaryStatistic: String, Sendable, Equatable {
    case median, mean, sd, mad, min, max, ciLow = "ci_low", ciHigh = "ci_high", outliers
}

/// A figure as benchmark dashboards take it (package-benchmark's metric, Bencher's measure,
/// github-action-benchmark's entry): a unit and a polarity.
package struct DashboardMetric: Sendable, Equatable {
    package enum Better: Sendable, Equatable { case higher, lower }
    package let unit: String
    package let better: Better
}

/// How the nightly gate judges a figure.
package enum CompareRule: Sendable, Equatable {
    /// Must match in every configuration, racing or not (status, integrity, lost keys).
    case correctness
    /// A count of work: must match wherever the baseline repeats it, else a band.
    case exact
    /// Within a tolerance that follows the baseline's repeatability (SQLite's VM steps).
    case nearExact
    /// As `nearExact` on one machine; across machines shown, not judged: the same binary counts
    /// other instructions on another CPU (glibc picks its string and memory routines by the
    /// CPU's features) and other allocations under another kernel or core count (issue 46).
    case nearExactOnOneMachine
    /// Noisy: past a threshold AND significant (Mann-Whitney); `higherIsBetter` gives the bad side,
    /// `threshold` which option's threshold judges it.
    case noisy(higherIsBetter: Bool, threshold: NoisyThreshold)
}

/// Which of `compare`'s thresholds judges a noisy figure: time's (`--speed`) or memory's
/// (`--memory`), declared with the figure rather than guessed from its direction. Each declares its
/// option, its help, its floor and its threshold against a one-night baseline: `compare`'s flags
/// and `Judge` read them here.
package enum NoisyThreshold: String, Sendable, Equatable, CaseIterable {
    case speed, memory

    /// `compare`'s option (`--speed`).
    package var flag: String { "--" + rawValue }
    /// The least move that counts, where the baseline shows its night-to-night drift (then twice
    /// that drift when wider). 7.5 %: four nightlies of unchanged code moved a median `vs_limit` by
    /// up to 5.5 % against a baseline of three runs, so 5 % would flag untouched code.
    package var defaultFloor: Double { 0.075 }
    /// Against a baseline of one night, whose drift is unknown, the move must be larger.
    package var withoutDrift: Double { self == .speed ? 0.10 : 0.20 }
    /// The largest value the option takes.
    package var maximum: Double { self == .speed ? 1 : 10 }
    package var help: String {
        self == .speed
            ? "least vs_limit drop that counts (or twice the baseline's night-to-night drift; 0.10 for a baseline of one night)"
            : "least peak RSS growth that counts (likewise; 0.20 for one night)"
    }
}

/// What a results cell may hold. A file is checked against it as it is read, so that a cell
/// edited by hand or corrupted (`nan`, `inf`, `-5`, `1e308`) is refused with its file, line and
/// column instead of reaching the statistics, where it crashed a range or read as an improvement.
package enum CellDomain: Sendable, Equatable {
    /// Any text, or blank.
    case text
    /// A run status (`ok`, `failed`, `crashed`); never blank.
    case status
    /// One line of text with no control character: a command line the review page pastes into
    /// a shell block (a line break would close the block, an escape sequence rewrite a terminal).
    case line
    /// A name loadgen gives (a strategy's): letters, digits and `- _ . + [ ]`. Pages and tables
    /// print it as it is, so a line break or a `|` edited in would break their Markdown.
    case name
    /// A whole number ≥ 0 as loadgen writes it (digits only), or blank.
    case count
    /// A number ≥ 0 as loadgen writes it (digits, optionally a point and more digits), at most
    /// `maximum`, or blank.
    case decimal(maximum: Double)

    /// The ceiling of a measured decimal that names none: far above any time, rate or size a
    /// run can produce, far below what would overflow a sum.
    package static let measured = CellDomain.decimal(maximum: 1e15)

    /// Why `bytes` is not in the domain, or nil when it is.
    package func problem(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch self {
        case .text:
            return nil
        case .line:
            guard let i = bytes.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
            return
                "holds a control character (byte \(i + 1), 0x\(String(bytes[i], radix: 16))): a command line is one line of text"
        case .status:
            let text = String(decoding: bytes, as: UTF8.self)
            return RunStatus(rawValue: text) != nil
                ? nil
                : "'\(text)' is not a status (expects ok, failed or crashed)"
        case .name:
            let allowed = Array("-_.+[]".utf8)
            guard
                bytes.allSatisfy({
                    ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 122) || allowed.contains($0)
                })
            else {
                return "'\(Self.shown(bytes))' is not a strategy name (letters, digits and - _ . + [ ] only)"
            }
            return nil
        case .count:
            guard !bytes.isEmpty else { return nil }
            guard bytes.count <= 19, bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                return "'\(Self.shown(bytes))' is not a count (expects a whole number ≥ 0, digits only)"
            }
            return nil
        case .decimal(let maximum):
            guard !bytes.isEmpty else { return nil }
            var digits = 0
            var points = 0
            var digitsBeforePoint = 0
            for byte in bytes {
                if byte >= 48 && byte <= 57 {
                    digits += 1
                    if points == 0 { digitsBeforePoint += 1 }
                } else if byte == UInt8(ascii: ".") {
                    points += 1
                } else {
                    digits = -1
                    break
                }
            }
            guard digits > 0, points <= 1, digitsBeforePoint > 0, bytes.last != UInt8(ascii: ".") else {
                return
                    "'\(Self.shown(bytes))' is not a number as loadgen writes it (digits with an optional decimal point, ≥ 0)"
            }
            guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite, value <= maximum else {
                return "'\(Self.shown(bytes))' is above \(Self.plain(maximum)), more than any run measures"
            }
            return nil
        }
    }

    private static func shown(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.count > 24 ? text.prefix(24) + "…" : text
    }

    private static func plain(_ v: Double) -> String {
        v == v.rounded() && v < 1e16 ? String(Int(v)) : "\(v)"
    }
}

/// A value a results cell holds.
package protocol ResultCell: Sendable {
    static var isText: Bool { get }
    /// What its cells may hold.
    static var domain: CellDomain { get }
    /// The value as a number, for statistics (nil for text).
    var numeric: Double? { get }
    init?(cell: String)
    /// The cell's text; `decimals` applies to fractions only.
    func cell(decimals: Int) -> String
}

extension Int: ResultCell {
    package var numeric: Double? { Double(self) }
    package static var isText: Bool { false }
    package static var domain: CellDomain { .count }
    package init?(cell: String) { self.init(cell) }
    package func cell(decimals: Int) -> String { String(self) }
}

extension UInt64: ResultCell {
    package var numeric: Double? { Double(self) }
    package static var isText: Bool { false }
    package static var domain: CellDomain { .count }
    package init?(cell: String) { self.init(cell) }
    package func cell(decimals: Int) -> String { String(self) }
}

extension Double: ResultCell {
    package var numeric: Double? { isFinite ? self : nil }
    package static var isText: Bool { false }
    package static var domain: CellDomain { .measured }
    package init?(cell: String) { self.init(cell) }
    /// Blank for infinities and NaN, which no reader of the file could use.
    package func cell(decimals: Int) -> String { isFinite ? Format.fixed(self, decimals) : "" }
}

extension String: ResultCell {
    package var numeric: Double? { nil }
    package static var isText: Bool { true }
    package static var domain: CellDomain { .text }
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
    private static func value<V: ResultCell>(
        _ column: Column, decimals: Int, domain: CellDomain? = nil,
        get: @escaping @Sendable (ResultRow) -> V?,
        set: @escaping @Sendable (inout ResultRow, V) -> Void
    ) -> ResultColumn {
        ResultColumn(
            column: column, isText: V.isText, isParameter: false, domain: domain ?? V.domain, rule: nil,
            number: { get($0)?.numeric },
            write: { get($0)?.cell(decimals: decimals) ?? "" },
            read: { row, cell in if let v = V(cell: cell) { set(&row, v) } })
    }

    /// The column, its cells held to `domain` rather than their type's.
    func holding(_ domain: CellDomain) -> ResultColumn {
        var column = self
        column.domain = domain
        return column
    }

    /// A value of the row itself (identity, repetition).
    static func row<V: ResultCell>(_ column: Column, _ path: WritableKeyPath<ResultRow, V> & Sendable) -> ResultColumn {
        value(column, decimals: 0, get: { $0[keyPath: path] }, set: { $0[keyPath: path] = $1 })
    }

    /// An optional value of the row itself, blank when absent; `maximum` bounds a decimal.
    static func row<V: ResultCell>(
        _ column: Column, _ path: WritableKeyPath<ResultRow, V?> & Sendable,
        decimals: Int = 0, maximum: Double? = nil
    ) -> ResultColumn {
        value(
            column, decimals: decimals, domain: maximum.map { .decimal(maximum: $0) },
            get: { $0[keyPath: path] }, set: { $0[keyPath: path] = $1 })
    }

    /// A measured value of the repetition, blank when absent.
    static func measured<V: ResultCell>(
        _ column: Column, _ path: WritableKeyPath<RunMeasurement, V?> & Sendable,
        decimals: Int = 0
    ) -> ResultColumn {
        value(
            column, decimals: decimals, get: { $0.measurement[keyPath: path] },
            set: { $0.measurement[keyPath: path] = $1 })
    }

    /// A parameter, as its parameter table rendered it: text, or a number ≥ 0 up to `maximum`.
    static func parameter(
        _ column: Column, text: Bool = false, maximum: Double = .greatestFiniteMagnitude,
        domain: CellDomain? = nil
    ) -> ResultColumn {
        ResultColumn(
            column: column, isText: text, isParameter: true,
            domain: domain ?? (text ? .text : .decimal(maximum: maximum)),
            rule: nil,
            write: { $0.parameters[column] }, read: { row, cell in row.parameters.fields[column.name] = cell })
    }

    /// A figure the strategy reported; the row's counters exist once one of them is read.
    static func strategy<V: ResultCell>(
        _ column: Column, _ path: WritableKeyPath<StrategyCounters, V?> & Sendable,
        decimals: Int = 0
    ) -> ResultColumn {
        value(
            column, decimals: decimals, get: { $0.measurement.strategy?[keyPath: path] },
            set: { row, v in
                var counters = row.measurement.strategy ?? StrategyCounters()
                counters[keyPath: path] = v
                row.measurement.strategy = counters
            })
    }

    /// A statement count; the row's snapshot exists once one of them is read.
    static func sql(_ column: Column, _ path: WritableKeyPath<StatementCounters.Snapshot, Int> & Sendable)
        -> ResultColumn
    {
        value(
            column, decimals: 0, get: { $0.measurement.sql?[keyPath: path] },
            set: { row, v in
                var sql = row.measurement.sql ?? StatementCounters.Snapshot()
                sql[keyPath: path] = v
                row.measurement.sql = sql
            })
    }

    /// A count of managed objects handled; the row's counts exist once one of them is read.
    static func objects(_ column: Column, _ path: WritableKeyPath<ObjectCounts, Int> & Sendable) -> ResultColumn {
        value(
            column, decimals: 0, get: { $0.measurement.objects?[keyPath: path] },
            set: { row, v in
                var objects = row.measurement.objects ?? ObjectCounts()
                objects[keyPath: path] = v
                row.measurement.objects = objects
            })
    }

    /// A verifier finding; the row's verification exists once one of them is read.
    static func verified<V: ResultCell>(_ column: Column, _ path: WritableKeyPath<Verification, V> & Sendable)
        -> ResultColumn
    {
        value(
            column, decimals: 0, get: { $0.measurement.verification?[keyPath: path] },
            set: { row, v in row.updateVerification { $0[keyPath: path] = v } })
    }

    /// An optional verifier finding (blank when the run had nothing to check it against).
    static func verified<V: ResultCell>(_ column: Column, _ path: WritableKeyPath<Verification, V?> & Sendable)
        -> ResultColumn
    {
        value(
            column, decimals: 0, get: { $0.measurement.verification?[keyPath: path] ?? nil },
            set: { row, v in row.updateVerification { $0[keyPath: path] = v } })
    }

    /// A column the file writes for its readers and `ResultRow(csv:)` derives from others.
    static func derived(
        _ column: Column, domain: CellDomain, number: (@Sendable (ResultRow) -> Double?)? = nil,
        _ write: @escaping @Sendable (ResultRow) -> String
    ) -> ResultColumn {
        ResultColumn(
            column: column, isText: false, isParameter: false, domain: domain, rule: nil, number: number, write: write,
            read: { _, _ in })
    }
}

extension ResultRow {
    fileprivate mutating func updateVerification(_ change: (inout Verification) -> Void) {
        var v =
            measurement.verification
            ?? Verification(storeRows: 0, duplicates: 0, lost: 0, badLinks: 0, integrity: "", storeBytes: 0)
        change(&v)
        measurement.verification = v
    }
}
