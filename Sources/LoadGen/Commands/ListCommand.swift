import Strategies
import Workload

/// `loadgen list`: strategies and datasets, one line each, with the idiom each models.
enum ListCommand {
    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            print(Help.render(usage: "loadgen list", about: "List the strategies and datasets.", specs: []), terminator: "")
            return ExitCode.success
        }
        try Arguments(command: "list", arguments: arguments, specs: []).refusePositional()
        print(render(), terminator: "")
        return ExitCode.success
    }

    /// What vs_limit divides by, exactly (the same words as the README and docs/decisions/0014).
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
        var text = ""
        let headings: [Operation: String] = [
            .import: "Import strategies (--operation import, the default):",
            .update: "Update strategies (--operation update; --fraction of a filled store):",
            .delete: "Delete strategies (--operation delete; --fraction of a filled store):",
            .read: "Read strategies (--operation read; a list screen of a filled store):",
        ]
        for operation in Operation.allCases {
            text += (text.isEmpty ? "" : "\n") + headings[operation]! + "\n"
            for s in StrategyRegistry.all where s.operation == operation {
                text += "  " + s.name.padding(toLength: width, withPad: " ", startingAt: 0) + s.summary + "\n"
                text += "  " + String(repeating: " ", count: width) + "models: " + s.idiom
                    + (s.defaultBatchSize.map { " (--batch-size \($0))" } ?? "") + "\n"
            }
        }
        text += "\n" + limitText
        text += "\nDatasets:\n"
        for d in Dataset.allCases {
            text += "  " + d.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + d.summary + "\n"
        }
        text += "  " + "--model PATH".padding(toLength: width, withPad: " ", startingAt: 0)
            + "a team's own Core Data model (.xcdatamodeld): every strategy on its entities (README: Your own model)\n"
        return text
    }
}
