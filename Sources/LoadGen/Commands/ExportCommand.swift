import Foundation
import Report

/// `loadgen export RESULTS.csv… --format F`: results in one of the formats `Exporters` lists,
/// on stdout or into a file: the run's own summaries again from a file, or the JSON a team's
/// benchmark dashboard takes (Bencher, github-action-benchmark).
enum ExportCommand {
    static let about = "Write results in another format: the run's summaries again, or a benchmark dashboard's JSON."

    static var specs: [OptionSpec] {
        [.option("--format", "NAME", "one of: " + Exporters.all.map(\.format).joined(separator: ", ")),
         .option("--out", "FILE|-", "where to write it", default: "-")] + ConclusionFlags.specs
    }

    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            let formats = Exporters.all.map { "  \($0.format.padding(toLength: 26, withPad: " ", startingAt: 0))\($0.about)" }
            print(Help.render(usage: "loadgen export RESULTS.csv [more.csv …] --format NAME [--out FILE]", about: about, specs: specs,
                              footer: "Formats:\n" + formats.joined(separator: "\n") + "\n\n"
                                + "Example: loadgen export results/history.csv --format bmf --out bencher.json\n"),
                  terminator: "")
            return ExitCode.success
        }
        let a = try Arguments(command: "export", arguments: arguments, specs: specs)
        let names = Exporters.all.map(\.format)
        guard let format = a.string("--format") else {
            throw CommandError.usage("export: --format is required: give one of \(names.joined(separator: ", "))")
        }
        guard let exporter = Exporters.named(format) else {
            throw CommandError.usage("export: --format '\(format)' is not a format: give one of \(names.joined(separator: ", "))")
        }
        guard !a.positional.isEmpty else { throw CommandError.usage("export: expects one or more results CSV files") }
        let options = try ConclusionFlags.options(a)
        let rows = try Charts.distinctRuns(a.positional.map { ($0, try Charts.results($0, command: "export")) }, command: "export")
        let text = try exporter.render(ResultsSummary.make(rows, options: options))
        let out = a.string("--out") ?? "-"
        if out == "-" { print(text, terminator: ""); return ExitCode.success }
        guard FileManager.default.createFile(atPath: out, contents: Data(text.utf8)) else {
            throw CommandError(message: "export: cannot write --out \(out): \(String(cString: strerror(errno)))", exitCode: ExitCode.cannotCreate)
        }
        return ExitCode.success
    }
}
