import Foundation
import ObjectGraph
import Report
import Strategies
import Workload

/// `loadgen run`: runs strategies, each repetition in a child process, verifies, records.
enum RunCommand {
    static let about = "Run write strategies against a generated dataset in a real SQLite store and measure them."

    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            print(Help.render(usage: "loadgen run [options]", about: about, specs: RunPlan.specs,
                              footer: "Example: loadgen run --strategy batch --rows 100000"), terminator: "")
            return ExitCode.success
        }
        var plan = try RunPlan(Arguments(command: "run", arguments: arguments, specs: RunPlan.specs))
        try checkOutputs(plan)
        if let path = plan.inputPath {
            let file = try InputFile.scan(path)
            if arguments.contains("--dataset"), plan.workload.dataset != file.dataset {
                throw CommandError.usage("run: --dataset \(plan.workload.dataset.rawValue) does not match \(path), "
                                         + "which holds \(file.dataset.rawValue) records")
            }
            plan.input = file
            plan.workload.dataset = file.dataset
            plan.workload.rows = file.records
        }
        Interrupts.shared.install()
        do {
            var runner = Runner(plan: plan)
            let rows = try runner.runAll()
            if plan.json {
                print(try JSONOutput.render(rows))
            } else if !plan.quiet {
                print(Summary.render(rows), terminator: "")
            }
            return rows.allSatisfy { $0.measurement.status == .ok } ? ExitCode.success : ExitCode.failure
        } catch is Interrupted {
            FileHandle.standardError.write(Data("\nloadgen: interrupted; the unfinished repetition was not recorded\n".utf8))
            return ExitCode.interrupted
        }
    }

    /// Every file problem is found before the first repetition, so nothing runs for nothing and
    /// no results file is created or touched when one of them is wrong.
    static func checkOutputs(_ plan: RunPlan) throws {
        if let out = plan.out {
            do { try ResultsFile(path: out).checkAppendable() } catch let error as ResultsFileError {
                throw CommandError(message: "run: --out: \(error)", exitCode: error.exitCode)
            }
        }
        if let timeline = plan.timeline {
            let file = ResultsFile(path: timeline, header: TimelineWriter.header.components(separatedBy: ","))
            do { try file.checkAppendable() } catch let error as ResultsFileError {
                throw CommandError(message: "run: --timeline: \(error)", exitCode: error.exitCode)
            }
        }
        if let store = plan.storePath, store != "memory" { try StoreLocation.check(store) }
    }
}

/// Runs the plan's repetitions in order and appends their rows as they finish.
struct Runner {
    let plan: RunPlan
    let system = SystemInfo.current(gitRevision: GitRevision.current())
    let invocation = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    private var sequence = 0

    init(plan: RunPlan) { self.plan = plan }

    /// Repetitions run in rounds: each strategy once per round, `raw-sqlite` first (the plan puts
    /// it first). A row's `vs_limit` divides by the `raw-sqlite` repetition of its own round, so
    /// a machine that speeds up or slows down during an invocation (caches, neighbours, heat)
    /// shifts both sides of the ratio alike, where a median of repetitions run long before would
    /// not. Rows are appended the moment they are measured; the result is grouped by strategy.
    mutating func runAll() throws -> [ResultRow] {
        for strategy in plan.strategies {
            for w in 0..<plan.warmups { _ = try repetition(strategy, label: "warmup \(w + 1)/\(plan.warmups)", timeline: false) }
        }
        var rows: [String: [ResultRow]] = [:]
        for r in 1...plan.repeats {
            var limit: Double?
            for strategy in plan.strategies {
                let (id, started, measurement) = try repetition(strategy, label: "\(r)/\(plan.repeats)", timeline: true)
                var row = ResultRow(identity: RunIdentity(runID: id, startedAt: started, system: system),
                                    parameters: plan.parameters(for: strategy, repetition: r), measurement: measurement)
                if strategy.name == RawSQLiteStrategy().name { limit = measurement.rowsPerSecond }
                if let limit, let rate = measurement.rowsPerSecond { row.vsLimit = rate / limit }
                try append([row])
                rows[strategy.name, default: []].append(row)
            }
        }
        return plan.strategies.flatMap { rows[$0.name] ?? [] }
    }

    private mutating func repetition(_ strategy: any WriteStrategy, label: String,
                                     timeline: Bool) throws -> (String, String, RunMeasurement) {
        sequence += 1
        let runID = "\(invocation)-\(sequence)"
        let started = ISO8601DateFormatter().string(from: Date())
        let location = try StoreLocation(plan: plan, runID: runID)
        defer { location.remove() }
        let timelinePart = timeline && plan.timeline != nil ? location.folder + "/timeline.csv" : nil
        let task = ChildTask(strategy: strategy.name, workload: plan.workload, store: location.options,
                             batchSize: plan.batchSize, writers: plan.writers,
                             producerLatencyMicroseconds: plan.producerLatencyMicroseconds,
                             coordinators: plan.coordinators, input: plan.input?.path, rate: plan.rate,
                             viewContext: plan.viewContext, runID: runID,
                             label: "\(strategy.name) \(label)", progress: plan.progress, timelinePath: timelinePart)
        let measurement: RunMeasurement
        switch try ChildProcess.run(task) {
        case .finished(let m): measurement = m
        case .crashed(let reason):
            measurement = { var m = RunMeasurement(status: .crashed); m.error = reason; return m }()
        }
        if let timelinePart, let path = plan.timeline,
           let samples = FileManager.default.contents(atPath: timelinePart), !samples.isEmpty {
            try appendTimeline(String(decoding: samples, as: UTF8.self), to: path)
        }
        return (runID, started, measurement)
    }

    private func append(_ rows: [ResultRow]) throws {
        guard let out = plan.out else { return }
        do { try ResultsFile(path: out).append(rows) } catch let error as ResultsFileError {
            throw CommandError(message: "run: --out: \(error)", exitCode: error.exitCode)
        }
    }

    private func appendTimeline(_ text: String, to path: String) throws {
        let file = ResultsFile(path: path, header: TimelineWriter.header.components(separatedBy: ","))
        let rows = text.split(separator: "\n").map { $0.components(separatedBy: ",") }
        do { try file.append(rows) } catch let error as ResultsFileError {
            throw CommandError(message: "run: --timeline: \(error)", exitCode: error.exitCode)
        }
    }
}

/// `--json`: the rows as an array of objects keyed by CSV column name.
enum JSONOutput {
    static func render(_ rows: [ResultRow]) throws -> String {
        let objects = rows.map { row in Dictionary(uniqueKeysWithValues: zip(ResultRow.header, row.fields)) }
        let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
