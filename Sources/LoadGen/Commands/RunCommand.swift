import Foundation
import ObjectGraph
import Report
import Strategies
import Workload

/// `loadgen run`: runs configurations, each repetition in a child process, verifies, records.
enum RunCommand {
    static let about = "Run write strategies against a generated dataset in a real SQLite store and measure them."

    static let footer = """
        Examples:
          loadgen run --strategy batch --rows 100000
          loadgen run --strategy batch,context-reset --rows 10k,100k --batch-size 100,1000 --repeat 5 --markdown review.md
          loadgen run --suite bench/suites/nightly --out results/nightly.csv

        A comma list sweeps a parameter: every combination runs, each repetition in a child process, in
        rounds (each configuration once per round). A parameter a strategy does not use is not
        multiplied for it. vs_limit divides by raw-sqlite in the same round on the same records and
        store settings, committing everything in ONE transaction (see 'loadgen list').
        """

    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            print(
                Help.render(
                    usage: "loadgen run [options]", about: about, specs: RunPlan.specs + Suite.specs, footer: footer),
                terminator: "")
            return ExitCode.success
        }
        var plans = try Self.plans(arguments)
        if plans[0].dryRun {
            print(plans.map(DryRun.render).joined(separator: "\n"), terminator: "")
            guard plans[0].estimates else { return ExitCode.success }
            try ProcessLimits.checkForRun()
            print(try DryRun.estimate(plans), terminator: "")
            return ExitCode.success
        }
        try ProcessLimits.checkForRun()
        // No --out: the rows go to a new results/run-<UTC>.csv, said on the last lines.
        let chosen = plans[0].out == nil ? try DefaultResults.create() : nil
        if let chosen { for i in plans.indices { plans[i].out = chosen } }
        let plan = plans[0]
        Interrupts.shared.install()
        let kept = TemporaryFolders.sweepStale().kept
        if let first = kept.first {
            FileHandle.standardError.write(
                Data(
                    ("loadgen: note: kept \(kept.count) temporary folder\(kept.count == 1 ? "" : "s") whose "
                        + "owner lives but cannot be proven to be another process (first: \(first)); remove it once that run is over\n")
                        .utf8))
        }
        var runner = Runner(plans: plans, arguments: arguments)
        do {
            try runner.runAll()
        } catch is Interrupted {
            FileHandle.standardError.write(
                Data("\nloadgen: interrupted; the unfinished repetition was not recorded\n".utf8))
            runner.interrupted(by: Interrupts.shared.signalName)
            if !runner.rows.isEmpty {
                if !plan.quiet {
                    FileHandle.standardError.write(
                        Data(("Finished before the interrupt:\n\n" + Summary.render(runner.summary)).utf8))
                }
                // What finished is a result: --markdown and --summary-csv say what it says.
                runner.writeReports()
            }
            if let chosen { Self.sayWhereTheRowsAre(chosen, rows: runner.rows.count, toStderr: true) }
            return Interrupts.shared.exitStatus
        }
        defer {
            if let chosen {
                Self.sayWhereTheRowsAre(chosen, rows: runner.rows.count, toStderr: plan.writesToStdout || plan.json)
            }
        }
        return try finish(&runner, plan: plan)
    }

    /// The run's plans (one per suite line), every output checked and every configuration
    /// expanded before the first repetition; the model's notes said once.
    private static func plans(_ arguments: [String]) throws -> [RunPlan] {
        var plans = try Suite.plans(arguments)
        let plan = plans[0]
        try checkOutputs(plan)
        // Each suite line's own files too, before the first line runs.
        for other in plans.dropFirst() {
            do {
                try checkDistinct(other)
                try checkStore(other)
            } catch let error as CommandError {
                let place = other.suiteLine.map { "run: --suite \($0): " } ?? "run: "
                throw CommandError(
                    message: place + error.message.replacingOccurrences(of: "run: ", with: ""), exitCode: error.exitCode
                )
            }
        }
        try expandAll(&plans)
        for p in plans {
            do { try checkOneKeptStore(p) } catch let error as CommandError where p.suiteLine != nil {
                throw CommandError(
                    message: "run: --suite \(p.suiteLine!): "
                        + error.message.replacingOccurrences(of: "run: ", with: ""),
                    exitCode: error.exitCode)
            }
        }
        if !plan.quiet && !plan.json {
            let notes = plans.flatMap(\.modelNotes).uniqued()
            if !notes.isEmpty { FileHandle.standardError.write(Data((notes.joined(separator: "\n") + "\n").utf8)) }
        }
        try Suite.shard(&plans, arguments)
        return plans
    }

    /// After the last repetition: the summary (or JSON), the reports, and the exit status.
    private static func finish(_ runner: inout Runner, plan: RunPlan) throws -> Int32 {
        let summary = runner.summary
        if plan.json {
            print(try JSONExporter().render(summary), terminator: "")
        } else if !plan.quiet {
            // With an output on stdout, the summary goes to stderr.
            let text = TerminalExporter().render(summary)
            let stops = runner.stopReasons.map { "\n" + $0 }.joined() + (runner.stopReasons.isEmpty ? "" : "\n")
            if plan.writesToStdout {
                FileHandle.standardError.write(Data((text + stops).utf8))
            } else {
                print(text + stops, terminator: "")
            }
        }
        runner.writeReports()
        // A lost output outranks a failed repetition: the failure is in the rows, the loss is not.
        if let failed = runner.outputFailures.first { return failed.exitCode }
        // A repetition the machine failed (a full disk, no memory) is the environment's: 74 or 71.
        let environment = runner.rows.compactMap { EnvironmentFailure.of($0.measurement) }
        if let first = environment.first {
            FileHandle.standardError.write(
                Data(
                    ("loadgen: \(environment.count) repetition\(environment.count == 1 ? "" : "s") failed "
                        + "on the environment, not the strategy: \(first.reason)\n").utf8))
            return first.exitCode
        }
        // A capped repetition is a figure censored by --repeat auto, not a failure of the run.
        return runner.rows.allSatisfy { $0.measurement.status == .ok || $0.measurement.cappedAfter != nil }
            ? ExitCode.success : ExitCode.failure
    }

    /// The file a run chose for itself (no `--out`): its path and the next commands, last; removed
    /// when no row reached it.
    private static func sayWhereTheRowsAre(_ path: String, rows: Int, toStderr: Bool) {
        guard rows > 0 else { return DefaultResults.removeIfEmpty(path) }
        let text = DefaultResults.footer(path)
        if toStderr { FileHandle.standardError.write(Data(text.utf8)) } else { print(text, terminator: "") }
    }

    /// Every file problem is found before the first repetition, so nothing runs for nothing and
    /// no results file is created or touched when one of them is wrong.
    static func checkOutputs(_ plan: RunPlan) throws {
        try checkDistinct(plan)
        try checkNames(plan)
        var checks: [(flag: String, check: () throws -> Void)] = []
        if let out = plan.out, out != "-" { checks.append(("--out", { try ResultsFile(path: out).checkAppendable() })) }
        if let timeline = plan.timeline {
            checks.append(
                (
                    "--timeline",
                    {
                        try ResultsFile(path: timeline, header: TimelineWriter.fileHeader.components(separatedBy: ","))
                            .checkAppendable()
                    }
                ))
        }
        if let markdown = plan.markdown { checks.append(("--markdown", { try Runner.markdownFile(markdown).check() })) }
        if let csv = plan.summaryCSV { checks.append(("--summary-csv", { try Runner.summaryFile(csv).check() })) }
        for (flag, check) in checks {
            do { try check() } catch let error as ResultsFileError {
                throw CommandError(message: "run: \(flag): \(error)", exitCode: error.exitCode)
            }
        }
        try checkStore(plan)
    }

    /// Every output's name leaves room for the files written beside it, checked before anything
    /// runs (`OutputName`).
    static func checkNames(_ plan: RunPlan) throws {
        let outputs: [(String, String?)] = [
            ("--out", plan.out == "-" ? nil : plan.out), ("--timeline", plan.timeline),
            ("--markdown", plan.markdown == "-" ? nil : plan.markdown),
            ("--summary-csv", plan.summaryCSV == "-" ? nil : plan.summaryCSV),
            ("--store", plan.storePath == "memory" ? nil : plan.storePath),
        ]
        for case (let flag, let path?) in outputs where !ResultsFile(path: path).isStream {
            if let problem = OutputName.problem(path) { throw CommandError.usage("run: \(flag) \(path): \(problem)") }
        }
    }

    static func checkStore(_ plan: RunPlan) throws {
        if let store = plan.storePath, store != "memory" { try StoreLocation.check(store) }
    }

    /// `--store PATH` keeps one store: with several configurations each would replace the one
    /// before and the last would be kept whatever was asked about (issue 44, item 6), so a run of
    /// several is refused once they are known, before anything runs, naming them. The limit's
    /// runs keep nothing.
    static func checkOneKeptStore(_ plan: RunPlan) throws {
        guard let store = plan.storePath, store != "memory" else { return }
        // The limit (raw-sqlite), added or named, is measured beside the kept one: it keeps nothing.
        let kept = plan.configurations.filter { !($0.writeStrategy?.isLimit ?? false) }
        if kept.count > 1 {
            let names = kept.prefix(3).map { c in
                let point = plan.label(of: c)
                return c.strategy + (point.isEmpty ? "" : " [\(point)]")
            }
            throw CommandError.usage(
                "run: --store \(store) keeps one store, and this run has \(kept.count) "
                    + "configurations (\(names.joined(separator: ", "))\(kept.count > 3 ? ", …" : "")): "
                    + "the last would replace the others; run one configuration with --store (for example "
                    + "--strategy \(kept[0].strategy) and one value of each swept flag), or leave --store out")
        }
    }

    /// Each file a run writes (and the file it reads) must be its own: one named twice would be
    /// overwritten by the other at the end of the run, after all the work.
    static func checkDistinct(_ plan: RunPlan) throws {
        var files: [(flag: String, path: String)] = []
        if let out = plan.out, out != "-" { files.append(("--out", out)) }
        if let timeline = plan.timeline { files.append(("--timeline", timeline)) }
        if let markdown = plan.markdown { files.append(("--markdown", markdown)) }
        if let csv = plan.summaryCSV { files.append(("--summary-csv", csv)) }
        if let store = plan.storePath, store != "memory" {
            files += StoreLocation.files(of: store).map { ("--store", $0) }
        }
        if let input = plan.inputPath { files.append(("--input", input)) }
        var seen: [String: (flag: String, path: String)] = [:]
        // Devices and pipes (/dev/null) take any number of outputs.
        for file in files where !ResultsFile(path: file.path).isStream {
            let key = canonical(file.path)
            if let earlier = seen[key], earlier.flag != file.flag {
                throw CommandError.usage(
                    "run: \(earlier.flag) \(earlier.path) and \(file.flag) \(file.path) name the same file; "
                        + "give each its own path")
            }
            seen[key] = file
        }
    }

    /// Expands every plan's configurations, on its import file's records when it has one.
    static func expandAll(_ plans: inout [RunPlan]) throws {
        for i in plans.indices {
            do { try expand(&plans[i]) } catch let error as CommandError {
                // A suite line's model, import file or roles: the line says which run it was.
                guard let line = plans[i].suiteLine else { throw error }
                throw CommandError(
                    message: "run: --suite \(line): " + error.message.replacingOccurrences(of: "run: ", with: ""),
                    exitCode: error.exitCode)
            }
        }
    }

    private static func expand(_ plan: inout RunPlan) throws {
        var input: InputFile?
        if let path = plan.inputPath {
            let datasets = plan.axes.first(where: { $0.parameter.flag == "--dataset" })?.values
            if let datasets, datasets.count > 1 {
                throw CommandError.usage(
                    "run: --dataset \(datasets.joined(separator: ",")): an import file holds one dataset")
            }
            // The pointer travels with the file as its fragment (`feed.json#/apps`), so children,
            // the CSV's input column and reruns all read the same records.
            let added = (plan.axes.first(where: { $0.parameter.flag == "--add-constraint" })?.values ?? [])
                .filter { $0 != "none" }.map { $0.split(separator: "+").map(String.init) }
            input = try InputFile.scan(
                path + (plan.inputPointer.map { "#" + $0 } ?? ""), for: plan.baseConfiguration,
                datasetGiven: datasets.flatMap { $0.first.flatMap(Dataset.init) }, addedConstraints: added)
        }
        try plan.expand(input: input)
    }

    /// An absolute path with `.`/`..` and symbolic links in it resolved (as far as they exist).
    private static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// `--dry-run`: the configurations and the order repetitions would run in.
