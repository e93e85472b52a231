import Foundation
import Report

/// `loadgen export RESULTS.csv… --format F`: results in one of the formats `Exporters` lists,
/// on stdout or into a file: the run's own summaries again from a file, or the JSON a team's
/// benchmark dashboard takes (Bencher, github-action-benchmark).
enum ExportCommand {
    static let about = "Write results in another format: the run's summaries again, or a benchmark dashboard's JSON."

    static var specs: [OptionSpec] {
        [
            .option(
                "--format", "NAME", "one of: " + Exporters.all.map(\.format).joined(separator: ", "),
                completions: Exporters.all.map(\.format)),
            .option("--out", "FILE|-", "where to write it", default: "-"),
            .option(
                "--night", "DATE|latest",
                "of results from several days (a history), the day to export (YYYY-MM-DD, UTC): the "
                    + "day's last run (its revision's rows), not every run of it pooled", default: "latest"),
            .option(
                "--run", "ID",
                "export the rows of one invocation (a run_id before its last '-', as compare and report name it) "
                    + "instead of a night"),
        ] + ConclusionFlags.specs
    }

    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            let formats = Exporters.all.map {
                "  \($0.format.padding(toLength: 26, withPad: " ", startingAt: 0))\($0.about)"
            }
            print(
                Help.render(
                    usage: "loadgen export RESULTS.csv [more.csv …] --format NAME [--out FILE]", about: about,
                    specs: specs,
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
            throw CommandError.usage(
                "export: --format '\(format)' is not a format: give one of \(names.joined(separator: ", "))")
        }
        guard !a.positional.isEmpty else { throw CommandError.usage("export: expects one or more results CSV files") }
        let resolved = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        if let out = a.string("--out"), out != "-", a.positional.map(resolved).contains(resolved(out)) {
            throw CommandError.usage("export: --out \(out) is one of the results files it reads: give another file")
        }
        if let out = a.string("--out"), out != "-" { try checkOut(out, exporter) }
        let all = try Charts.distinctRuns(
            a.positional.map { ($0, try Charts.results($0, command: "export")) }, command: "export")
        if a.has("--run") && a.has("--night") { throw CommandError.usage("export: give --night or --run, not both") }
        let rows = try a.string("--run").map { try run($0, of: all) } ?? night(a.string("--night") ?? "latest", of: all)
        // Without a conclusion flag, the run's own (its recorded command), when its invocations agree.
        let (options, differing) = try ConclusionFlags.reading(a, rows: rows)
        if !differing.isEmpty {
            FileHandle.standardError.write(
                Data(
                    ("export: the invocations in these results asked different things ("
                        + differing.map { $0.asked.isEmpty ? "the defaults" : $0.asked }.joined(separator: "; ")
                        + "); their recommendations use the defaults: give the flags to choose\n").utf8))
        }
        let text: String
        do { text = try exporter.render(ResultsSummary.make(rows, options: options)) } catch let nothing
            as NothingToExport
        {
            throw CommandError(message: "export: \(nothing.why); nothing was written", exitCode: ExitCode.dataError)
        }
        let out = a.string("--out") ?? "-"
        if out == "-" {
            print(text, terminator: "")
            return ExitCode.success
        }
        try write(text, to: out, exporter)
        return ExitCode.success
    }

    /// The rows of one day (`started_at`'s UTC date): a history of nightlies pooled into one point
    /// per benchmark would draw a year as a night (issue 47). The latest day unless one is named;
    /// said on stderr when the file holds several.
    static func night(_ asked: String, of rows: [ResultRow]) throws -> [ResultRow] {
        let day = { (row: ResultRow) in String(row.identity.startedAt.prefix(10)) }
        let days = Set(rows.map(day)).sorted()
        let chosen = asked == "latest" ? days.last ?? "" : asked
        guard days.contains(chosen) else {
            throw CommandError.usage(
                "export: --night \(asked): the results hold \(days.first ?? "")…\(days.last ?? ""); give one of "
                    + "those days (YYYY-MM-DD) or latest")
        }
        if days.count > 1 {
            FileHandle.standardError.write(
                Data(
                    "export: the results hold \(days.count) days; exporting \(chosen) (--night DATE for another)\n".utf8
                ))
        }
        // The day's last run: the rows of the revision measured last that day (a nightly's shards
        // share it). A day with a second run (a re-run, a manual run of another revision) pooled
        // both into one point per benchmark (issue 58, item 2).
        let today = rows.filter { day($0) == chosen }
        let revisions = Dictionary(grouping: today, by: \.identity.system.gitRevision)
        guard revisions.count > 1,
            let last = revisions.max(by: { a, b in
                (a.value.map(\.identity.startedAt).max() ?? "") < (b.value.map(\.identity.startedAt).max() ?? "")
            })
        else { return today }
        FileHandle.standardError.write(
            Data(
                ("export: \(chosen) holds runs of \(revisions.count) revisions; exporting the last, "
                    + "\(last.key) (--run ID for another: \(invocations(of: today).joined(separator: ", ")))\n").utf8))
        return last.value
    }

