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
        TemporaryFolders.sweepStale()
        do {
            var runner = Runner(plan: plan)
            let rows = try runner.runAll()
            if plan.json {
                print(try JSONOutput.render(rows))
            } else if !plan.quiet {
                print(Summary.render(rows), terminator: "")
            }
            // A lost output outranks a failed repetition: the failure is in the rows, the loss is not.
            if let failed = runner.outputFailures.first { return failed.exitCode }
            return rows.allSatisfy { $0.measurement.status == .ok } ? ExitCode.success : ExitCode.failure
        } catch is Interrupted {
            FileHandle.standardError.write(Data("\nloadgen: interrupted; the unfinished repetition was not recorded\n".utf8))
            return ExitCode.interrupted
        }
    }

    /// Every file problem is found before the first repetition, so nothing runs for nothing and
    /// no results file is created or touched when one of them is wrong.
    static func checkOutputs(_ plan: RunPlan) throws {
        try checkDistinct(plan)
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

    /// Each file a run writes (and the file it reads) must be its own: one named twice would be
    /// overwritten by the other at the end of the run, after all the work.
    static func checkDistinct(_ plan: RunPlan) throws {
        var files: [(flag: String, path: String)] = []
        if let out = plan.out { files.append(("--out", out)) }
        if let timeline = plan.timeline { files.append(("--timeline", timeline)) }
        if let store = plan.storePath, store != "memory" {
            files += StoreLocation.files(of: store).map { ("--store", $0) }
        }
        if let input = plan.inputPath { files.append(("--input", input)) }
        var seen: [String: (flag: String, path: String)] = [:]
        for file in files {
            let key = canonical(file.path)
            if let earlier = seen[key], earlier.flag != file.flag {
                throw CommandError.usage("run: \(earlier.flag) \(earlier.path) and \(file.flag) \(file.path) name the same file; "
                                         + "give each its own path")
            }
            seen[key] = file
        }
    }

    /// An absolute path with `.`/`..` and symbolic links in it resolved (as far as they exist).
    private static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// Runs the plan's repetitions in order and appends their rows as they finish.
struct Runner {
    let plan: RunPlan
    let system = SystemInfo.current(gitRevision: GitRevision.current())
    let invocation = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    private var sequence = 0
    /// Outputs that failed, by option, in order: each fails on its own and gets no more rows;
    /// the run goes on, its summary is printed, and the exit status reports the first.
    private(set) var outputFailures: [CommandError] = []
    private var failedOutputs: Set<String> = []

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
                append([row])
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
                             label: "\(strategy.name) \(label)", progress: plan.progress, timelinePath: timelinePart,
                             orphanPaths: location.orphanPaths)
        var measurement: RunMeasurement
        switch try ChildProcess.run(task) {
        case .finished(let m): measurement = m
        case .crashed(let reason):
            measurement = { var m = RunMeasurement(status: .crashed); m.error = reason; return m }()
        }
        // A kept store replaces the previous one only when this one is whole and verified.
        if measurement.verification != nil {
            do { try location.keep() } catch let error as CommandError { measurement.fail(error.message) }
        }
        if let timelinePart, let path = plan.timeline,
           let samples = FileManager.default.contents(atPath: timelinePart), !samples.isEmpty {
            let file = ResultsFile(path: path, header: TimelineWriter.header.components(separatedBy: ","))
            let rows = String(decoding: samples, as: UTF8.self).split(separator: "\n").map { $0.components(separatedBy: ",") }
            write("--timeline") { try file.append(rows) }
        }
        return (runID, started, measurement)
    }

    private mutating func append(_ rows: [ResultRow]) {
        guard let out = plan.out else { return }
        write("--out") { try ResultsFile(path: out).append(rows) }
    }

    /// Writes to the output of `flag` unless it failed before; a failure is reported once and
    /// remembered, and the run goes on.
    private mutating func write(_ flag: String, _ body: () throws -> Void) {
        guard !failedOutputs.contains(flag) else { return }
        do {
            try body()
        } catch {
            let code = (error as? ResultsFileError)?.exitCode ?? ExitCode.ioError
            let failure = CommandError(message: "run: \(flag): \(error)", exitCode: code)
            failedOutputs.insert(flag)
            outputFailures.append(failure)
            FileHandle.standardError.write(Data("loadgen: \(failure.message); \(flag) gets no more rows, the run goes on\n".utf8))
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
