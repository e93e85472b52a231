import Foundation
import Strategies

/// One command of loadgen: its name, what it does in one line, its options and its entry point.
struct CommandEntry: Sendable {
    let name: String
    /// The line `loadgen --help` lists it with.
    let summary: String
    /// Its options, as its `--help` lists them (completions and the man page read the same).
    let specs: @Sendable () -> [OptionSpec]
    let main: @Sendable ([String]) throws -> Int32
    /// What its operands (the words that are not options) are, for completions.
    var operands: Operands = .none

    enum Operands: Sendable, Equatable {
        case none
        /// Files (results, baselines).
        case files
        /// One of these words.
        case words([String])
    }
}

/// Every command, in one table: the dispatch, `loadgen --help`, `loadgen help COMMAND`, the shell
/// completions and the man page are all made from it, so that none of them can forget a command
/// or an option another knows (swift-argument-parser's convention).
enum CommandTable {
    static let all: [CommandEntry] = [
        CommandEntry(
            name: "run", summary: "run strategies and record time, memory, SQL and store checks",
            specs: { RunPlan.specs + Suite.specs }, main: RunCommand.main),
        CommandEntry(
            name: "list", summary: "list strategies and datasets", specs: { ListCommand.specs }, main: ListCommand.main),
        CommandEntry(
            name: "generate", summary: "write a dataset as a JSON or NDJSON import file",
            specs: { GenerateCommand.specs }, main: GenerateCommand.main),
        CommandEntry(
            name: "compare", summary: "compare results with a baseline (the nightly gate); exit 1 on a regression",
            specs: { CompareCommand.specs }, main: { CompareCommand.main($0) }, operands: .files),
        CommandEntry(
            name: "ab",
            summary: "judge timing against a base revision built here: paired, interleaved runs (the A/B gate)",
            specs: { ABCommand.specs }, main: ABCommand.main),
        CommandEntry(
            name: "plot", summary: "draw the charts of results files with gnuplot (plots.gnuplot)",
            specs: { PlotCommand.specs }, main: PlotCommand.main, operands: .files),
        CommandEntry(
            name: "report",
            summary: "write a design-review page: summary, ranking, charts, store checks, how to reproduce",
            specs: { ReportCommand.specs }, main: ReportCommand.main, operands: .files),
        CommandEntry(
            name: "export",
            summary: "write results in another format: the summaries again, or a benchmark dashboard's JSON",
            specs: { ExportCommand.specs }, main: ExportCommand.main, operands: .files),
        CommandEntry(
            name: "verdict",
            summary: "render the pull-request gate's verdict from compare's and ab's JSON: a comment, or annotations",
            specs: { VerdictCommand.specs }, main: VerdictCommand.main),
        CommandEntry(
            name: "completions", summary: "print shell completions: loadgen completions bash|zsh|fish",
            specs: { [] }, main: Completions.main, operands: .words(Completions.shells)),
        CommandEntry(
            name: "man", summary: "print the manual page (roff): loadgen man > loadgen.1",
            specs: { [] }, main: ManualPage.main),
    ]

    static func named(_ name: String) -> CommandEntry? { all.first { $0.name == name } }

    /// `loadgen --help`.
    static var usage: String {
        let width = all.map(\.name.count).max()! + 2
        return """
            loadgen \(LoadGen.version): measures Core Data–style write strategies on a real SQLite store.

            Usage: loadgen <command> [options]

            Commands:
            \(all.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

            'loadgen help <command>' (or 'loadgen <command> --help', -h) for a command's options;
            'loadgen --version' for the version. Exit statuses: 'loadgen man', section EXIT STATUS.

            \(EnvironmentVariables.help)
            """
    }

    /// Runs `arguments`: a command, `help [command]`, `--version`; `-h` is `--help` everywhere.
    static func dispatch(_ arguments: [String]) throws -> Int32 {
        let command = arguments[0]
        let rest = arguments.dropFirst().map { $0 == "-h" ? "--help" : $0 }
        if let entry = named(command) { return try entry.main(rest) }
        switch command {
        case ChildCommand.name: return ChildCommand.main(Array(arguments.dropFirst()))
        case "--version", "version":
            print("loadgen \(LoadGen.version)")
            return ExitCode.success
        case "--help", "-h", "help":
            guard let topic = rest.first else {
                print(usage, terminator: "")
                return ExitCode.success
            }
            guard let entry = named(topic) else {
                throw CommandError.usage("help: unknown command '\(topic)'; expected \(names) (see 'loadgen --help')")
            }
            return try entry.main(["--help"])
        default:
            throw CommandError.usage("unknown command '\(command)'; expected \(names) (see 'loadgen --help')")
        }
    }

    /// "run, list, … or man".
    static var names: String {
        all.dropLast().map(\.name).joined(separator: ", ") + " or " + all.last!.name
    }

    /// What an option's value may be, where the set is closed: the strategies, the words a spec
    /// names for completion, or the choices its help names as `a|b|c`.
    static func values(of spec: OptionSpec) -> [String]? {
        if spec.name == "--strategy" { return StrategyRegistry.names + ["all"] }
        if let words = spec.completions { return words }
        guard let value = spec.value, value.contains("|"), !value.contains(" ") else { return nil }
        return value.split(separator: "|").map(String.init)
    }
}
