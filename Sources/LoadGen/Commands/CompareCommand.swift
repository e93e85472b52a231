import Foundation
import Report
import Strategies

/// `loadgen compare BASELINE.csv CURRENT.csv [more CURRENT files]`: the nightly gate.
enum CompareCommand {
    static let about =
        "Compare results with a baseline: exact where the work is deterministic, noise-aware where it is not."

    static let specs: [OptionSpec] =
        [
            .option("--report", "FILE|-", "write the Markdown report to FILE instead of stdout"),
            .option(
                "--near-exact", "R",
                "tolerance for allocations, instructions and VM steps that repeat (3 × their spread when wider)",
                default: "0.005"),
        ] + NoisyThreshold.allCases.map { .option($0.flag, "R", $0.help, default: String($0.defaultFloor)) } + [
            .option("--alpha", "P", "one-sided significance of the Mann-Whitney U test", default: "0.01"),
            .flag(
                "--cross-machine",
                "compare rows of different machines, SQLite or Swift versions: work judged, time and memory only shown"),
            .option(
                "--figures", "FILE",
                "write FILE: the baseline's work figures one per line (its diff is what a rebaseline moved), and stop"),
            .option(
                "--good", "REV", "a revision where the figures matched (the last green night): named in how to bisect"),
            .option(
                "--json", "FILE|-",
                "also write the verdict as JSON (what moved, by how much, the exit status) to FILE (- for stdout)"),
            .flag(
                "--work-only",
                "judge work only (SQL, rows, allocations, instructions): time and memory are the A/B gate's (loadgen ab)"
            ),
            .flag(
                "--allow-missing",
                "a configuration of the baseline missing from the new results is listed, not a failure"),
        ]

    static let footer = """
        Exit status: 0 no regression, 1 a regression or a configuration of the baseline not measured again,
        2 usage, a file that cannot be read (foreign, cut short, a bad cell, a file or shard given twice) or
        nothing in common to compare. Several CURRENT files (the shards of a sharded run) are merged first.
        """

