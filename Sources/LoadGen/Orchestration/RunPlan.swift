import Foundation
import ObjectGraph
import Report
import Strategies
import Workload

/// A validated `loadgen run`: every configuration of the sweep, the order repetitions run in,
/// and the run's own options, all read and checked before anything runs.
///
/// A parameter given a comma list is a sweep axis (`--rows 10k,100k --batch-size 100,1000`);
/// the configurations are the cartesian product of the axes, with each parameter a strategy
/// does not use cleared, so it is not multiplied for that strategy.
struct RunPlan {
    /// The configurations asked for, in the order of the product (strategy outermost).
    var configurations: [RunConfiguration] = []
    /// `raw-sqlite` configurations added so that every other configuration has its limit.
    private(set) var addedLimits: [RunConfiguration] = []
    /// Parameter columns that took more than one value (strategy aside).
    private(set) var sweptColumns: [Column] = []
    /// Flags given that a strategy does not use, by strategy.
    private(set) var ignored: [(strategy: String, flags: [String])] = []
    /// Strategies the model cannot serve, with why (not run).
    var refused: [(strategy: String, reason: String)] = []
    /// What the model file held that was not honoured, and how its roles were found.
    var modelNotes: [String] = []
    /// Configurations whose idiom looks records up by a key the store has no index on: each
    /// lookup scans the table (the model notes say which), so a repetition grows with the square
    /// of the rows. `raceOrder` runs them after the others.
    var scanning: Set<RunConfiguration> = []
    /// The axes as given, for messages: flag and values.
    private(set) var axes: [(parameter: RunParameter, values: [String])] = []

    var storePath: String?   // nil: a temporary file; "memory": in memory
    /// Repetitions of each configuration; 0 with `--repeat auto` (`autoRepeat`).
    var repeats = 1
    /// `--repeat auto`: repetitions until the answer is settled (issue 56).
    var autoRepeat: AutoRepeat?
    /// `--budget`, in seconds.
    var budget = 60.0
    /// `--cap`: how many times the fastest configuration's slowest repetition a repetition may
    /// run with `--repeat auto`; nil for none.
    var cap: Double? = 5
    /// The repetitions each configuration is planned for: `--repeat N`, or with `--repeat auto`
    /// the fewest it takes (estimates say so; the run may take more, within the budget).
    var plannedRepeats: Int { repeats == 0 ? SequentialRatio.minimumPairs : repeats }
    var warmups = 0
    var out: String?   // "-": standard output
    var timeline: String?
    var markdown: String?
    var summaryCSV: String?
    var json = false
    var quiet = false
    var dryRun = false
    /// `--dry-run` calibrates every configuration for an estimate, unless `--no-estimate`.
    var estimates = true
    /// `--instructions`: every child runs under callgrind.
    var countsInstructions = false
    var addsLimits = true
    var progress = ProgressDisplay.Style.auto
    /// `--input`: the path until the file is scanned (`RunCommand`), then what it holds.
    var inputPath: String?
    /// The version of the `--input` file its counts are of (`InputFile.version`): a repetition
    /// that ends with another there read records the run never counted, and fails.
    var inputVersion: InputFile.Version?
    /// An output other than `--json` is standard output (`-`): the summary goes to stderr.
    var writesToStdout: Bool { out == "-" || timeline == "/dev/stdout" || markdown == "-" || summaryCSV == "-" }
    /// `--input-path`: where the records' array sits inside the document (a JSON Pointer).
    var inputPointer: String?
    /// Where a suite's line came from ("bench/suites/nightly:12"), for messages; nil for the
    /// command line.
    var suiteLine: String?

    /// The configuration every point starts from (store kind, view context).
    private var base = RunConfiguration()

    /// The starting configuration with the model named on the command line (for an import
    /// file, which is read before the sweep is expanded).
    var baseConfiguration: RunConfiguration {
        var c = base
        for (parameter, values) in axes where RunParameter.modelFlags.contains(parameter.flag) {
            if let value = values.first { try? parameter.set(value, in: &c) }
        }
        return c
    }

