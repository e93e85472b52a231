import Foundation

/// One output format of results: the terminal summary, Markdown, JSON, the summary CSV, and the
/// formats continuous-benchmarking services take (Bencher's BMF, github-action-benchmark's). Each
/// is one type; `Exporters.all` is the one place they are listed, where `loadgen export
/// --format` and a run's output flags find them.
package protocol Exporter: Sendable {
    /// The `--format` name.
    var format: String { get }
    /// One line for `--help`.
    var about: String { get }
    func render(_ summary: RunSummary) throws -> String
    /// True when `existing` is what this format writes: `export --out` replaces only its own
    /// output (a file of another kind, a results CSV through a hard link, is the user's).
    func wrote(_ existing: Data) -> Bool
    /// The format has no place for a mark: a sidecar beside the file carries it (`ExportMark.sidecar`).
    var marksBeside: Bool { get }
}

extension Exporter {
    /// No mark to recognise it by: an existing file is never replaced.
    package func wrote(_ existing: Data) -> Bool { false }
    package var marksBeside: Bool { false }
}

/// Recognising a format's own output by a mark of authorship, never by its shape alone: another
/// tool's BMF or JSON has the same shape (issue 55, item 3).
package enum ExportMark {
    /// The mark: the JSON export's `generator`, each github-action-benchmark entry's `extra`.
    package static let author = "loadgen"

    /// A format with no place for a mark (BMF: every key is a benchmark, every measure's member a
    /// value) is marked beside it: `.<name>.loadgen` holds a digest of what was written, and a file
    /// is export's own while its digest matches.
    package static func sidecar(of path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".loadgen").path
    }

    /// The sidecar's text for `data`: FNV-1a over its bytes.
    package static func digest(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in data { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return author + " " + String(hash, radix: 16) + "\n"
    }

    /// The file begins with `prefix`.
    static func starts(_ data: Data, with prefix: String) -> Bool { data.starts(with: Data(prefix.utf8)) }

    /// The file is JSON whose top level passes `test`.
    static func json(_ data: Data, _ test: (Any) -> Bool) -> Bool {
        (try? JSONSerialization.jsonObject(with: data)).map(test) ?? false
    }
}

/// Every format, in the order `--help` lists them.
package enum Exporters {
    package static let all: [any Exporter] = [
        TerminalExporter(), MarkdownExporter(), JSONExporter(), SummaryCSVExporter(),
        BencherExporter(), GitHubBenchmarkExporter(better: .lower), GitHubBenchmarkExporter(better: .higher),
    ]

    /// The exporter of `format`, nil when there is none.
    package static func named(_ format: String) -> (any Exporter)? { all.first { $0.format == format } }
}

// MARK: The run's own formats

package struct TerminalExporter: Exporter {
    package init() {}
    package var format: String { "terminal" }
    package var about: String { "the summary a run prints: tables, rankings and the recommendation" }
    package func render(_ summary: RunSummary) -> String { Summary.render(summary) }
}

package struct MarkdownExporter: Exporter {
    package init() {}
    package var format: String { "markdown" }
    package var about: String { "the summary table as Markdown (what --markdown writes)" }
    package func render(_ summary: RunSummary) -> String { MarkdownExport.render(summary) }
    package func wrote(_ existing: Data) -> Bool { ExportMark.starts(existing, with: MarkdownExport.signature) }
}

package struct JSONExporter: Exporter {
    package init() {}
    package var format: String { "json" }
    package var about: String { "every repetition and the summary as JSON (what --json prints)" }
    package func render(_ summary: RunSummary) throws -> String { try JSONExport.render(summary) + "\n" }
    package func wrote(_ existing: Data) -> Bool {
        ExportMark.json(existing) { ($0 as? [String: Any])?["generator"] as? String == ExportMark.author }
    }
}

package struct SummaryCSVExporter: Exporter {
    package init() {}
    package var format: String { "summary-csv" }
    package var about: String { "one row per configuration with its statistics (what --summary-csv writes)" }
    package func render(_ summary: RunSummary) -> String { SummaryCSV.render(summary) }
    package func wrote(_ existing: Data) -> Bool { ExportMark.starts(existing, with: SummaryCSV.signature) }
}