enum DryRun {
    /// "estimated duration: about 4 min …", from a short calibration of every configuration here
    /// played through each plan's schedule (`RunEstimate`), with what one repetition of each
    /// configuration takes, so that a plan dominated by one idiom says which.
    static func estimate(_ plans: [RunPlan]) throws -> String {
        let (costs, spent, unknown) = try Calibration.costs(plans)
        let estimates = plans.map { RunEstimate(plan: $0, costs: costs) }
        let configurations = Set(plans.flatMap(\.schedule)).count
        guard unknown.count < configurations else {
            return "estimated duration: unknown (" + unknown.joined(separator: ", ") + ")\n"
        }
        let low = Format.duration(estimates.reduce(0) { $0 + $1.expected.lowerBound })
        let high = Format.duration(estimates.reduce(0) { $0 + $1.expected.upperBound })
        let worst = estimates.reduce(0) { $0 + $1.worst }
        let auto = estimates.compactMap(\.rounds)
        var text = "estimated duration: " + (low == high ? "about \(low)" : "\(low) to \(high)")
        if !auto.isEmpty {
            let fewest = auto.map(\.expected.lowerBound).max() ?? 0
            let rounds = auto.map(\.expected.upperBound).max() ?? 0
            let most = auto.map(\.worst).max() ?? 0
            text +=
                " (--repeat auto: \(fewest == rounds ? "\(rounds)" : "\(fewest) to \(rounds)") rounds if repetitions vary by "
                + "\(Int(RunEstimate.spread * 100)) % and the ratios are as calibrated"
                + (low == high ? "" : nearPairs(plans, estimates)) + "); "
                + "at most \(Format.duration(worst)) (\(most) rounds) if the order stays unclear until --budget"
        }
        let capped = estimates.flatMap(\.capped).map(\.strategy).uniqued()
        if !capped.isEmpty { text += "; stopped at the cap: \(capped.joined(separator: ", "))" }
        text +=
            " (each of the \(configurations) configuration\(configurations == 1 ? "" : "s") run here at up to "
            + "\(Calibration.firstRows) × \(Calibration.growth)ⁿ rows and extrapolated, in \(Format.duration(spent)); wall time "
            + "moves ±30 % here" + (unknown.isEmpty ? "" : "; not counted: \(unknown.joined(separator: ", "))") + ")\n"
        return text + perRepetition(plans, costs)
    }