    /// The most configurations one run may have.
    static let maxConfigurations = 10_000

    /// Options that belong to the run, not to a configuration.
    static let runSpecs: [OptionSpec] = [
        .option(
            "--store", "PATH|memory",
            "keep one configuration's store at PATH (replaced only by a repetition that is ok; "
                + "the limit's runs keep nothing), or keep stores in memory",
            default: "a temporary file"),
        .option("--input", "FILE", "import a JSON or NDJSON file (see 'loadgen generate') instead of generating"),
        .option(
            "--input-path", "POINTER",
            "with --input: the JSON Pointer (RFC 6901) of the records' array inside the document, "
                + "as a feed nests it (/apps); /apps/*/versions: each app's versions, related to it by --relationship"),
        .option(
            "--repeat", "auto|N",
            "measured repetitions of each configuration: auto repeats until the order is clear, "
                + "a tie or --budget (at least 3 each), N exactly N", default: "auto"),
        .option(
            "--budget", "DURATION", "with --repeat auto: the most time the repetitions may take (60s, 5m)",
            default: "60s"),
        .option(
            "--cap", "FACTOR|none",
            "with --repeat auto: stop a repetition that runs FACTOR times the fastest configuration's "
                + "slowest (recorded as capped, at least that much slower)", default: "5"),
        .option("--warmup", "N", "unmeasured repetitions of each configuration first", default: "0"),
        .flag("--no-limit", "do not add raw-sqlite as the limit (vs_limit stays blank without it)"),
        .option("--out", "PATH|-", "append one CSV row per repetition to PATH (- for stdout)"),
        .option("--timeline", "PATH|-", "append 10 ms samples (rows, RSS, heap) to PATH"),
        .option("--markdown", "FILE|-", "write the summary table as Markdown"),
        .option("--summary-csv", "FILE|-", "write one CSV row per configuration with its statistics"),
        .flag("--json", "print repetitions and summary as JSON on stdout instead of the summary"),
        .flag("--dry-run", "print the configurations and the order they would run in, and stop"),
        .flag(
            "--no-estimate", "with --dry-run: list the configurations without calibrating them for a duration (instant)"
        ),
        .flag(
            "--instructions",
            "count each repetition's instructions under valgrind's callgrind (slow: time and memory figures are callgrind's)"
        ),
        .flag("--quiet", "no progress and no summary"),
        .option("--progress", "auto|bar|lines|none", "progress on stderr", default: "auto"),
    ]

    /// Every option of `run`: the parameters (from their table), then the run's own.
    static let specs: [OptionSpec] =
        RunParameter.all.map { p in
            .option(p.flag, p.valueName, p.help, default: p.defaultText, implied: p.impliedValue)
        } + runSpecs + ConclusionFlags.specs

    /// What the summary concludes (`--objective`, `--max-rss`, …).
    var conclusions = ConclusionOptions()

    /// Reads and checks every option. Throws a usage error naming the flag and what it accepts.
    init(_ a: Arguments) throws {
        if !a.positional.isEmpty {
            throw CommandError.usage("run: unexpected argument '\(a.positional[0])'; options start with --")
        }
        try readRunOptions(a)
        conclusions = try ConclusionFlags.options(a)
        if repeats == 0 { autoRepeat = AutoRepeat(budget: budget, options: conclusions) }
        if storePath == StoreKind.memory.rawValue { base.keepStoreInMemory() }
        axes = try Self.readAxes(a)
        if inputPath != nil,
            let workload = axes.first(where: {
                RunParameter.workloadFlags.contains($0.parameter.flag)
                    && !RunParameter.modelFlags.contains($0.parameter.flag)
            })
        {
            throw CommandError.usage(
                "run: \(workload.parameter.flag) does not apply with --input "
                    + "(the file's records are imported as they are)")
        }
        try Self.checkModelFlags(a)
        if a.has("--zipf-s"), !(axes.first { $0.parameter.flag == "--key-dist" }?.values.contains("zipf") ?? false) {
            throw CommandError.usage("run: --zipf-s applies only with --key-dist zipf")
        }
        try checkOperations(a)
        let count = axes.reduce(1) { $0 * $1.values.count }
        guard count <= Self.maxConfigurations else {
            let product = axes.filter { $0.values.count > 1 }.map { "\($0.parameter.flag) \($0.values.count)" }.joined(
                separator: " × ")
            throw CommandError.usage(
                "run: the sweep has \(count) configurations (\(product)); at most "
                    + "\(Self.maxConfigurations): give fewer values")
        }
    }

