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

    static let maxRows = 1_000_000_000

    static let specs: [OptionSpec] = [
        .option("--strategy", "NAME[,NAME…]|all", "strategies to run (see 'loadgen list'); default batch"),
        .option("--rows", "N", "records to write (100000, 100k, 1M); default 100000"),
        .option("--dataset", "expenses|photos", "what the records look like; default expenses"),
        .option("--seed", "N", "generator seed: same seed, same records; default 1"),
        .option("--dup-rate", "R", "share of records repeating an earlier key, 0 ≤ R < 1; default 0"),
        .option("--key-dist", "uniform|zipf", "which earlier keys repeat; default uniform"),
        .option("--zipf-s", "S", "zipf exponent (with --key-dist zipf), > 0; default 1.1"),
        .option("--key-order", "ascending|random", "order new keys arrive in (IDs that grow, or UUIDv4-like); default ascending"),
        .option("--categories", "N", "categories in the expenses dataset; default 50"),
        .option("--albums", "N", "albums in the photos dataset; default 20"),
        .option("--payload-bytes", "N", "size of each photo's imageData; default 4096"),
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
        .flag("--json", "print results as JSON on stdout instead of the summary"),
        .flag("--quiet", "no progress and no summary"),
        .option("--progress", "auto|bar|lines|none", "progress on stderr; default auto"),
    ]

    /// Reads and checks every option. Throws a usage error naming the flag and what it accepts.
    init(_ a: Arguments) throws {
        strategies = try Self.strategies(a.string("--strategy") ?? "batch")
        workload.rows = try a.int("--rows", default: 100_000, in: 1...Self.maxRows)!
        workload.dataset = Dataset(rawValue: try a.choice("--dataset", Dataset.allCases.map(\.rawValue), default: "expenses"))!
        workload.seed = UInt64(try a.int("--seed", default: 1, in: 0...Int.max)!)
        workload.dupRate = try a.double("--dup-rate", default: 0, in: 0...1, upperOpen: true,
                                        describe: "a share from 0 up to (not including) 1")!
        let zipfS = try a.double("--zipf-s", default: 1.1, in: 0.01...10, describe: "an exponent from 0.01 to 10")!
        let dist = try a.choice("--key-dist", ["uniform", "zipf"], default: "uniform")
        if a.has("--zipf-s") && dist != "zipf" {
            throw CommandError.usage("run: --zipf-s applies only with --key-dist zipf")
        }
        workload.keyDistribution = dist == "zipf" ? .zipf(s: zipfS) : .uniform
        workload.keyOrder = KeyOrder(rawValue: try a.choice("--key-order", KeyOrder.allCases.map(\.rawValue),
                                                           default: "ascending"))!
        workload.categories = try a.int("--categories", default: 50, in: 1...1_000_000)!
        workload.albums = try a.int("--albums", default: 20, in: 1...1_000_000)!
        workload.payloadBytes = try a.int("--payload-bytes", default: 4096, in: 0...16_000_000)!
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
        json = a.flag("--json")
        quiet = a.flag("--quiet")
        progress = ProgressDisplay.Style(rawValue: try a.choice("--progress", ProgressDisplay.Style.allCases.map(\.rawValue),
                                                                default: "auto"))!
        if quiet { progress = .none }
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
        var p = RunParameters(strategy: strategy.name, dataset: workload.dataset.rawValue, rows: workload.rows,
                              uniqueKeys: workload.uniqueKeys, dupRate: workload.dupRate,
                              keyDistribution: workload.keyDistribution.name, seed: workload.seed,
                              store: storePath == "memory" ? "memory" : "file",
                              journal: storePath == "memory" ? "memory" : journal.rawValue,
                              synchronous: synchronous.rawValue, repetition: repetition, repetitions: repeats)
        if case .zipf(let s) = workload.keyDistribution { p.zipfS = s }
        p.keyOrder = workload.keyOrder.rawValue
        if let size = batchSize ?? strategy.defaultBatchSize { p.batchSize = size }
        if strategy.usesWriters {
            p.writers = writers
            p.producerLatencyMicroseconds = producerLatencyMicroseconds
            p.coordinators = coordinators.rawValue
        }
        return p
    }
}