    /// "; a range: context-reset [batch_size=1000] and context-reset [batch_size=10000] 1.13×
    /// apart, …": why the expected case is a range.
    private static func nearPairs(_ plans: [RunPlan], _ estimates: [RunEstimate]) -> String {
        let pairs = zip(plans, estimates).flatMap { plan, estimate in
            estimate.near.map { leader, follower, ratio in
                let name = { (c: RunConfiguration) in
                    c.strategy + (plan.label(of: c).isEmpty ? "" : " [\(plan.label(of: c))]")
                }
                return "\(name(leader)) and \(name(follower)) \(Format.fixed(ratio, 2))×"
            }
        }.sorted()
        guard !pairs.isEmpty else { return "" }
        return "; a range: " + pairs.joined(separator: ", ") + " apart, nearer than a calibration tells ("
            + "±\(Int((exp(RunEstimate.calibrationNoise) - 1) * 100)) %), so from told apart early to a tie"
    }

    /// "one repetition here: raw-sqlite 0.69 s, one-writer 0.84 s; filling the store once 0.70 s".
    private static func perRepetition(_ plans: [RunPlan], _ costs: [RunConfiguration: Calibration.Cost]) -> String {
        var parts: [String] = []
        var fill = 0.0
        for plan in plans {
            for c in plan.schedule {
                guard let cost = costs[c] else { continue }
                let label = plan.label(of: c)
                parts.append(c.strategy + (label.isEmpty ? "" : " [\(label)]") + " " + Format.duration(cost.repetition))
            }
            fill += RunEstimate.fills(plan.schedule, costs)
        }
        return "  one repetition here: " + parts.uniqued().joined(separator: ", ")
            + (fill > 0 ? "; filling the store once: \(Format.duration(fill))" : "") + "\n"
    }