    /// The roles and sizes of a team's model mean nothing for a built-in dataset, whose model says them.
    static func checkModelFlags(_ a: Arguments) throws {
        guard !a.has("--model") else {
            if a.has("--dataset") {
                throw CommandError.usage("\(a.command): --dataset and --model both say what the records are; give one")
            }
            return
        }
        for flag in RunParameter.all.filter(\.scope.needsModel).map(\.flag) where a.has(flag) {
            throw CommandError.usage(
                "\(a.command): \(flag) applies only with --model (a built-in dataset's model gives its roles)")
        }
    }

    private mutating func readRunOptions(_ a: Arguments) throws {
        storePath = a.string("--store")
        if storePath == "" { throw CommandError.usage("run: --store expects a file path or 'memory'") }
        if let given = a.string("--repeat"), given != "auto" {
            repeats = try a.int("--repeat", default: 1, in: 1...1000)!
            for flag in ["--budget", "--cap"] where a.has(flag) {
                throw CommandError.usage("run: \(flag) applies with --repeat auto (the default), not --repeat \(given)")
            }
        } else {
            repeats = 0
            budget = try a.duration("--budget", default: 60)
            cap =
                a.string("--cap") == "none"
                ? nil
                : try a.double("--cap", default: 5, in: 1.5...1000, describe: "a factor from 1.5 to 1000, or none")
        }
        warmups = try a.int("--warmup", default: 0, in: 0...100)!
        quiet = a.flag("--quiet")
        try readOutputs(a)
        try readRunFlags(a)
    }

    /// Where the run's outputs go (`-` is standard output, for one of them).
    private mutating func readOutputs(_ a: Arguments) throws {
        out = a.string("--out")
        timeline = a.string("--timeline")
        markdown = a.string("--markdown")
        summaryCSV = a.string("--summary-csv")
        for (flag, path) in [
            ("--out", out), ("--timeline", timeline), ("--markdown", markdown),
            ("--summary-csv", summaryCSV),
        ] where path == "" {
            throw CommandError.usage("run: \(flag) expects a file path, got ''")
        }
        json = a.flag("--json")
        // `-` is standard output for every output (issue 55, item 19); one of them at a time.
        let toStdout = [
            ("--out -", out == "-"), ("--timeline -", timeline == "-"), ("--markdown -", markdown == "-"),
            ("--summary-csv -", summaryCSV == "-"), ("--json", json),
        ].filter(\.1).map(\.0)
        if toStdout.count > 1 {
            throw CommandError.usage(
                "run: \(toStdout.joined(separator: " and ")) \(toStdout.count == 2 ? "both" : "all") write to stdout; "
                    + "give files to all but one")
        }
        if timeline == "-" { timeline = "/dev/stdout" }
    }

    /// How the run goes: a dry run, instruction counts, limits, progress, an input file.
    private mutating func readRunFlags(_ a: Arguments) throws {
        dryRun = a.flag("--dry-run")
        estimates = !a.flag("--no-estimate")
        if !estimates && !dryRun { throw CommandError.usage("run: --no-estimate applies only with --dry-run") }
        countsInstructions = a.flag("--instructions")
        addsLimits = !a.flag("--no-limit")
        progress = ProgressDisplay.Style(
            rawValue: try a.choice(
                "--progress", ProgressDisplay.Style.allCases.map(\.rawValue),
                default: "auto"))!
        if quiet { progress = .none }
        inputPath = a.string("--input")
        if inputPath == "" { throw CommandError.usage("run: --input expects a file path") }
        if let pointer = a.string("--input-path") {
            guard inputPath != nil else { throw CommandError.usage("run: --input-path applies only with --input FILE") }
            guard pointer.hasPrefix("/"), pointer.count > 1 else {
                throw CommandError.usage(
                    "run: --input-path '\(pointer)' is not a JSON Pointer to a member: give one like /apps or /source/apps"
                )
            }
            inputPointer = pointer
        }
    }

