import Strategies
import Workload

/// `loadgen list`: strategies and datasets, one line each, with the idiom each models.
enum ListCommand {
    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            print(Help.render(usage: "loadgen list", about: "List the strategies and datasets.", specs: []), terminator: "")
            return ExitCode.success
        }
        _ = try Arguments(command: "list", arguments: arguments, specs: [])
        print(render(), terminator: "")
        return ExitCode.success
    }

    /// What vs_limit divides by, exactly (the same words as the README and docs/DESIGN.md).
    static let limitText = """
        The limit: vs_limit = a repetition's rows/s ÷ the rows/s of raw-sqlite measured in the same round,
        on the same records (dataset, rows, seed, duplicate rate, key order and distribution, import file)
        and store settings (file or memory, journal, synchronous), committing all its rows in ONE
        transaction whatever --batch-size says, closed loop (no --rate) and with no --view-context. So the
        limit is one number across a batch-size, writers or rate sweep. run adds it when a strategy needs
        it (--no-limit to skip).

        """

    static func render() -> String {
        let width = (StrategyRegistry.names + Dataset.allCases.map(\.rawValue)).map(\.count).max()! + 2
        var text = "Strategies:\n"
        for s in StrategyRegistry.all {
            text += "  " + s.name.padding(toLength: width, withPad: " ", startingAt: 0) + s.summary + "\n"
            text += "  " + String(repeating: " ", count: width) + "models: " + s.idiom + "\n"
        }
        text += "\n" + limitText
        text += "\nDatasets:\n"
        for d in Dataset.allCases {
            text += "  " + d.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + d.summary + "\n"
        }
        return text
    }
}
