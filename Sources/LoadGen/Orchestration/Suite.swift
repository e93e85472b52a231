import Foundation
import Host
import Report
import Strategies

/// `run --suite FILE`: a checked-in list of runs, one line of `run` arguments each (words as a
/// shell splits them; '#' at the start of a word starts a comment), whose rows go to one set of
/// outputs. `--shard K/N` runs the K-th of N shards of the whole suite, balanced by cost, so
/// that a CI matrix can spread a suite over runners.
enum Suite {
    /// Options a suite's lines may not take: the outputs are the command line's, for all lines.
    static let commandLineOnly: Set<String> = [
        "--out", "--timeline", "--markdown", "--summary-csv", "--json", "--quiet",
        "--progress", "--dry-run", "--no-estimate", "--suite", "--shard", "--shard-by", "--objective", "--max-rss",
        "--max-latency", "--min-difference",
    ]

    static let specs: [OptionSpec] = [
        .option("--suite", "FILE", "run the runs listed in FILE (one line of run arguments each)"),
        .option(
            "--shard", "K/N",
            "with --suite: run the K-th of N shards, balanced by time with --shard-by, else by each configuration's records × repetitions"
        ),
        .option(
            "--shard-by", "FILE",
            "with --shard: balance the shards by the time each configuration took in FILE (the committed baseline)"),
    ]

