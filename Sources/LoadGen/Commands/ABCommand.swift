import Foundation
import Host
import Report

/// `loadgen ab --base BINARY --suite FILE --out DIR`: timing judged against a base revision on
/// this machine, now.
///
/// Each suite line's configurations run one at a time, once per side per round, the base's
/// binary and this one back to back, the order alternating (ABBA) so that neither side always
/// runs second. Every run is a `loadgen run` of the binary's own (so a base of another version
/// runs its own code, options and child protocol): a one-line suite of that line at one
/// repetition without limits, and `--shard K/N` picking its K-th configuration. The pairs are
/// judged by `PairedComparison`. The stored baseline still judges exact figures (`compare`).
enum ABCommand {
    static let about =
        "Judge timing against a base revision built here: paired, interleaved runs of a suite (the A/B gate)."

    static let specs: [OptionSpec] = [
        .option("--base", "BINARY", "the base revision's loadgen (scripts/nightly --against REV builds it)"),
        .option(
            "--suite", "FILE", "the runs to compare, one line of run arguments each (repetitions and limits are ab's)"),
        .option("--out", "DIR", "where each side's rows (DIR/base, DIR/new, one file per round) and ab.md go"),
        .option("--rounds", "N", "pairs per configuration", default: "16"),
        .option("--threshold", "R", "the smallest slowdown reported (0.03: 3 %)", default: "0.03"),
        .option(
            "--alpha", "P", "the gate's level (unchanged code fails one run in 1/P), split over its tests",
            default: "0.05"),
        .option("--base-label", "TEXT", "how the report names the base (a revision)", default: "base"),
        .option("--new-label", "TEXT", "how the report names this binary", default: "new"),
        .option("--json", "FILE", "also write the verdict as JSON (what moved, by how much, the exit status) to FILE"),
        .flag("--judge", "judge the rounds already in DIR again, running nothing"),
    ]

    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            print(
                Help.render(
                    usage: "loadgen ab --base BINARY --suite FILE --out DIR [options]", about: about, specs: specs,
                    footer: "Example: scripts/nightly --against origin/main   (builds the base and runs this)"),
                terminator: "")
            return ExitCode.success
        }
        let a = try Arguments(command: "ab", arguments: arguments, specs: specs)
        try a.refusePositional()
        guard let out = a.string("--out") else {
            throw CommandError.usage("ab: --out DIR is required (where the rows and ab.md go)")
        }
        let options = try comparisonOptions(a)
        // A DIR/ab.md of the user's own is refused before any round, as plot refuses its files.
        let page = ReportFile(path: out + "/ab.md", signature: PairedReport.signature)
        if FileManager.default.fileExists(atPath: page.path) {
            do { try page.check() } catch {
                throw CommandError(message: "ab: --out \(out): \(error)", exitCode: ExitCode.cannotCreate)
            }
        }
        // --json too, before the first round: a loop of links or a file of another tool's is said
        // now, not after minutes of rounds.
        let json = a.string("--json").map { ReportFile(path: $0, signature: GateVerdict.signature("ab")) }
        if let json {
            do { try json.check() } catch let error as ResultsFileError {
                throw CommandError(message: "ab: --json \(error)", exitCode: error.exitCode)
            }
        }
        var context = PairedReport.Context()
        // Typed by the user, printed in ab.md's heading and tables.
        context.base = MarkdownText.inline(a.string("--base-label") ?? "base")
        context.new = MarkdownText.inline(a.string("--new-label") ?? "new")
        let failed = a.flag("--judge") ? [] : try runRounds(a, out: out, context: &context)
        let (base, new) = try readRounds(out)
        context.rounds = base.count
        context.machine =
            new.first?.first.map { "\($0.identity.system.cpuModel), \($0.identity.system.cores) cores" } ?? ""
        let comparison = PairedComparison(base: base, new: new, options: options)
        let (status, why) = verdict(comparison, failed: failed)
        if let why {
            FileHandle.standardError.write(Data("loadgen: ab: \(why)\n".utf8))
            context.unjudged = why
        }
        let text = PairedReport.render(comparison, context: context)
        try page.write(text)
        print(text, terminator: "")
        try json?.write(
            GateVerdict.json(comparison, status: status, notJudged: context.notJudged, rounds: context.rounds))
        return status
    }

    /// Checks `--base`, `--suite` and the folder, runs the rounds into `out` and notes in `context`
    /// how it went; returns the runs that failed.
    static func runRounds(_ a: Arguments, out: String, context: inout PairedReport.Context) throws -> [String] {
        guard let base = a.string("--base") else {
            throw CommandError.usage("ab: --base BINARY is required (or --judge DIR)")
        }
        guard Posix.access(base, X_OK) == 0 else {
            throw CommandError(message: "ab: --base \(base) is not an executable loadgen", exitCode: ExitCode.noInput)
        }
        guard let suite = a.string("--suite") else { throw CommandError.usage("ab: --suite FILE is required") }
        // Rounds of an earlier ab would be judged with these: never mixed, never replaced.
        for side in ["base", "new"]
        where !((try? FileManager.default.contentsOfDirectory(atPath: out + "/" + side)) ?? []).isEmpty {
            throw CommandError(
                message: "ab: --out \(out) holds the rounds of an earlier ab; give a new folder (or judge "
                    + "them again with --judge --out \(out))", exitCode: ExitCode.cannotCreate)
        }
        let rounds = try a.int("--rounds", default: 16, in: 1...1000)!
        try checkBinary(base, flag: "--base")
        let started = Clock.nanoseconds()
        let before = Host.loadAverage()
        let (notJudged, failed) = try run(base: base, suite: suite, rounds: rounds, out: out)
        context.notJudged = notJudged
        context.seconds = Clock.seconds(since: started)
        context.load = before.flatMap { b in Host.loadAverage().map { (b, $0) } }
        return failed
    }

    /// `--threshold` and `--alpha`.
    static func comparisonOptions(_ a: Arguments) throws -> PairedComparison.Options {
        var options = PairedComparison.Options()
        options.threshold = try a.double(
            "--threshold", default: options.threshold, in: 0...1, describe: "a share from 0 to 1")!
        options.alpha = try a.double(
            "--alpha", default: options.alpha, in: 1e-9...0.5, describe: "a level above 0, up to 0.5")!
        return options
    }

    /// As compare: 2 when nothing could be judged (a gate that judged nothing must not pass),
    /// when a configuration could not be paired or a run of it failed (a gate that judged part
    /// of its suite must not pass either), or when a configuration had too few pairs for its
    /// test to flag any slowdown; 1 for a slowdown.
    /// The exit status, and why the gate could not judge when it could not (ab.md's heading says
    /// it instead of "no slowdown": issue 55, item 18).
    static func verdict(_ comparison: PairedComparison, failed: [String] = []) -> (status: Int32, why: String?) {
        if comparison.configurations.isEmpty { return (ExitCode.notJudged, "nothing was paired") }
        // A configuration only the new revision measured is what the change adds: said, not failed.
        let unjudged =
            comparison.unpaired.filter { $0.why != PairedComparison.newOnly }.map { "\($0.configuration) (\($0.why))" }
            + failed
        if let first = unjudged.first {
            return (
                ExitCode.notJudged,
                "\(unjudged.count) configuration\(unjudged.count == 1 ? " was" : "s were") not judged, first "
                    + "\(first): the gate cannot pass on part of its suite; see Not judged in ab.md"
            )
        }
        // Wall and CPU time are judged apart: a configuration counts once, however many of its
        // measures are blind.
        let blind = comparison.blind.map(\.name).uniqued()
        if let first = comparison.blind.first {
            return (
                ExitCode.notJudged,
                "\(blind.count) configuration\(blind.count == 1 ? "" : "s") could not be judged: "
                    + "\(first.pairs) pairs cannot flag a slowdown at this level; give --rounds \(comparison.pairsNeeded) or more"
            )
        }
        return (comparison.regressions.isEmpty ? ExitCode.success : ExitCode.failure, nil)
    }

    // MARK: Running

    /// Runs every configuration of `suite` `rounds` times a side; returns what it could not pair.
    static func run(base: String, suite: String, rounds: Int, out: String) throws -> (
        notJudged: [String], failed: [String]
    ) {
        let text = try Suite.text(of: suite, command: "ab")
        for side in ["base", "new", "lines"] { try Charts.makeFolders(out + "/" + side) }
        let new = Host.executablePath
        var lines: [(file: String, count: Int)] = []
        var notJudged: [String] = []
        var failed: [String] = []
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let words = try Suite.words(of: line)
            guard !words.isEmpty else { continue }
            if words.contains("--instructions") {
                notJudged.append(
                    "\(suite):\(number + 1) counts instructions under callgrind (not timings: the gate's work "
                        + "step counts both sides' instructions)")
                continue
            }
            let file = "\(out)/lines/line-\(number + 1).suite"
            let own = stripped(words) + ["--repeat", "1", "--no-limit"]
            try Data((own.map(Runner.shellQuoted).joined(separator: " ") + "\n").utf8).write(
                to: URL(fileURLWithPath: file))
            var plans = try Suite.plans(["--suite", file])
            try RunCommand.expandAll(&plans)
            lines.append((file, plans.reduce(0) { $0 + $1.schedule.count }))
        }
        let total = lines.reduce(0) { $0 + $1.count } * rounds
        var done = 0
        let started = Clock.nanoseconds()
        for round in 1...rounds {
            let name = String(format: "round-%03d.csv", round)
            for line in lines {
                for k in 1...max(1, line.count) {
                    let sides = (round + k) % 2 == 0 ? [("base", base), ("new", new)] : [("new", new), ("base", base)]
                    for (side, binary) in sides {
                        let status = try runOnce(
                            binary,
                            [
                                "run", "--suite", line.file, "--shard", "\(k)/\(line.count)",
                                "--out", "\(out)/\(side)/\(name)", "--quiet",
                            ])
                        note(
                            status, side: side, "\(line.file) configuration \(k)", notJudged: &notJudged,
                            failed: &failed)
                    }
                    done += 1
                    let elapsed = Clock.seconds(since: started)
                    FileHandle.standardError.write(
                        Data(
                            ("ab: round \(round) of \(rounds), \(done) of \(total) pairs · ETA "
                                + Format.duration(elapsed / Double(done) * Double(total - done)) + "\n").utf8))
                }
            }
        }
        return (notJudged + failed, failed)
    }

    /// A run that did not end in a result (0) or a failed repetition (1): a failure of the gate,
    /// except the base refusing it as usage (64), a strategy or option the change adds: not
    /// judged, said, and no failure.
    static func note(_ status: Int32, side: String, _ what: String, notJudged: inout [String], failed: inout [String]) {
        guard status != 0 && status != 1 else { return }
        let why = "\(what): the \(side) exited \(status)"
        if side == "base" && status == ExitCode.usage {
            let note = why + " (the base does not know it: new in this change)"
            if !notJudged.contains(note) { notJudged.append(note) }
        } else if !failed.contains(why) {
            failed.append(why)
        }
    }

    /// A suite line's words without what ab decides: repetitions, warm-ups, limits.
    static func stripped(_ words: [String]) -> [String] {
        var out: [String] = []
        var skip = false
        for word in words {
            if skip {
                skip = false
                continue
            }
            if ["--repeat", "--warmup"].contains(word) {
                skip = true
                continue
            }
            if word == "--no-limit" || word.hasPrefix("--repeat=") || word.hasPrefix("--warmup=") { continue }
            out.append(word)
        }
        return out
    }

    /// Refuses, before any round, a binary that is not a loadgen: `BINARY --version` must say
    /// "loadgen" and exit 0 (a base that fails every run would be found out only at the end).
    static func checkBinary(_ binary: String, flag: String) throws {
        let run: (status: Int32, output: [UInt8])
        switch Spawn.output(binary, arguments: [binary, "--version"]) {
        case .success(let done): run = done
        case .failure(let error):
            throw CommandError(
                message: "ab: \(flag) \(binary) cannot be run: \(error.description)", exitCode: ExitCode.noInput)
        }
        let text = String(decoding: run.output, as: UTF8.self)
        guard run.status == 0, text.hasPrefix("loadgen ") else {
            throw CommandError(
                message: "ab: \(flag) \(binary) is not a loadgen (its --version exited \(run.status) "
                    + "saying \"\(text.split(separator: "\n").first?.prefix(60) ?? "")\"); give a loadgen binary, "
                    + "as scripts/nightly --against REV builds", exitCode: ExitCode.noInput)
        }
    }

    /// Runs `binary arguments` (through Host's `posix_spawn`: Foundation's `Process` crashed
    /// when the system refused it a thread), its output this one's; its exit status.
    static func runOnce(_ binary: String, _ arguments: [String]) throws -> Int32 {
        switch Spawn.start(binary, arguments: [binary] + arguments, defaultSignals: true) {
        case .success(let pid): return Spawn.wait(pid)
        case .failure(let error):
            throw CommandError(
                message: "ab: \(binary) cannot be started: \(error.description) (a process limit such as ulimit -v or "
                    + "ulimit -u may be too low)", exitCode: ExitCode.osError)
        }
    }

    /// The rounds of each side, in order: `DIR/base/round-*.csv` and `DIR/new/round-*.csv`.
    static func readRounds(_ out: String) throws -> (base: [[ResultRow]], new: [[ResultRow]]) {
        func side(_ name: String) throws -> [[ResultRow]] {
            let folder = out + "/" + name
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasPrefix("round-") && $0.hasSuffix(".csv") }.sorted()
            return try files.map { try Charts.results(folder + "/" + $0, command: "ab") }
        }
        let (base, new) = (try side("base"), try side("new"))
        guard !base.isEmpty, base.count == new.count else {
            throw CommandError(
                message: "ab: \(out) holds \(base.count) rounds of the base and \(new.count) of the new revision; "
                    + "run ab again", exitCode: ExitCode.dataError)
        }
        return (base, new)
    }

}