    static func main(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") {
            print(
                Help.render(
                    usage: "loadgen compare BASELINE.csv CURRENT.csv [CURRENT.csv …] [options]", about: about,
                    specs: specs, footer: footer), terminator: "")
            return ExitCode.success
        }
        do {
            return try run(arguments)
        } catch let error as CommandError {
            FileHandle.standardError.write(Data("loadgen: \(Format.escapingControls(error.message))\n".utf8))
            return error.exitCode
        } catch let error as CompareError {
            FileHandle.standardError.write(Data("loadgen: compare: \(Format.escapingControls("\(error)"))\n".utf8))
            return Self.exitCode(of: error)
        } catch {
            FileHandle.standardError.write(Data("loadgen: compare: \(Format.escapingControls("\(error)"))\n".utf8))
            return ExitCode.software
        }
    }

    /// The exit-status table's code for files that cannot be compared: 66 unreadable, 65
    /// malformed, 2 (not judged) for sound files that cannot be judged against each other. Until
    /// issue 58 compare answered 2 to all of them, a usage error included, unlike every other
    /// command; 1 still means a regression and only that.
    static func exitCode(of error: CompareError) -> Int32 {
        switch error {
        case .unreadable: return ExitCode.noInput
        case .malformed: return ExitCode.dataError
        case .foreignMachines, .nothingInCommon: return ExitCode.notJudged
        }
    }

    private static func run(_ arguments: [String]) throws -> Int32 {
        let a = try Arguments(command: "compare", arguments: arguments, specs: specs)
        if let figures = a.string("--figures") {
            guard a.positional.count == 1 else {
                throw CommandError.usage("compare: --figures FILE takes one BASELINE.csv")
            }
            let file = try checked("--figures", ReportFile(path: figures, signature: BaselineFigures.signature))
            let side = try ComparisonSide.read(a.positional)
            try written("--figures", file, BaselineFigures.render(side))
            return ExitCode.success
        }
        guard a.positional.count >= 2 else {
            throw CommandError.usage(
                "compare: expects BASELINE.csv and at least one CURRENT.csv (see 'loadgen compare --help')")
        }
        var options = Comparison.Options()
        options.nearExact = try a.double("--near-exact", default: 0.005, in: 0...1)!
        for threshold in NoisyThreshold.allCases {
            options.floors[threshold] = try a.double(
                threshold.flag, default: threshold.defaultFloor, in: 0...threshold.maximum)!
        }
        options.alpha = try a.double("--alpha", default: 0.01, in: 0.0001...0.5)!
        options.crossMachine = a.flag("--cross-machine")
        options.allowMissing = a.flag("--allow-missing")
        options.workOnly = a.flag("--work-only")
        // Both checked before any file is read: a name that cannot be written fails now, not after.
        let report = try a.string("--report").map {
            try checked("--report", ReportFile(path: $0, signature: "## loadgen compare"))
        }
        let json = try a.string("--json").map {
            try checked("--json", ReportFile(path: $0, signature: GateVerdict.signature("compare")))
        }
        let baseline = try ComparisonSide.read([a.positional[0]])
        let current = try ComparisonSide.read(Array(a.positional.dropFirst()))
        let comparison = try Comparison(baseline: baseline, current: current, options: options)
        // The baseline given again (a misconfigured path) would compare equal and pass.
        if current.invocations.isSubset(of: baseline.invocations) {
            throw CommandError.usage(
                "compare: \(current.files.joined(separator: ", ")) holds no run the baseline \(baseline.files[0]) "
                    + "does not (the same run ids): give the new results as CURRENT.csv")
        }
        let text =
            CompareReport.render(comparison, baseline: baseline.files, current: current.files)
            + Bisect.hint(comparison, good: a.string("--good"))
        if let report { try written("--report", report, text) } else { print(text, terminator: "") }
        let status = comparison.isClean ? ExitCode.success : ExitCode.failure
        if let json { try written("--json", json, GateVerdict.json(comparison, status: status)) }
        return status
    }

    /// `file` once it can be written, or the reason with its flag.
    private static func checked(_ flag: String, _ file: ReportFile) throws -> ReportFile {
        // The error's own status: 64 for a name without room, 73 for a loop, a folder or a file
        // loadgen did not write (one table for every command: ExitCode.documented).
        do { try file.check() } catch let error as ResultsFileError {
            throw CommandError(message: "compare: \(flag) \(error)", exitCode: error.exitCode)
        }
        return file
    }

    private static func written(_ flag: String, _ file: ReportFile, _ text: String) throws {
        do { try file.write(text) } catch let error as ResultsFileError {
            throw CommandError(message: "compare: \(flag) \(error)", exitCode: error.exitCode)
        }
    }
}

/// How to find the commit that moved an exact figure: exact figures repeat, so `git bisect run`
/// can test each commit on one repetition of the one configuration (scripts/bisect-figure).
enum Bisect {
    /// The first exact regression's bisect command, or "" when there is none.
    static func hint(_ c: Comparison, good: String?) -> String {
        let exact = Set(Comparison.exactFigureNames)
        guard
            let f = c.regressions.first(where: {
                exact.contains($0.figure) && Int($0.baseline.replacingOccurrences(of: ",", with: "")) != nil
            }),
            !f.parameters.isEmpty
        else { return "" }
        let expected = f.baseline.replacingOccurrences(of: ",", with: "")
        let args = arguments(f.parameters).map(Runner.shellQuoted).joined(separator: " ")
        return "\n### Find the commit\n\nThe first exact figure that moved is \(f.figure) of \(f.configuration) "
            + "(\(f.baseline) → \(f.now)). Exact figures repeat, so git bisect can test each commit on one repetition:\n\n"
            + "```sh\ngit bisect start HEAD \(good ?? "<a revision where it was \(expected)>")\n"
            + "git bisect run scripts/bisect-figure \(f.figure) \(expected) \(args)\ngit bisect reset\n```\n"
    }

    /// The `run` options that make a configuration again, from its parameter columns.
    static func arguments(_ parameters: [String: String]) -> [String] {
        RunConfiguration.arguments(fromCSV: parameters)
    }
}