    /// The operations of the run: strategies follow them (`--strategy all` means all of theirs,
    /// no `--strategy` all of theirs for an update, delete or read), and flags that mean nothing
    /// for an operation on a filled store are refused, naming the flag.
    private mutating func checkOperations(_ a: Arguments) throws {
        let operations = (axes.first { $0.parameter.flag == "--operation" }?.values ?? ["import"]).compactMap(
            Operation.init)
        let filled = operations.filter(\.needsFilledStore)
        if a.has("--fraction") && !operations.contains(.update) && !operations.contains(.delete) {
            throw CommandError.usage("run: --fraction applies only with --operation update or delete")
        }
        if let operation = filled.first {
            let meaningless = RunParameter.all.filter { !$0.onFilledStore }.map(\.flag) + ["--input"]
            for flag in meaningless where a.has(flag) {
                throw CommandError.usage(
                    "run: \(flag) means nothing for --operation \(operation.rawValue) (it works on a store "
                        + "filled first with one row per key); drop it, or run the import on its own")
            }
        }
        let chosen: [String]
        if let given = axes.firstIndex(where: { $0.parameter.flag == "--strategy" }) {
            // `all` (or `all,-NAME`) means every strategy of the operations asked for.
            let explicit = !(a.string("--strategy") ?? "").split(separator: ",").contains("all")
            chosen = axes[given].values.filter { name in
                let operation = StrategyRegistry.strategy(named: name)!.operation
                return operations.contains(operation) || !explicit
            }
            if explicit, let stray = axes[given].values.first(where: { !chosen.contains($0) }) {
                let operation = StrategyRegistry.strategy(named: stray)!.operation
                throw CommandError.usage(
                    "run: \(stray) is \([.import, .update].contains(operation) ? "an" : "a") \(operation.rawValue) strategy; "
                        + "run it with --operation \(operation.rawValue)")
            }
            axes[given].values = chosen.filter { operations.contains(StrategyRegistry.strategy(named: $0)!.operation) }
        } else if operations != [.import] {
            let names = StrategyRegistry.all.filter { operations.contains($0.operation) }.map(\.name)
            axes.insert((RunParameter.named("--strategy")!, names), at: 0)
        } else if a.has("--model") {
            // A team's model and no --strategy: the import idioms it could choose among; those its
            // key cannot serve (no constraint) are refused with the flag that measures them.
            axes.insert((RunParameter.named("--strategy")!, StrategyRegistry.modelImportIdioms), at: 0)
        }
    }

