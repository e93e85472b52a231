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

    static func render() -> String {
        let width = (StrategyRegistry.names + Dataset.allCases.map(\.rawValue)).map(\.count).max()! + 2
        var text = "Strategies:\n"
        for s in StrategyRegistry.all {
            text += "  " + s.name.padding(toLength: width, withPad: " ", startingAt: 0) + s.summary + "\n"
            text += "  " + String(repeating: " ", count: width) + "models: " + s.idiom + "\n"
        }
        text += "\nDatasets:\n"
        for d in Dataset.allCases {
            text += "  " + d.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + d.summary + "\n"
        }
        return text
    }
}
