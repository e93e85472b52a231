import Workload

/// The options that decide which records are generated, shared by `run` and `generate`.
enum WorkloadOptions {
    static let specs: [OptionSpec] = [
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
    ]

    /// Reads and checks the workload options.
    static func parse(_ a: Arguments) throws -> WorkloadSpec {
        var spec = WorkloadSpec()
        spec.rows = try a.int("--rows", default: 100_000, in: 1...RunPlan.maxRows)!
        spec.dataset = Dataset(rawValue: try a.choice("--dataset", Dataset.allCases.map(\.rawValue), default: "expenses"))!
        spec.seed = UInt64(try a.int("--seed", default: 1, in: 0...Int.max)!)
        spec.dupRate = try a.double("--dup-rate", default: 0, in: 0...1, upperOpen: true,
                                    describe: "a share from 0 up to (not including) 1")!
        let zipfS = try a.double("--zipf-s", default: 1.1, in: 0.01...10, describe: "an exponent from 0.01 to 10")!
        let dist = try a.choice("--key-dist", ["uniform", "zipf"], default: "uniform")
        if a.has("--zipf-s") && dist != "zipf" {
            throw CommandError.usage("\(a.command): --zipf-s applies only with --key-dist zipf")
        }
        spec.keyDistribution = dist == "zipf" ? .zipf(s: zipfS) : .uniform
        spec.keyOrder = KeyOrder(rawValue: try a.choice("--key-order", KeyOrder.allCases.map(\.rawValue),
                                                       default: "ascending"))!
        spec.categories = try a.int("--categories", default: 50, in: 1...1_000_000)!
        spec.albums = try a.int("--albums", default: 20, in: 1...1_000_000)!
        spec.payloadBytes = try a.int("--payload-bytes", default: 4096, in: 0...16_000_000)!
        return spec
    }
}