    /// Each parameter given, with its values: one, or a comma list for a parameter that sweeps.
    /// Every element is checked here, so a bad one is named before anything runs.
    private static func readAxes(_ a: Arguments) throws -> [(parameter: RunParameter, values: [String])] {
        var axes: [(parameter: RunParameter, values: [String])] = []
        for parameter in RunParameter.all {
            guard let text = a.string(parameter.flag) else { continue }
            var values =
                parameter.sweeps
                ? text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) : [text]
            if parameter.flag == "--strategy" && values.contains(where: { $0 == "all" || $0.hasPrefix("-") }) {
                values = try allExcept(values)
            }
            var seen: [String: String] = [:]
            for value in values {
                var scratch = RunConfiguration()
                scratch.workload.keyDistribution = .zipf(s: 1.1)   // so that --zipf-s is checked too
                do { try parameter.set(value, in: &scratch) } catch {
                    let place = values.count > 1 ? "'\(value)' in '\(text)'" : "'\(value)'"
                    let hint = error.suggestion.map { "did you mean \($0)? " } ?? ""
                    throw CommandError.usage(
                        "run: \(parameter.flag): \(place) is not accepted; \(hint)expects \(error.accepted)"
                            + (Self.looksGrouped(text) ? Self.groupingHint(text) : ""))
                }
                let normalized =
                    RunParameter.parseInteger(value).map(String.init) ?? Double(value).map { "\($0)" } ?? value
                if let earlier = seen[normalized] {
                    throw CommandError.usage(
                        "run: \(parameter.flag) lists the same value twice ('\(earlier)' and '\(value)')")
                }
                seen[normalized] = value
            }
            if parameter.sweeps && values.count > 1 && Self.looksGrouped(text) {
                // Valid as a sweep, and as a number written with thousands separators: say which.
                FileHandle.standardError.write(
                    Data(
                        ("loadgen: note: \(parameter.flag) \(text) is a sweep of "
                            + values.joined(separator: " and ") + Self.groupingHint(text) + "\n").utf8))
            }
            axes.append((parameter, values))
        }
        return axes
    }

    /// `50,000` or `1,500,000`: digits grouped by threes, as a number is written with thousands
    /// separators, which a comma list reads as a sweep.
    static func looksGrouped(_ text: String) -> Bool {
        let groups = text.split(separator: ",", omittingEmptySubsequences: false)
        return groups.count > 1 && (1...3).contains(groups[0].count)
            && groups.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
            && groups.dropFirst().allSatisfy { $0.count == 3 }
    }

    /// "; a comma separates a sweep's values: for one value write 50000 (or 50k)".
    static func groupingHint(_ text: String) -> String {
        let joined = text.replacingOccurrences(of: ",", with: "")
        let short =
            Int(joined).map { n in n % 1_000_000 == 0 ? "\(n / 1_000_000)M" : n % 1000 == 0 ? "\(n / 1000)k" : "" }
            ?? ""
        return "; a comma separates a sweep's values: for one value write \(joined)"
            + (short.isEmpty ? "" : " (or \(short))")
    }

    /// `all`, less the strategies named with a minus (`all,-context-save-per-row`).
    static func allExcept(_ values: [String]) throws -> [String] {
        guard values.contains("all") else {
            let first = values.first { $0.hasPrefix("-") } ?? ""
            throw CommandError.usage("run: --strategy: '\(first)' leaves a strategy out of all: write all,\(first)")
        }
        var kept = StrategyRegistry.names
        for value in values where value != "all" {
            guard value.hasPrefix("-") else {
                throw CommandError.usage(
                    "run: --strategy: '\(value)' beside all, which has every strategy; leave one out with "
                        + "a minus (all,-context-save-per-row)")
            }
            let name = String(value.dropFirst())
            guard kept.contains(name) else {
                let known = StrategyRegistry.names.contains(name)
                let hint =
                    known
                    ? "it is left out already"
                    : Nearest.word(to: name, in: StrategyRegistry.names).map { "did you mean -\($0)?" }
                        ?? "expects one of " + StrategyRegistry.names.joined(separator: "|")
                throw CommandError.usage("run: --strategy: '\(value)' is not accepted; \(hint)")
            }
            kept.removeAll { $0 == name }
        }
        guard !kept.isEmpty else { throw CommandError.usage("run: --strategy: every strategy is left out of all") }
        return kept
    }

    /// Builds the configurations: the cartesian product of the axes (on the import file's
    /// records, when there is one), each cleared of what its strategy does not use and kept
    /// once; then the limits they need.
    mutating func expand(input: InputFile? = nil) throws {
        var start = base
        if let file = input {
            start.input = file.path
            inputVersion = file.version
            start.inputUniqueKeys = file.uniqueKeys
            start.workload.dataset = file.dataset
            start.workload.rows = file.records
        }
        var product = [start]
        for (parameter, values) in axes {
            product = try product.flatMap { configuration in
                try values.map { value in
                    var c = configuration
                    do { try parameter.set(value, in: &c) } catch let error as RunParameterError {
                        throw CommandError.usage("run: \(parameter.flag): '\(value)' expects \(error.accepted)")
                    }
                    return c
                }
            }
        }
        var seen = Set<RunConfiguration>()
        configurations = product.filter { $0.writeStrategy?.operation == $0.operation }
            .map { c in
                var c = c
                c.clearUnused()
                return c
            }.filter { seen.insert($0).inserted }
        sweptColumns = axes.filter { $0.values.count > 1 && $0.parameter.flag != "--strategy" }.flatMap(
            \.parameter.columns)
        if let file = input, !file.ignoredMembers.isEmpty {
            // Explained against the model the configurations use (set by the axes above).
            let source = configurations.first.flatMap { try? ImportSource.resolve($0) }
            let members = source?.explainIgnored(file.ignoredMembers) ?? file.ignoredMembers
            modelNotes.append(
                "--input \(file.path): members no field reads, ignored: \(members.joined(separator: ", "))")
        }
        if let file = input, !file.foldedMembers.isEmpty {
            modelNotes.append(
                "--input \(file.path): members read by their name ignoring case and '_' (--map PROPERTY=MEMBER to say "
                    + "otherwise): \(file.foldedMembers.joined(separator: ", "))")
        }
        try checkModels()
        try checkFractions()
        findIgnored()
        addLimits()
    }

    /// An update or delete whose `--fraction` of the stored records rounds to none would measure
    /// nothing and call it ok (issue 45, item 4).
    private func checkFractions() throws {
        for c in configurations {
            guard let f = c.fraction else { continue }
            let records = c.uniqueKeys
            guard records > 0, Int((Double(records) * f).rounded()) == 0 else { continue }
            throw CommandError.usage(
                "run: --fraction \(Format.share(f)) of \(records) stored records targets none; "
                    + "give at least --fraction \(Format.share(1 / Double(records))) or more --rows")
        }
    }

    /// The limits the configurations need that they do not include.
    private mutating func addLimits() {
        addedLimits = []
        guard addsLimits else { return }
        var seen = Set(configurations)
        for c in configurations where c.strategy != RawSQLiteStrategy().name && c.operation == .import {
            let limit = Self.limit(of: c)
            if seen.insert(limit).inserted { addedLimits.append(limit) }
        }
    }

    // MARK: Shards

    /// Keeps the configurations whose number in the whole suite (counting from `first`) falls
    /// to shard `k` (`owners`, 0-based, per number: `Suite.balanced`), with the limits they need,
    /// and returns how many configurations this plan had: the next plan's `first`. Limits are not
    /// shards' own configurations: a shard measures those its configurations need, so two shards
    /// may both measure one.
    mutating func keepShard(_ k: Int, owners: [Int], first: Int) -> Int {
        let count = configurations.count
        configurations = configurations.enumerated().filter { owners[first + $0.offset] == k - 1 }.map(\.element)
        addLimits()
        return count
    }

    /// The flags given with more than one value, or at all, that a strategy of the run ignores.
    private mutating func findIgnored() {
        let given = axes.filter {
            $0.parameter.flag != "--strategy" && !RunParameter.workloadFlags.contains($0.parameter.flag)
        }
        for name in configurations.map(\.strategy).uniqued() {
            guard let strategy = StrategyRegistry.strategy(named: name) else { continue }
            let mine = configurations.filter { $0.strategy == name }
            // A limit and --history have a note of their own (`notes`).
            let flags = given.filter { axis in !mine.contains { axis.parameter.isUsed(by: strategy, in: $0) } }.map(
                \.parameter.flag
            )
            .filter { !(strategy.isLimit && $0 == "--history") }
            if !flags.isEmpty { ignored.append((name, flags)) }
        }
    }

    // MARK: The limit

    /// The limit `configuration`'s `vs_limit` divides by: `raw-sqlite` on the same records and
    /// store settings (dataset, rows, seed, duplicates, key order and distribution, journal,
    /// synchronous, store kind, input), committing all its rows in ONE transaction whatever
    /// `--batch-size` says, closed loop (no `--rate`) and with no screen watching. So the limit
    /// is one number across a batch-size, writers or rate sweep.
    static func limit(of configuration: RunConfiguration) -> RunConfiguration {
        var limit = configuration
        limit.strategy = RawSQLiteStrategy().name
        limit.rate = nil
        limit.screen = nil
        limit.history = false
        limit.clearUnused()
        return limit
    }

    /// Runs of a limit per round when other configurations divide by it; the run with the median
    /// rate is the round's limit (the others are not recorded). A limit run is short (46 ms at
    /// 20,000 rows) and one hiccup in it moved every ratio of its round: in the baseline, one
    /// round's raw-sqlite took 0.076 s against 0.047–0.062 s in the others while batch took the
    /// same 0.164–0.173 s in every round, and batch's vs_limit read 0.449 there against 0.28–0.35.
    /// The median of three keeps the pairing by round (a round that is slow for everyone stays
    /// cancelled) and drops such a hiccup.
    static let limitSamples = 3

    /// Child processes the plan starts: every configuration per round and warm-up, and the
    /// limits' extra samples.
    var childProcesses: Int {
        schedule.count * (plannedRepeats + warmups)
            + (repeats == 0 ? 0 : divisorLimits.count * (Self.limitSamples - 1) * plannedRepeats)
    }

    /// The limits other configurations of the plan divide by, among those it runs (an update,
    /// delete or read has none: the dry run spoke of limit runs that never ran, issue 44, item 9).
    var divisorLimits: Set<RunConfiguration> {
        let scheduled = schedule
        return Set(scheduled.filter { $0 != Self.limit(of: $0) }.map { Self.limit(of: $0) }).intersection(scheduled)
    }

    /// Every configuration in the order a round runs them: limits first, so that each round's
    /// ratios have their limit.
    var schedule: [RunConfiguration] {
        let all = addedLimits + configurations
        return all.filter { $0 == Self.limit(of: $0) } + all.filter { $0 != Self.limit(of: $0) }
    }

    /// The order an auto round runs `configurations` in: the schedule's, with the configurations
    /// that scan last. The cap stops a repetition at `--cap` times the fastest configuration's
    /// slowest repetition, but before any configuration has finished one it can only stop it at the
    /// budget: a find-or-create-per-row on WooCommerce's 150k products without an index on the
    /// key, listed first, ran the whole 60 s budget in round 1 where 5 × the others' 3 s would
    /// have told it apart.
    func raceOrder(_ configurations: [RunConfiguration]) -> [RunConfiguration] {
        configurations.filter { !scanning.contains($0) } + configurations.filter { scanning.contains($0) }
    }

    /// The swept parameters `configuration`'s strategy uses, `column=value` ("" without a sweep;
    /// a swept switch reads on or off, so that both sides of `--view-context off,on` are named),
    /// and "history" when it records persistent history unswept, so that a chart or table of a
    /// suite tells `batch` from `batch` with `--history`.
    func label(of configuration: RunConfiguration) -> String {
        let fields = configuration.csvFields
        var parts: [String] = []
        for column in sweptColumns {
            guard let value = fields[column.name] else { continue }
            if let parameter = RunParameter.all.first(where: { $0.columns == [column] && $0.impliedValue != nil }) {
                guard let strategy = configuration.writeStrategy, parameter.isUsed(by: strategy, in: configuration)
                else { continue }
                parts.append("\(column)=\(value.isEmpty ? "off" : value == "yes" ? "on" : value)")
            } else if !value.isEmpty {
                parts.append("\(column)=\(value)")
            }
        }
        if configuration.history && !sweptColumns.contains(.history) { parts.append(Column.history.name) }
        return parts.joined(separator: " ")
    }

    /// Lines for the summary: what was added and what was ignored.
    var notes: [String] {
        var lines: [String] = []
        // One line per reason: "batch, context-reset were not run: they need a uniqueness constraint …".
        for reason in refused.map(\.reason).uniqued() {
            let names = refused.filter { $0.reason == reason }.map(\.strategy)
            let them = names.count == 1 ? "it" : "they"
            let need =
                names.count == 1
                ? reason
                : reason.replacingOccurrences(of: "needs ", with: "need ")
                    .replacingOccurrences(of: "resolves ", with: "resolve ")
            lines.append(
                "\(names.joined(separator: ", ")) \(names.count == 1 ? "was" : "were") not run: \(them) \(need)")
        }
        if !addedLimits.isEmpty {
            lines.append(
                "raw-sqlite was added as the limit (one transaction, closed loop): vs_limit divides by it; "
                    + "--no-limit to skip it")
        }
        // One line per flag: "--writers (1,4) is not used by batch, prefetch: they ran once for every value".
        var byFlag: [(flag: String, strategies: [String])] = []
        for (strategy, flags) in ignored {
            for flag in flags {
                if let i = byFlag.firstIndex(where: { $0.flag == flag }) {
                    byFlag[i].strategies.append(strategy)
                } else {
                    byFlag.append((flag, [strategy]))
                }
            }
        }
        for (flag, strategies) in byFlag {
            let values = axes.first { $0.parameter.flag == flag }?.values ?? []
            lines.append(
                "\(flag) \(values.joined(separator: ",")) is not used by \(strategies.joined(separator: ", "))"
                    + (values.count > 1 ? ": they ran once for all its values" : ""))
        }
        // The limits write with SQLite alone: there is no engine to record history.
        let historyAsked =
            axes.first { $0.parameter.flag == "--history" }?.values.contains { (try? onOffValue($0)) == true } ?? false
        let unrecorded = schedule.filter { $0.writeStrategy?.isLimit ?? false }.map(\.strategy).uniqued()
        if historyAsked && !unrecorded.isEmpty {
            lines.append(
                "--history is not used by \(unrecorded.joined(separator: ", ")): SQLite alone, no engine to record it")
        }
        let forced = configurations.filter { $0.writeStrategy?.requiresHistory ?? false }.map(\.strategy).uniqued()
        if !forced.isEmpty && !historyAsked {
            lines.append(
                "\(forced.joined(separator: ", ")) recorded persistent history without --history: it consumes it")
        }
        return lines + batchResultNotes
    }

    /// Which batch requests capture object IDs whatever `--result` says, and why (the rule is
    /// `BatchResultNeed`, which the requests follow): the capture is part of what they cost.
    private var batchResultNotes: [String] {
        var byReason: [(reason: String, strategies: [String])] = []
        for c in configurations {
            guard let strategy = c.writeStrategy, strategy.issuesBatchRequests else { continue }
            let relates = c.model.relationship != ModelChoice.noRelationship || c.model.manyToMany != nil
            let fixUp = strategy.operation == .import && strategy.expectations.linked && relates
            let need = BatchResultNeed(c, fixUpNeedsIDs: fixUp)
            guard let reason = need.reason, c.batchResult != .objectIDs else { continue }
            if let i = byReason.firstIndex(where: { $0.reason == reason }) {
                if !byReason[i].strategies.contains(c.strategy) { byReason[i].strategies.append(c.strategy) }
            } else {
                byReason.append((reason, [c.strategy]))
            }
        }
        return byReason.map {
            "\($0.strategies.joined(separator: ", ")) asked for object IDs (beyond --result): \($0.reason)"
        }
    }

    /// Strategies that measure something other than the full idiom, with what to keep in mind.
    var marks: [String: String] {
        var marks: [String: String] = [:]
        for name in schedule.map(\.strategy).uniqued() {
            guard let strategy = StrategyRegistry.strategy(named: name), strategy.expectations != .complete else {
                continue
            }
            marks[name] = strategy.caveat
        }
        return marks
    }
}

extension Sequence where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
