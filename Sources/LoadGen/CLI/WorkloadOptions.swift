import Strategies
import Workload

/// The options that decide which records are generated: `run`'s workload parameters, taken
/// from the parameter table, one value each (`generate` writes one dataset).
enum WorkloadOptions {
    static let specs: [OptionSpec] = RunParameter.all.filter { RunParameter.workloadFlags.contains($0.flag) }.map { p in
        .option(p.flag, p.valueName, p.help, default: p.defaultText)
    }

    /// Reads and checks the workload options: the configuration whose records they describe.
    static func parse(_ a: Arguments) throws -> RunConfiguration {
        try RunPlan.checkModelFlags(a)
        var configuration = RunConfiguration()
        if a.has("--zipf-s") && a.string("--key-dist") != "zipf" {
            throw CommandError.usage("\(a.command): --zipf-s applies only with --key-dist zipf")
        }
        for parameter in RunParameter.all where RunParameter.workloadFlags.contains(parameter.flag) {
            guard let text = a.string(parameter.flag) else { continue }
            do { try parameter.set(text, in: &configuration) } catch {
                throw CommandError.usage("\(a.command): \(parameter.flag) expects \(error.accepted), got '\(text)'")
            }
        }
        return configuration
    }
}
