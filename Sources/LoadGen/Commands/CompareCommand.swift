import Foundation
import Report

/// `loadgen compare BASELINE.csv CURRENT.csv [more CURRENT files]`: the nightly gate.
enum CompareCommand {
    static let about = "Compare results with a baseline: exact where the work is deterministic, noise-aware where it is not."

    static let specs: [OptionSpec] = [
        .option("--report", "FILE", "write the Markdown report to FILE instead of stdout"),
        .option("--near-exact", "R", "tolerance for allocations, instructions and VM steps that repeat (3 × their spread when wider)",
                default: "0.005"),
        .option("--speed", "R", "least vs_limit drop that counts (or twice the baseline's night-to-night drift; "
                + "0.10 for a baseline of one night)", default: "0.075"),
        .option("--memory", "R", "least peak RSS growth that counts (likewise; 0.20 for one night)", default: "0.075"),
        .option("--alpha", "P", "one-sided significance of the Mann-Whitney U test", default: "0.01"),
        .flag("--cross-machine", "compare rows of different machines, SQLite or Swift versions: work judged, time and memory only shown"),
        .flag("--allow-missing", "a configuration of the baseline missing from the new results is listed, not a failure"),
    ]

    static let footer = """
        Exit status: 0 no regression, 1 a regression or a configuration of the baseline not measured again,
        2 usage, a file that cannot be read (foreign, cut short, a bad cell, a file or shard given twice) or
        nothing in common to compare. Several CURRENT files (the shards of a sharded run) are merged first.
        """

    static func main(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") {
            print(Help.render(usage: "loadgen compare BASELINE.csv CURRENT.csv [CURRENT.csv …] [options]", about: about,
                              specs: specs, footer: footer), terminator: "")
            return ExitCode.success
        }
        do {
            return try run(arguments)
        } catch let error as CommandError {
            FileHandle.standardError.write(Data("loadgen: \(error.message)\n".utf8))
            return Self.usage
        } catch {
            // A CompareError (files that cannot be compared) or any other: the same line and status.
            FileHandle.standardError.write(Data("loadgen: compare: \(error)\n".utf8))
            return Self.usage
        }
    }

    /// compare's own convention (as diff and cmp): 2 for trouble, so that 1 means a regression.
    static let usage: Int32 = 2

    private static func run(_ arguments: [String]) throws -> Int32 {
        let a = try Arguments(command: "compare", arguments: arguments, specs: specs)
        guard a.positional.count >= 2 else {
            throw CommandError.usage("compare: expects BASELINE.csv and at least one CURRENT.csv (see 'loadgen compare --help')")
        }
        var options = Comparison.Options()
        options.nearExact = try a.double("--near-exact", default: 0.005, in: 0...1)!
        options.speed = try a.double("--speed", default: 0.075, in: 0...1)!
        options.memory = try a.double("--memory", default: 0.075, in: 0...10)!
        options.alpha = try a.double("--alpha", default: 0.01, in: 0.0001...0.5)!
        options.crossMachine = a.flag("--cross-machine")
        options.allowMissing = a.flag("--allow-missing")
        let report = a.string("--report")
        if let report { try ReportFile(path: report, signature: "## loadgen compare").check() }
        let baseline = try ComparisonSide.read([a.positional[0]])
        let current = try ComparisonSide.read(Array(a.positional.dropFirst()))
        let comparison = try Comparison(baseline: baseline, current: current, options: options)
        let text = CompareReport.render(comparison, baseline: baseline.files, current: current.files)
        if let report {
            try ReportFile(path: report, signature: "## loadgen compare").write(text)
        } else {
            print(text, terminator: "")
        }
        return comparison.isClean ? ExitCode.success : ExitCode.failure
    }
}
