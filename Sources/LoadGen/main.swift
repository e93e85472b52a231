import CJemalloc
import Foundation

/// loadgen: which Core Data write strategy to use, settled by measuring.
enum LoadGen {
    static let version = "0.1.0"

    static let usage = """
        loadgen \(version): measures Core Data–style write strategies on a real SQLite store.

        Usage: loadgen <command> [options]

        Commands:
          run       run strategies and record time, memory, SQL and store checks
          list      list strategies and datasets
          generate  write a dataset as a JSON or NDJSON import file
          compare   compare results with a baseline (the nightly gate); exit 1 on a regression
          ab        judge timing against a base revision built here: paired, interleaved runs (the A/B gate)
          plot      draw the charts of results files with gnuplot (plots.gnuplot)
          report    write a design-review page: summary, ranking, charts, store checks, how to reproduce
          export    write results in another format: the summaries again, or a benchmark dashboard's JSON

        'loadgen <command> --help' for a command's options; 'loadgen --version' for the version.

        """

    static func main(_ arguments: [String]) -> Int32 {
        ProcessLimits.prepare()
        guard let command = arguments.first else {
            FileHandle.standardError.write(Data(usage.utf8))
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "run": return try RunCommand.main(rest)
            case "list": return try ListCommand.main(rest)
            case "generate": return try GenerateCommand.main(rest)
            case "compare": return CompareCommand.main(rest)
            case "ab": return try ABCommand.main(rest)
            case "plot": return try PlotCommand.main(rest)
            case "report": return try ReportCommand.main(rest)
            case "export": return try ExportCommand.main(rest)
            case ChildCommand.name: return ChildCommand.main(rest)
            case "--version", "version": print("loadgen \(version)"); return ExitCode.success
            case "--help", "-h", "help": print(usage, terminator: ""); return ExitCode.success
            default:
                throw CommandError.usage("unknown command '\(command)'; expected run, list, generate, compare, ab, plot, report or export (see 'loadgen --help')")
            }
        } catch let error as CommandError {
            FileHandle.standardError.write(Data("loadgen: \(error.message)\n".utf8))
            return error.exitCode
        } catch {
            FileHandle.standardError.write(Data("loadgen: \(error)\n".utf8))
            return ExitCode.software
        }
    }
}

// Linked for its malloc; this reference keeps the linker from dropping the library.
_ = CJemalloc.mallctl
exit(LoadGen.main(Array(CommandLine.arguments.dropFirst())))
