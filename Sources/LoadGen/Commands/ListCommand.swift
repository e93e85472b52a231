import Foundation
import Strategies
import Workload

/// `loadgen list`: strategies and datasets, one line each, with the idiom each models.
enum ListCommand {
    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            print(
                Help.render(usage: "loadgen list [--json]", about: "List the strategies and datasets.", specs: specs),
                terminator: "")
            return ExitCode.success
        }
        let a = try Arguments(command: "list", arguments: arguments, specs: specs)
        try a.refusePositional()
        print(a.flag("--json") ? try json() : render(), terminator: "")
        return ExitCode.success
    }

    static let specs: [OptionSpec] = [
        .flag(
            "--json",
            "the catalogue as JSON, for scripts and dashboards: every strategy with its operation, idiom and defaults")
    ]

    /// The catalogue as JSON: `strategies` (name, operation, summary, idiom, default batch size or
    /// null, limit, caveat or null) and `datasets` (name, summary). Numbers are numbers.
    static func json() throws -> String {
        let strategies: [[String: Any]] = StrategyRegistry.all.map { s in
            [
                // not a results column: a key of list --json
                "name": s.name, "operation": s.operation.rawValue, "summary": s.summary, "idiom": s.idiom,
                "default_batch_size": s.defaultBatchSize.map { $0 as Any } ?? NSNull(), "limit": s.isLimit,
                "caveat": s.caveat.isEmpty ? NSNull() : s.caveat as Any,
                "model_default": StrategyRegistry.modelImportIdioms.contains(s.name),
            ]
        }
        let datasets: [[String: Any]] = Dataset.allCases.map { ["name": $0.rawValue, "summary": $0.summary] }
        let data = try JSONSerialization.data(
            withJSONObject: ["strategies": strategies, "datasets": datasets],
            options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// What vs_limit divides by, exactly (the same words as docs/READING-RESULTS.md and docs/decisions/0014).
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
        let headings: [Strategies.Operation: String] = [
            .import: "Import strategies (--operation import, the default):",
            .update: "Update strategies (--operation update; --fraction of a filled store):",
            .delete: "Delete strategies (--operation delete; --fraction of a filled store):",
            .read: "Read strategies (--operation read; a list screen of a filled store):",
        ]
        for operation in Strategies.Operation.allCases {
            text += (text.isEmpty ? "" : "\n") + headings[operation]! + "\n"
            for s in StrategyRegistry.all where s.operation == operation {
                text += "  " + s.name.padding(toLength: width, withPad: " ", startingAt: 0) + s.summary + "\n"
                text +=
                    "  " + String(repeating: " ", count: width) + "models: " + s.idiom
                    + (s.defaultBatchSize.map { " (--batch-size \($0))" } ?? "") + "\n"
            }
        }
        text += "\n" + limitText
        text += "\nDatasets:\n"
        for d in Dataset.allCases {
            text += "  " + d.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + d.summary + "\n"
        }
        text +=
            "  " + "--model PATH".padding(toLength: width, withPad: " ", startingAt: 0)
            + "a team's own Core Data model (.xcdatamodeld): every strategy on its entities (docs/YOUR-MODEL.md)\n"
        return text
    }
}
