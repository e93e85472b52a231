import Foundation
import ObjectGraph
import Report
import Strategies
import Workload

/// A validated `loadgen run`: every flag read, checked and defaulted, before anything runs.
struct RunPlan {
    var strategies: [any WriteStrategy]
    var workload = WorkloadSpec()
    var batchSize: Int?
    var writers = 1
    var producerLatencyMicroseconds = 0
    var coordinators = CoordinatorMode.shared
    var storePath: String?          // nil: a temporary file; "memory": in memory
    var journal = StoreOptions.Journal.wal
    var synchronous = StoreOptions.Synchronous.normal
    var repeats = 1
    var warmups = 0
    var out: String?
    var timeline: String?
    var json = false
    var quiet = false
    var progress = ProgressDisplay.Style.auto
    /// `--input`: the path until the file is scanned (`RunCommand`), then what it holds.
    var inputPath: String?
    var input: InputFile?
    var rate: Double?
    var viewContext = false

    static let maxRows = 1_000_000_000

    static let specs: [OptionSpec] = [
        .option("--strategy", "NAME[,NAME…]|all", "strategies to run (see 'loadgen list'); default batch"),
    ] + WorkloadOptions.specs + [
        .option("--batch-size", "N", "records per save or transaction; default per strategy"),
        .option("--writers", "K", "concurrent producers for writer strategies; default 1"),
        .option("--producer-latency", "US", "simulated fetch time per record in µs; default 0"),
        .option("--coordinators", "shared|per-writer", "writer contexts share one coordinator, or one each; default shared"),
        .option("--store", "PATH|memory", "keep the store at PATH, or in memory; default a temporary file"),
        .option("--synchronous", "normal|full|off", "PRAGMA synchronous; default normal"),
        .option("--journal", "wal|delete", "journal mode; default wal"),
        .option("--repeat", "N", "measured repetitions per strategy; default 1"),
        .option("--warmup", "N", "unmeasured repetitions first; default 0"),
        .option("--out", "PATH", "append one CSV row per repetition to PATH"),
        .option("--timeline", "PATH", "append 10 ms samples (rows, RSS, heap) to PATH"),
        .option("--input", "FILE", "import a JSON or NDJSON file (see 'loadgen generate') instead of generating"),
        .option("--rate", "R", "open loop: deliver R records/s on a fixed schedule and measure latency to commit"),
        .flag("--view-context", "keep a view context watching every saved expense, as a list screen would"),
        .flag("--json", "print results as JSON on stdout instead of the summary"),
        .flag("--quiet", "no progress and no summary"),
        .option("--progress", "auto|bar|lines|none", "progress on stderr; default auto"),
    ]

    /// Reads and checks every option. Throws a usage error naming the flag and what it accepts.
    init(_ a: Arguments) throws {
        strategies = try Self.strategies(a.string("--strategy") ?? "batch")
        workload = try WorkloadOptions.parse(a)
        batchSize = try a.int("--batch-size", in: 1...Self.maxRows)
        writers = try a.int("--writers", default: 1, in: 1...256)!
        producerLatencyMicroseconds = try a.int("--producer-latency", default: 0, in: 0...10_000_000)!
        coordinators = CoordinatorMode(rawValue: try a.choice("--coordinators", CoordinatorMode.allCases.map(\.rawValue),
                                                              default: "shared"))!
        storePath = a.string("--store")
        if storePath == "" { throw CommandError.usage("run: --store expects a file path or 'memory'") }
        journal = StoreOptions.Journal(rawValue: try a.choice("--journal", ["wal", "delete"], default: "wal"))!
        synchronous = StoreOptions.Synchronous(rawValue: try a.choice("--synchronous", ["normal", "full", "off"],
                                                                      default: "normal"))!
        repeats = try a.int("--repeat", default: 1, in: 1...1000)!
        warmups = try a.int("--warmup", default: 0, in: 0...100)!
        out = a.string("--out")
        timeline = a.string("--timeline")
        for (flag, path) in [("--out", out), ("--timeline", timeline)] where path == "" {
            throw CommandError.usage("run: \(flag) expects a file path, got ''")
        }
        json = a.flag("--json")
        quiet = a.flag("--quiet")
        progress = ProgressDisplay.Style(rawValue: try a.choice("--progress", ProgressDisplay.Style.allCases.map(\.rawValue),
                                                                default: "auto"))!
        if quiet { progress = .none }
        inputPath = a.string("--input")
        if inputPath == "" { throw CommandError.usage("run: --input expects a file path") }
        if inputPath != nil {
            for flag in ["--rows", "--dup-rate", "--key-dist", "--zipf-s", "--key-order", "--categories", "--albums",
                         "--payload-bytes", "--seed"] where a.has(flag) {
                throw CommandError.usage("run: \(flag) does not apply with --input (the file's records are imported as they are)")
            }
        }
        rate = try a.double("--rate", in: 1...10_000_000, describe: "records per second, from 1 to 10000000")
        viewContext = a.flag("--view-context")
        if !a.positional.isEmpty {
            throw CommandError.usage("run: unexpected argument '\(a.positional[0])'; options start with --")
        }
    }

    /// Strategy names from `--strategy`: a comma-separated list or `all`. `raw-sqlite` runs
    /// first when present, so every other strategy's `vs_limit` has its limit.
    static func strategies(_ text: String) throws -> [any WriteStrategy] {
        if text == "all" { return StrategyRegistry.all }
        var chosen: [any WriteStrategy] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard let strategy = StrategyRegistry.strategy(named: name) else {
                throw CommandError.usage("run: --strategy expects one of \(StrategyRegistry.names.joined(separator: "|"))"
                                         + " or all (comma-separated), got '\(name)'")
            }
            if !chosen.contains(where: { $0.name == name }) { chosen.append(strategy) }
        }
        return chosen.sorted { ($0.name == "raw-sqlite" ? 0 : 1) < ($1.name == "raw-sqlite" ? 0 : 1) }
    }

    /// The CSV parameter columns for a repetition of `strategy`.
    func parameters(for strategy: any WriteStrategy, repetition: Int) -> RunParameters {
        let uniqueKeys = input?.uniqueKeys ?? workload.uniqueKeys
        let dupRate = input.map { 1 - Double($0.uniqueKeys) / Double($0.records) } ?? workload.dupRate
        var p = RunParameters(strategy: strategy.name, dataset: workload.dataset.rawValue, rows: workload.rows,
                              uniqueKeys: uniqueKeys, dupRate: dupRate,
                              keyDistribution: workload.keyDistribution.name, seed: workload.seed,
                              store: storePath == "memory" ? "memory" : "file",
                              journal: storePath == "memory" ? "memory" : journal.rawValue,
                              synchronous: synchronous.rawValue, repetition: repetition, repetitions: repeats)
        if input == nil {
            if case .zipf(let s) = workload.keyDistribution { p.zipfS = s }
            p.keyOrder = workload.keyOrder.rawValue
        } else {
            p.keyDistribution = "file"
            p.input = input?.path
        }
        p.rate = rate
        if let size = batchSize ?? strategy.defaultBatchSize { p.batchSize = size }
        if strategy.usesWriters {
            p.writers = writers
            p.producerLatencyMicroseconds = producerLatencyMicroseconds
            p.coordinators = coordinators.rawValue
        }
        return p
    }
}