    /// The text of the suite file at `path`: why not, when it cannot be read (66) or is not UTF-8
    /// text (65, with the byte), in `command`'s words.
    static func text(of path: String, command: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            let why = Posix.access(path, R_OK) == 0 ? "not a file" : String(cString: strerror(errno))
            throw CommandError(
                message: "\(command): --suite \(path) cannot be read (\(why))", exitCode: ExitCode.noInput)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw CommandError(
                message:
                    "\(command): --suite \(path): byte \(firstInvalidByte(data)) is not UTF-8 text; a suite is a text file "
                    + "of run arguments, one run a line: save it as UTF-8", exitCode: ExitCode.dataError)
        }
        return text
    }

    /// The 1-based offset of the first byte of `data` that is not UTF-8.
    private static func firstInvalidByte(_ data: Data) -> Int {
        var bytes = data.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while case .scalarValue(let scalar) = decoder.decode(&bytes) { offset += UTF8.width(scalar) }
        return offset + 1
    }

    /// One plan per suite line, or the one plan of the command line.
    static func plans(_ arguments: [String]) throws -> [RunPlan] {
        let a = try Arguments(command: "run", arguments: arguments, specs: RunPlan.specs + specs)
        guard let path = a.string("--suite") else {
            if a.has("--shard") || a.has("--shard-by") {
                throw CommandError.usage("run: --shard and --shard-by apply only with --suite")
            }
            return [try RunPlan(Arguments(command: "run", arguments: arguments, specs: RunPlan.specs))]
        }
        let own = arguments.enumerated().filter { i, argument in
            argument.hasPrefix("--") && !commandLineOnly.contains(String(argument.prefix { $0 != "=" }))
        }
        if let stray = own.first {
            throw CommandError.usage(
                "run: \(stray.element) goes in the suite's lines; with --suite the command line takes "
                    + "only outputs (\(commandLineOnly.sorted().joined(separator: ", ")))")
        }
        let text = try text(of: path, command: "run")
        let outputs = removing(["--suite", "--shard", "--shard-by"], from: arguments)
        var plans: [RunPlan] = []
        // Any line end (a suite saved on Windows ends its lines with CR LF, which Swift reads as
        // one character that is not "\n").
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let content: [String]
            do { content = try words(of: line) } catch let error as SuiteLineError {
                throw CommandError.usage("run: --suite \(path):\(number + 1): \(error.message)")
            }
            guard !content.isEmpty else { continue }
            if let bad = content.first(where: { commandLineOnly.contains(String($0.prefix { $0 != "=" })) }) {
                throw CommandError.usage(
                    "run: --suite \(path):\(number + 1): \(bad) belongs on the command line, not in a suite")
            }
            do {
                var plan = try RunPlan(Arguments(command: "run", arguments: content + outputs, specs: RunPlan.specs))
                plan.suiteLine = "\(path):\(number + 1)"
                plans.append(plan)
            } catch let error as CommandError {
                throw CommandError(
                    message: "run: --suite \(path):\(number + 1): "
                        + error.message.replacingOccurrences(of: "run: ", with: ""),
                    exitCode: error.exitCode)
            }
        }
        guard !plans.isEmpty else {
            throw CommandError(message: "run: --suite \(path) lists no runs", exitCode: ExitCode.dataError)
        }
        return plans
    }

    /// The words of a suite line, as a shell splits them: whitespace separates, '…' and "…"
    /// quote (a path with spaces), and '#' starts a comment only where a word starts, so that
    /// `--store runs/a#b.sqlite` keeps its '#'.
    static func words(of line: Substring) throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for c in line {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
                continue
            }
            if c.isWhitespace {
                if inWord {
                    words.append(word)
                    word = ""
                    inWord = false
                }
            } else if c == "#" && !inWord {
                break
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else {
                word.append(c)
                inWord = true
            }
        }
        if let quote { throw SuiteLineError(message: "a \(quote) quote is not closed") }
        if inWord { words.append(word) }
        return words
    }

    /// Applies `--shard K/N` to the expanded plans.
    static func shard(_ plans: inout [RunPlan], _ arguments: [String]) throws {
        guard let text = value(of: "--shard", in: arguments) else {
            if value(of: "--shard-by", in: arguments) != nil {
                throw CommandError.usage("run: --shard-by applies only with --shard K/N")
            }
            return
        }
        let parts = text.split(separator: "/").map { Int($0) }
        guard parts.count == 2, let k = parts[0], let n = parts[1], n >= 1, (1...n).contains(k) else {
            throw CommandError.usage(
                "run: --shard expects K/N with 1 ≤ K ≤ N (2/4: the second of four shards), got '\(text)'")
        }
        let times = try value(of: "--shard-by", in: arguments).map { try ShardTimes(file: $0) }
        let costs = plans.flatMap { plan in
            plan.configurations.map { c in times.map { $0.cost(c, of: plan).seconds } ?? shardCost(c, of: plan) }
        }
        let owners = balanced(costs, into: n)
        if let times, !plans.contains(where: \.quiet) {
            // Every shard's expected time, so a CI log shows the balance the split promised.
            let loads = (0..<n).map { shard in costs.indices.filter { owners[$0] == shard }.reduce(0) { $0 + costs[$1] }
            }
            let found = plans.flatMap { plan in plan.configurations.map { times.cost($0, of: plan).found } }.filter {
                $0
            }.count
            FileHandle.standardError.write(
                Data(
                    ("loadgen: --shard \(k)/\(n): about \(Format.duration(loads[k - 1])) by the times of "
                        + "\(times.file) (shards: \(loads.map { Format.duration($0) }.joined(separator: ", ")); \(found) of \(costs.count) "
                        + "configurations found there, the rest by their records)\n").utf8))
        }
        var first = 0
        for i in plans.indices { first += plans[i].keepShard(k, owners: owners, first: first) }
        // More shards than configurations is a CI matrix wider than the suite: not an error,
        // but a shard that measures nothing says so rather than exit 0 in silence.
        if plans.allSatisfy({ $0.configurations.isEmpty }) {
            FileHandle.standardError.write(
                Data(
                    ("loadgen: run: --shard \(k)/\(n) is empty: the run has \(first) configuration"
                        + "\(first == 1 ? "" : "s"), so shards past \(first) of \(n) measure nothing; nothing was run or written\n")
                        .utf8))
        }
    }

    /// Under callgrind a repetition takes about fifty times its time (ChildProcess's note).
    static let callgrindSlowdown = 50.0

    /// What a configuration of `plan` costs a shard, in record-repetitions: its records times its
    /// repetitions (warm-ups included), fifty times that under callgrind. Counted from the suite
    /// alone, so that every shard of a CI matrix, on whatever machine, splits it the same way (a
    /// calibration here would not repeat there, and a configuration could fall into two shards
    /// or none).
    static func shardCost(_ c: RunConfiguration, of plan: RunPlan) -> Double {
        Double(max(1, c.workload.rows)) * Double(plan.plannedRepeats + plan.warmups)
            * (plan.countsInstructions ? callgrindSlowdown : 1)
    }

    /// Each cost's shard (0-based), the largest first to the least loaded shard (the lower on a
    /// tie): balanced within the largest single cost, and the same on every machine. Every n-th
    /// configuration, as before, gave four shards 1.46 M, 4.26 M, 1.48 M and 4.58 M
    /// record-repetitions of bench/suites/nightly (issue 47).
    static func balanced(_ costs: [Double], into n: Int) -> [Int] {
        var load = [Double](repeating: 0, count: n)
        var owners = [Int](repeating: 0, count: costs.count)
        for i in costs.indices.sorted(by: { costs[$0] > costs[$1] || (costs[$0] == costs[$1] && $0 < $1) }) {
            let shard = load.indices.min { load[$0] < load[$1] }!
            owners[i] = shard
            load[shard] += costs[i]
        }
        return owners
    }

    private static func value(of flag: String, in arguments: [String]) -> String? {
        for (i, argument) in arguments.enumerated() {
            if argument == flag, i + 1 < arguments.count { return arguments[i + 1] }
            if argument.hasPrefix(flag + "=") { return String(argument.dropFirst(flag.count + 1)) }
        }
        return nil
    }

    private static func removing(_ flags: Set<String>, from arguments: [String]) -> [String] {
        var out: [String] = []
        var skip = false
        for argument in arguments {
            if skip {
                skip = false
                continue
            }
            if flags.contains(argument) {
                skip = true
                continue
            }
            if flags.contains(where: { argument.hasPrefix($0 + "=") }) { continue }
            out.append(argument)
        }
        return out
    }
}

/// A suite line that cannot be split into words.
struct SuiteLineError: Error {
    let message: String
}