    static func render(_ plan: RunPlan) -> String {
        let schedule = plan.schedule
        var text =
            "\(schedule.count) configuration\(schedule.count == 1 ? "" : "s") × "
            + (plan.repeats == 0
                ? "at least \(plan.plannedRepeats) repetitions (--repeat auto: until the order is clear, a tie or "
                    + "\(Format.duration(plan.budget)))" : "\(plan.repeats) repetition\(plan.repeats == 1 ? "" : "s")")
            + (plan.warmups > 0 ? " (+ \(plan.warmups) warm-up each)" : "")
            + " = \(plan.childProcesses) child processes"
            + (plan.countsInstructions ? " under callgrind (--instructions)" : "")
            + (plan.divisorLimits.isEmpty || plan.repeats == 0
                ? "" : " (each limit runs \(RunPlan.limitSamples) times a round)") + "\n"
        let divisors = plan.divisorLimits
        for (k, c) in schedule.enumerated() {
            let limit =
                divisors.contains(c)
                ? (plan.addedLimits.contains(c) ? "  (limit, added" : "  (limit")
                    + (plan.repeats == 0 ? ": once a round)" : ": median of \(RunPlan.limitSamples) runs a round)") : ""
            text +=
                "  configuration \(k + 1): \(c.strategy)"
                + (plan.label(of: c).isEmpty ? "" : "  [\(plan.label(of: c))]")
                + limit + "\n"
        }
        text +=
            "order: rounds 1…\(plan.repeats == 0 ? "n" : String(plan.repeats)), each running configurations 1…\(schedule.count)\n"
        for note in plan.notes { text += "note: \(note)\n" }
        return text
    }
}