    /// The rows of invocation `id` (a run_id before its last `-`).
    static func run(_ id: String, of rows: [ResultRow]) throws -> [ResultRow] {
        let mine = rows.filter { invocation(of: $0) == id }
        guard !mine.isEmpty else {
            let known = invocations(of: rows)
            throw CommandError.usage(
                "export: --run \(id): no such run in these results; give one of "
                    + known.prefix(8).joined(separator: ", ") + (known.count > 8 ? ", …" : ""))
        }
        return mine
    }

    private static func invocation(of row: ResultRow) -> String {
        let id = row.identity.runID
        return id.lastIndex(of: "-").map { String(id[..<$0]) } ?? id
    }

    private static func invocations(of rows: [ResultRow]) -> [String] { rows.map(invocation(of:)).uniqued() }

    /// Before anything is read: `out` is new, empty, a device, or this format's own output
    /// (`Exporter.wrote`), through its links; anything else is the user's and is refused, naming
    /// it (73).
    private static func checkOut(_ out: String, _ exporter: any Exporter) throws {
        let output: OutputPath
        do { output = try OutputPath(out) } catch {
            throw CommandError(message: "export: --out \(error)", exitCode: ExitCode.cannotCreate)
        }
        if output.isStream { return }
        if let problem = OutputName.problem(out) { throw CommandError.usage("export: --out \(out): \(problem)") }
        if out.hasSuffix("/") {
            throw CommandError.usage("export: --out \(out) names a folder; give a file name (\(out)bencher.json)")
        }
        var isDirectory: ObjCBool = false
        let folder = URL(fileURLWithPath: output.target).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandError(
                message: "export: --out \(out): the folder \(folder) does not exist; create it or choose another path",
                exitCode: ExitCode.cannotCreate)
        }
        switch output.kind {
        case .missing, .stream: return
        case .folder:
            throw CommandError(
                message: "export: --out \(out) is a folder; give a file name", exitCode: ExitCode.cannotCreate)
        case .other:
            throw CommandError(
                message: "export: --out \(OutputPathError.notAFile(out))", exitCode: ExitCode.cannotCreate)
        case .regular: break
        }
        guard let data = FileManager.default.contents(atPath: output.target) else {
            throw CommandError(
                message: "export: --out \(out) cannot be read to check it is export's own; choose another file",
                exitCode: ExitCode.cannotCreate)
        }
        let marked =
            !exporter.marksBeside
            ? exporter.wrote(data)
            : FileManager.default.contents(atPath: ExportMark.sidecar(of: output.target))
                == Data(ExportMark.digest(data).utf8)
        guard data.isEmpty || marked else {
            throw CommandError(
                message: "export: --out \(out) exists and is not \(exporter.format) output export wrote; choose "
                    + "another file, or remove it (export only replaces its own)", exitCode: ExitCode.cannotCreate)
        }
    }

    /// Writes `text` as the whole of `out` (`OutputPath`): a device in place, a link through, a
    /// regular file renamed over from beside it, so a failure leaves what was there.
    private static func write(_ text: String, to out: String, _ exporter: any Exporter) throws {
        do {
            let output = try OutputPath(out)
            try output.replace(with: Data(text.utf8))
            if exporter.marksBeside && !output.isStream {
                try OutputPath(ExportMark.sidecar(of: output.target)).replace(
                    with: Data(ExportMark.digest(Data(text.utf8)).utf8))
            }
        } catch {
            // A full disk or a size limit is the environment's (74, as run and plot say it).
            throw CommandError(
                message: "export: --out: \(error)"
                    + (error.isDiskFull
                        ? " (the disk filled or a file-size limit was met; free space, or raise ulimit -f)" : ""),
                exitCode: error.isDiskFull ? ExitCode.ioError : ExitCode.cannotCreate)
        }
    }
}
