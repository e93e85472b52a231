import Foundation

/// The figures a benchmark dashboard tracks, per configuration: every column declared with a
/// `DashboardMetric` (`ResultColumn.tracked`), its median over the repetitions that were ok and
/// their range. A configuration counted under callgrind gives only its counts (its time and
/// memory are callgrind's) and is named apart.
struct TrackedFigures {
    struct Figure {
        let column: String
        let metric: DashboardMetric
        let value: Double, low: Double, high: Double
    }

    let benchmark: String
    let figures: [Figure]

    /// The columns that measure time or memory: not tracked under callgrind.
    static let timed: Set<Column> = [.wallS, .rowsPerS, .vsLimit, .peakRssBytes, .peakHeapBytes]

    init(_ c: RunSummary.Configuration, defaults: [Column: String]) {
        benchmark = Self.name(c, defaults: defaults)
        figures = ResultRow.columns.compactMap { column in
            guard let metric = column.metric, !(c.underCallgrind && Self.timed.contains(column.column)) else {
                return nil
            }
            guard let stats = c.statistics(of: column) else { return nil }
            return Figure(column: column.name, metric: metric, value: stats.median, low: stats.min, high: stats.max)
        }
    }

    /// "context-reset rows=20000 dup_rate=0.1000 journal=delete": the strategy and every
    /// parameter of the configuration's identity (what `compare` tells configurations apart by)
    /// whose value is not its default, so two configurations never share a name (eight differing
    /// in --journal, --key-order and --cache-size were one benchmark, issue 47) and a parameter
    /// added later, at its default, renames no benchmark. `unique_keys` follows from the others.
    static func name(_ c: RunSummary.Configuration, defaults: [Column: String]) -> String {
        let words = ResultRow.parameterColumns.compactMap { column -> String? in
            let value = c.parameters[column]
            guard column.isFreeParameter, !value.isEmpty, value != defaults[column] else {
                return nil
            }
            return "\(column)=\(value)"
        }
        return ([c.strategy] + words).joined(separator: " ") + (c.underCallgrind ? " [callgrind]" : "")
    }

    /// Every configuration's figures, in the summary's order; throws when there are none (a
    /// dashboard fed `[]` shows a night without a word).
    static func of(_ summary: RunSummary) throws(NothingToExport) -> [TrackedFigures] {
        let tracked = summary.configurations.map { TrackedFigures($0, defaults: summary.options.parameterDefaults) }
            .filter { !$0.figures.isEmpty }
        guard !tracked.isEmpty else {
            throw NothingToExport(
                why: "no configuration has a tracked figure (every repetition failed, or none was ok)")
        }
        return tracked
    }

    /// "rows_per_s" as a slug: "rows-per-s".
    static func slug(_ column: String) -> String { column.replacingOccurrences(of: "_", with: "-") }
}

/// Why an export would have been empty.
package struct NothingToExport: Error, Sendable {
    package let why: String
}

/// Bencher's metric format (BMF): `{"<benchmark>": {"<measure>": {"value", "lower_value",
/// "upper_value"}}}`, the median and the repetitions' range, a measure per tracked figure.
package struct BencherExporter: Exporter {
    package init() {}
    package var format: String { "bmf" }
    package var about: String {
        "Bencher's metric format (BMF JSON): each configuration's tracked figures, median and range"
    }

    package func render(_ summary: RunSummary) throws -> String {
        var document: [String: Any] = [:]
        for tracked in try TrackedFigures.of(summary) {
            var measures: [String: Any] = [:]
            for f in tracked.figures {
                measures[TrackedFigures.slug(f.column)] = [
                    "value": f.value, "lower_value": f.low, "upper_value": f.high,
                ]
            }
            document[tracked.benchmark] = measures
        }
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// BMF has no place for a mark: its sidecar says export wrote it (`ExportMark.sidecar`).
    package var marksBeside: Bool { true }
}

/// github-action-benchmark's `customSmallerIsBetter` or `customBiggerIsBetter` input: an array of
/// `{"name", "unit", "value", "range"}`, one entry per configuration and figure of that polarity
/// (the action takes one polarity per file).
package struct GitHubBenchmarkExporter: Exporter {
    let better: DashboardMetric.Better
    package init(better: DashboardMetric.Better) { self.better = better }

    package var format: String { better == .lower ? "github-smaller-is-better" : "github-bigger-is-better" }
    package var about: String {
        "github-action-benchmark's custom\(better == .lower ? "SmallerIsBetter" : "BiggerIsBetter") JSON: the figures "
            + "where \(better == .lower ? "less" : "more") is better"
    }

    package func render(_ summary: RunSummary) throws -> String {
        var entries: [[String: Any]] = []
        for tracked in try TrackedFigures.of(summary) {
            for f in tracked.figures where f.metric.better == better {
                entries.append([
                    "name": "\(tracked.benchmark) · \(f.column)", "unit": f.metric.unit, "value": f.value,
                    "range": "\(Format.plain(f.low))…\(Format.plain(f.high))", "extra": ExportMark.author,
                ])
            }
        }
        let data = try JSONSerialization.data(withJSONObject: entries, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// An array of entries, each with a name, a unit and a value.
    package func wrote(_ existing: Data) -> Bool {
        ExportMark.json(existing) { top in
            (top as? [Any])?.allSatisfy { entry in
                guard let e = entry as? [String: Any] else { return false }
                return e["name"] != nil && e["value"] != nil && e["extra"] as? String == ExportMark.author
            } ?? false
        }
    }
}
