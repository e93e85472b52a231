import Foundation
import Host
import Report
import Strategies

/// Runs the plan's repetitions in rounds and records each row the moment it is measured.
///
/// Each round runs every configuration once (limits first), so a machine that speeds up or
/// slows down during the run (caches, neighbours, heat) shifts every configuration alike, and a
/// row's `vs_limit` divides by its limit measured in the same round.
struct Runner {
    /// One plan for a run, one per line for a suite; outputs and progress follow the first.
    let plans: [RunPlan]
    private var plan: RunPlan { plans[0] }
    /// The plan whose repetitions run now (for labels and the child's settings).
    private var current = 0
    let system = SystemInfo.current(gitRevision: GitRevision.current())
    let invocation = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    /// Rows measured so far, in the order they ran.
    private(set) var rows: [ResultRow] = []
    /// Repetitions recorded per configuration, for what an interrupted run did not finish.
    private var repetitionsDone: [RunConfiguration: Int] = [:]
    /// Set by `interrupted(by:)`: the reports say what never ran.
    private var interruption: String?
    private var sequence = 0
    /// The folder of the filled stores kept for repetitions, and each fill's template by its
    /// configuration without the strategy (`prefillTemplate`).
    private var prefillFolder: String?
    private var prefillTemplates: [RunConfiguration: String] = [:]
    /// `--repeat auto`'s cap on the next repetition (`Cap`), nil for none.
    private var deadline: Cap?
    /// Why each `--repeat auto` plan stopped, for the summary's last lines.
    private(set) var stopReasons: [String] = []
    /// Outputs that failed, by option, in order: each fails on its own and gets no more rows;
    /// the run goes on, its summary is printed, and the exit status reports the first.
    private(set) var outputFailures: [CommandError] = []
    private var failedOutputs: Set<String> = []
    /// `--out -` or a device or pipe (`/dev/null`): rows stream to it, header first.
    private var streamedOut: FileHandle?
    /// Per suite line and configuration: the children still to run, and the seconds those that
    /// ran took (for the ETA: configurations differ by orders of magnitude, so each is timed on
    /// its own).
    private var childrenLeft: [Int: [RunConfiguration: Int]] = [:]
    private var childSeconds: [Int: [RunConfiguration: [Double]]] = [:]
    private var saidWhyNoInstructions = false
    private var saidWhyNoAllocations = false

    /// The invocation's command line, recorded with every row (`command`).
    let command: String

    init(plans: [RunPlan], arguments: [String]) {
        self.plans = plans
        for (i, plan) in plans.enumerated() {
            let divisors = plan.divisorLimits
            for c in plan.schedule {
                childrenLeft[i, default: [:]][c, default: 0] +=
                    plan.plannedRepeats * (divisors.contains(c) && plan.repeats != 0 ? RunPlan.limitSamples : 1)
                    + plan.warmups
            }
        }
        command = (["loadgen", "run"] + Self.absoluteInputs(arguments)).map(Self.shellQuoted).joined(separator: " ")
    }

    /// The files a run reads (`--model`, `--input`, `--suite`) as absolute paths, so that the
    /// recorded command reproduces from wherever it is pasted (issue 44, item 4: a model given as
    /// `../Model.xcdatamodeld` failed with 66 once `scripts/loadgen` ran from the checkout). An
    /// input's JSON pointer (`feed.json#/data/*`) stays as given.
    static func absoluteInputs(_ arguments: [String]) -> [String] {
        let reads: Set<String> = ["--model", "--input", "--suite"]
        let here = FileManager.default.currentDirectoryPath
        func absolute(_ value: String) -> String {
            let (file, pointer) =
                value.range(of: "#/").map { (String(value[..<$0.lowerBound]), String(value[$0.lowerBound...])) }
                ?? (value, "")
            guard !file.isEmpty, !file.hasPrefix("/") else { return value }
            return URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: here, isDirectory: true))
                .standardizedFileURL.path + pointer
        }
        var out = arguments
        var i = 0
        while i < out.count {
            if let eq = out[i].firstIndex(of: "="), reads.contains(String(out[i][..<eq])) {
                out[i] = String(out[i][...eq]) + absolute(String(out[i][out[i].index(after: eq)...]))
            } else if reads.contains(out[i]), i + 1 < out.count {
                out[i + 1] = absolute(out[i + 1])
                i += 1
            }
            i += 1
        }
        return out
    }

    /// A word as a POSIX shell reads it back: quoted when it holds anything but letters, digits
    /// and `-_./=,:+@%`.
    static func shellQuoted(_ word: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:+@%")
        guard word.isEmpty || !word.allSatisfy(plain.contains) else { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// What the rows so far say, for every output.
    var summary: RunSummary {
        var marks: [String: String] = [:]
        for p in plans { marks.merge(p.marks) { a, _ in a } }
        var summary = RunSummary(
            rows: rows, sweptColumns: plans.flatMap(\.sweptColumns).uniqued(), notes: plans.flatMap(\.notes).uniqued(),
            marks: marks, unranked: Set(StrategyRegistry.all.filter(\.isLimit).map(\.name)),
            options: plan.conclusions)
        summary.interruption = interruption
        return summary
    }

    /// Records that `signal` stopped the run, with the configurations it left unfinished.
    mutating func interrupted(by signal: String) {
        var never: [String] = []
        var partly = 0
        var scheduled = 0
        for p in plans {
            for c in p.schedule {
                scheduled += p.plannedRepeats
                let done = repetitionsDone[c] ?? 0
                if done == 0 {
                    let label = p.label(of: c)
                    never.append(c.strategy + (label.isEmpty ? "" : " " + label))
                } else if done < p.plannedRepeats {
                    partly += 1
                }
            }
        }
        let listed = never.prefix(6).joined(separator: "; ") + (never.count > 6 ? "; … \(never.count - 6) more" : "")
        interruption =
            "Interrupted by \(signal) after \(rows.count) of \(scheduled) repetitions: "
            + (never.isEmpty
                ? "every configuration ran at least once"
                : "\(never.count) configuration\(never.count == 1 ? "" : "s") never ran (\(listed))")
            + (partly == 0 ? "" : ", \(partly) ran only part of their repetitions")
            + ". The figures are of what finished."
    }

    mutating func runAll() throws {
        defer { removePrefilledStores() }
        for i in plans.indices {
            current = i
            try run(plans[i], line: plans.count > 1 ? "suite line \(i + 1) of \(plans.count), " : "")
        }
    }

    private mutating func run(_ plan: RunPlan, line: String) throws {
        let schedule = plan.schedule
        for (k, configuration) in schedule.enumerated() {
            for w in 0..<plan.warmups {
                _ = try repetition(
                    configuration, label: "\(line)\(k + 1)/\(schedule.count) warm-up \(w + 1)/\(plan.warmups)",
                    timeline: false)
            }
        }
        if var auto = plan.autoRepeat {
            try runUntilSettled(plan, line: line, auto: &auto)
            return
        }
        for r in 1...plan.repeats {
            // Each row written as its repetition ends: a run stopped later keeps it.
            _ = try round(
                r, of: schedule, plan: plan, recording: true,
                label: { k in "\(line)configuration \(k + 1) of \(schedule.count), repetition \(r) of \(plan.repeats)" }
            )
        }
    }

    /// `--repeat auto`: rounds of the configurations still racing (and the limits they divide
    /// by) until `AutoRepeat` says the answer is settled or the budget is spent. A round's rows
    /// are written once it is decided, so the row a configuration leaves with says why.
    private mutating func runUntilSettled(_ plan: RunPlan, line: String, auto: inout AutoRepeat) throws {
        let schedule = plan.schedule
        let limits = Set(schedule.filter { $0.writeStrategy?.isLimit ?? false })
        let ranked = schedule.filter { !limits.contains($0) }
        let byParameters = Dictionary(
            schedule.map { (ParameterValues($0.csvFields), $0) }, uniquingKeysWith: { a, _ in a })
        var planRows: [ResultRow] = []
        let started = Clock.nanoseconds()
        for r in 1...AutoRepeat.maximumRounds {
            let racing = ranked.filter(auto.races)
            let needed = Set(racing.map(RunPlan.limit(of:)))
            let configurations = plan.raceOrder(
                schedule.filter { limits.contains($0) ? needed.contains($0) || ranked.isEmpty : auto.races($0) })
            let roundStart = Clock.nanoseconds()
            var rows = try round(
                r, of: configurations, plan: plan, recording: false,
                cap: { runner, c in
                    limits.contains(c) || ranked.count < 2
                        ? nil : plan.cap.map { runner.cap(ranked, factor: $0, budget: plan.budget) }
                },
                label: { k in
                    "\(line)configuration \(k + 1) of \(configurations.count), round \(r) (--repeat auto, budget \(Format.duration(plan.budget)))"
                })
            planRows += rows
            let summary = RunSummary(
                rows: planRows, sweptColumns: plan.sweptColumns, notes: plan.notes, marks: plan.marks,
                unranked: Set(StrategyRegistry.all.filter(\.isLimit).map(\.name)), options: plan.conclusions)
            auto.decide(
                after: r, recommendations: summary.recommendations, configuration: { byParameters[$0.parameters] },
                spent: Clock.seconds(since: started), lastRound: Clock.seconds(since: roundStart))
            for (i, c) in configurations.enumerated() {
                if racing.contains(c) && !auto.races(c) { rows[i].stop = auto.left[c] }
                if let stopped = auto.stopped { rows[i].stop = rows[i].stop ?? stopped }
            }
            for row in rows { record(row) }
            if auto.stopped != nil { break }
        }
        stopReasons.append(
            (line.isEmpty ? "" : line) + "repetitions (--repeat auto): " + (auto.stopped ?? "stopped")
                + (auto.left.isEmpty
                    ? ""
                    : "; left the race: "
                        + auto.left.keys.map { c in
                            c.strategy + (plan.label(of: c).isEmpty ? "" : " [\(plan.label(of: c))]")
                        }.sorted().joined(separator: ", ")))
    }

    /// The longest a repetition of a racing configuration may run (issue 56, item 2's capping):
    /// `--cap` times the fastest configuration's slowest repetition so far (the leader's, near
    /// enough), never under `Cap.floor`; before any configuration finished one, the budget.
    private func cap(_ ranked: [RunConfiguration], factor: Double, budget: Double) -> Cap {
        let slowest = ranked.compactMap { childSeconds[current]?[$0]?.max() }
        guard let reference = slowest.min() else {
            return Cap(seconds: budget, why: "the whole --budget, before another configuration finished a repetition")
        }
        let seconds = max(Cap.floor, factor * reference)
        return Cap(
            seconds: seconds,
            why: String(
                format: "--cap %g: %g× the fastest configuration's slowest repetition, %@: at least %.1f× slower",
                factor, factor, Format.duration(reference), seconds / reference))
    }

    /// A repetition's deadline and what it means, for the row of one that reaches it.
    struct Cap {
        let seconds: Double
        let why: String
        /// Never under a second: a process starting is noise at that scale.
        static let floor = 1.0
    }

    /// One round: each of `configurations` once, in order, with the rows it made (the limit's
    /// `vs_limit` filled in); the timeline written as it goes, and with `recording` each row too.
    private mutating func round(
        _ r: Int, of configurations: [RunConfiguration], plan: RunPlan, recording: Bool,
        cap: (Self, RunConfiguration) -> Cap? = { _, _ in nil },
        label: (Int) -> String
    ) throws -> [ResultRow] {
        let divisors = plan.divisorLimits
        var limits: [RunConfiguration: Double] = [:]
        var rows: [ResultRow] = []
        defer { deadline = nil }
        for (k, configuration) in configurations.enumerated() {
            deadline = cap(self, configuration)
            // Under --repeat auto the limit runs once a round: the race judges rates paired by
            // round, and more rounds, not more samples, steady vs_limit (three samples of a
            // 150k-row limit in two layouts took a minute of every round).
            let done = try limitOrRepetition(
                configuration, label: label(k), sampled: divisors.contains(configuration) && plan.repeats != 0)
            if let timeline = plan.timeline, !done.timelineRows.isEmpty {
                let file = ResultsFile(path: timeline, header: TimelineWriter.fileHeader.components(separatedBy: ","))
                write("--timeline") { try file.append(done.timelineRows) }
            }
            var row = ResultRow(
                identity: RunIdentity(runID: done.runID, startedAt: done.startedAt, system: system, command: command),
                parameters: ParameterValues(configuration.csvFields), repetition: r,
                repetitions: plan.repeats, configuration: plan.label(of: configuration),
                measurement: done.measurement)
            let limit = RunPlan.limit(of: configuration)
            if configuration == limit, let rate = done.measurement.rowsPerSecond { limits[limit] = rate }
            if let base = limits[limit], let rate = done.measurement.rowsPerSecond { row.vsLimit = rate / base }
            repetitionsDone[configuration, default: 0] += 1
            if recording { record(row) }
            rows.append(row)
        }
        return rows
    }

    private mutating func record(_ row: ResultRow) {
        append(row)
        rows.append(row)
    }

    /// One measured repetition: what the row and the timeline get.
    private struct Repetition {
        let runID: String
        let startedAt: String
        let measurement: RunMeasurement
        /// The timeline samples of this repetition (empty without `--timeline`).
        let timelineRows: [[String]]
    }

    /// A repetition; for a limit other configurations divide by, `RunPlan.limitSamples` of them
    /// back to back, and the one with the median rate is the round's (see `RunPlan.limitSamples`).
    private mutating func limitOrRepetition(
        _ configuration: RunConfiguration, label: String,
        sampled: Bool
    ) throws -> Repetition {
        guard sampled else { return try repetition(configuration, label: label, timeline: true) }
        var samples: [Repetition] = []
        for s in 1...RunPlan.limitSamples {
            samples.append(
                try repetition(
                    configuration, label: label + " (limit sample \(s) of \(RunPlan.limitSamples))",
                    timeline: true))
        }
        // A sample that failed is the round's: a failure is never hidden behind its siblings.
        if let failed = samples.first(where: { $0.measurement.status != .ok || $0.measurement.rowsPerSecond == nil }) {
            return failed
        }
        return samples.sorted { $0.measurement.rowsPerSecond! < $1.measurement.rowsPerSecond! }[samples.count / 2]
    }

    private mutating func repetition(
        _ configuration: RunConfiguration, label: String,
        timeline: Bool
    ) throws -> Repetition {
        sequence += 1
        let runID = "\(invocation)-\(sequence)"
        let startedAt = ISO8601DateFormatter().string(from: Date())
        let plan = plans[current]
        let location = try StoreLocation(plan: plan, configuration: configuration, runID: runID)
        defer { location.remove() }
        let timelinePart = timeline && plan.timeline != nil ? location.folder + "/timeline.csv" : nil
        let point = plan.label(of: configuration)
        let display = "\(configuration.strategy)" + (point.isEmpty ? "" : " [\(point)]") + "  \(label)" + eta()
        if plan.progress == .lines || (plan.progress == .auto && !Posix.isTerminal(2) && !plan.quiet) {
            FileHandle.standardError.write(Data("loadgen: \(display)\n".utf8))
        }
        var task = ChildTask(
            configuration: configuration, store: location.options, runID: runID, label: display,
            progress: plan.progress, timelinePath: timelinePart, orphanPaths: location.orphanPaths)
        task.underCallgrind = plan.countsInstructions
        task.prefillTemplate = try prefillTemplate(configuration, plan: plan)
        var measurement: RunMeasurement
        let childStarted = Clock.nanoseconds()
        let cap = deadline
        switch try ChildProcess.run(
            task, callgrindOutput: plan.countsInstructions ? location.folder + "/callgrind.out" : nil,
            deadline: cap?.seconds)
        {
        case .finished(let m): measurement = m
        case .crashed(let reason): measurement = .crashed(reason)
        case .capped(let seconds):
            // A censored figure: no rate is recorded, and the row says how much slower at least.
            measurement = RunMeasurement(status: .failed)
            measurement.cappedAfter = seconds
            measurement.error =
                "capped: stopped after \(Format.duration(seconds)) (\(cap?.why ?? "its deadline")); not a measured rate, "
                + "and its store, unfinished, was not checked"
        }
        childSeconds[current, default: [:]][configuration, default: []].append(Clock.seconds(since: childStarted))
        childrenLeft[current]?[configuration]? -= 1
        sayWhatIsNotCounted(measurement)
        Self.checkInputUnchanged(plan, &measurement)
        try Self.keepStore(location, &measurement)
        var timelineRows: [[String]] = []
        if let timelinePart, let samples = FileManager.default.contents(atPath: timelinePart), !samples.isEmpty {
            let lines = String(decoding: samples, as: UTF8.self).split(separator: "\n")
            timelineRows = lines.map { $0.components(separatedBy: ",") + [configuration.strategy, point] }
        }
        return Repetition(runID: runID, startedAt: startedAt, measurement: measurement, timelineRows: timelineRows)
    }

    /// Where the filled store of `configuration` is kept for its repetitions (one folder for the
    /// run, removed at its end); nil when nothing is filled or the store lives in memory. Keyed
    /// by the configuration without its strategy: the fill is the same raw import whatever the
    /// strategy, so the idioms of one question start from one fill.
    private mutating func prefillTemplate(_ configuration: RunConfiguration, plan: RunPlan) throws -> String? {
        guard configuration.operation.needsFilledStore, plan.storePath != "memory" else { return nil }
        var key = configuration
        key.strategy = ""
        if let known = prefillTemplates[key] { return known }
        if prefillFolder == nil { prefillFolder = try TemporaryFolders.make() }
        let template = prefillFolder! + "/prefill-\(prefillTemplates.count + 1).sqlite"
        prefillTemplates[key] = template
        return template
    }

    /// Removes the filled stores kept for the run's repetitions.
    func removePrefilledStores() {
        if let prefillFolder { try? FileManager.default.removeItem(atPath: prefillFolder) }
    }

    /// Fails a repetition whose `--input` file is not the version the run counted (replaced or
    /// rewritten since it was read): its rows and its verifier's expectations came from records
    /// the row does not describe (3,000 recorded, 500 stored, ok: issue 55, item 12).
    private static func checkInputUnchanged(_ plan: RunPlan, _ measurement: inout RunMeasurement) {
        guard let counted = plan.inputVersion else { return }
        let now = FileIdentity(path: counted.path)
        guard now != counted.identity else { return }
        measurement.fail(
            "--input \(counted.path) changed during the run (read as \(counted.identity), now "
                + (now.map(\.description) ?? "gone") + "): run again once nothing writes it")
    }

    /// Once per run, why a work figure stays blank: no instruction counter on this machine, or an
    /// allocator that does not count requests (a build with LOADGEN_NO_JEMALLOC).
    private mutating func sayWhatIsNotCounted(_ measurement: RunMeasurement) {
        guard !plan.quiet else { return }
        if let reason = measurement.instructionsUnavailable, !saidWhyNoInstructions {
            saidWhyNoInstructions = true
            let instead = Host.valgrindRuns ? "; --instructions counts them under valgrind" : ""
            FileHandle.standardError.write(
                Data("loadgen: instructions are not counted here (\(reason))\(instead)\n".utf8))
        }
        if measurement.allocations == nil, JemallocCounts.shared == nil, !saidWhyNoAllocations {
            saidWhyNoAllocations = true
            FileHandle.standardError.write(
                Data(
                    ("loadgen: allocation requests are not counted here (the allocator is "
                        + "\(Heap.allocatorName)'s; only jemalloc counts them: build without LOADGEN_NO_JEMALLOC)\n")
                        .utf8))
        }
    }

    /// `--store PATH`: a kept store replaces the previous one only when the repetition is ok:
    /// verified and whole. A failed one (a full disk, a broken promise) is removed with its
    /// journal files, and the previous store stays as it was.
    private static func keepStore(_ location: StoreLocation, _ measurement: inout RunMeasurement) throws {
        guard let kept = location.keptPath else { return }
        if measurement.status == .ok {
            do { try location.keep() } catch let error as CommandError { measurement.fail(error.message) }
            return
        }
        let previous =
            FileManager.default.fileExists(atPath: kept) ? "the previous store there is unchanged" : "nothing is there"
        measurement.fail(
            "the store was not kept at \(kept) (the repetition \(measurement.status.rawValue)); " + previous)
    }

    /// " · ETA 1 min 5 s": each configuration's children still to run times what its children
    /// took so far; until every configuration has run once, what is known and how many are not
    /// yet timed (a per-row save under FULL can take 10 000 times a limit's run: an average over
    /// other configurations would be wrong by as much).
    private func eta() -> String {
        var seconds = 0.0
        var untimed = 0
        for (line, left) in childrenLeft {
            for (c, count) in left where count > 0 {
                if let taken = childSeconds[line]?[c], !taken.isEmpty {
                    seconds += Double(count) * taken.reduce(0, +) / Double(taken.count)
                } else {
                    untimed += 1
                }
            }
        }
        guard seconds > 0 else { return "" }
        return " · ETA \(Format.duration(seconds))"
            + (untimed == 0 ? "" : " + \(untimed) configuration\(untimed == 1 ? "" : "s") not yet timed")
    }

    // MARK: Outputs

    private mutating func append(_ row: ResultRow) {
        guard let out = plan.out else { return }
        if out == "-" || ResultsFile(path: out).isStream {
            var handle = streamedOut
            write("--out") {
                if handle == nil {
                    let opened =
                        out == "-" ? FileHandle.standardOutput : try FileHandle(forWritingTo: URL(fileURLWithPath: out))
                    try opened.write(contentsOf: Data(CSV.line(ResultRow.header).utf8))
                    handle = opened
                }
                try handle?.write(contentsOf: Data(CSV.line(row.fields).utf8))
            }
            streamedOut = handle
            return
        }
        write("--out") { try ResultsFile(path: out).append([row]) }
    }

    /// Writes `--markdown` and `--summary-csv` from the summary of every row.
    mutating func writeReports() {
        let summary = self.summary
        if let path = plan.markdown {
            write("--markdown") { try Self.markdownFile(path).write(MarkdownExporter().render(summary)) }
        }
        if let path = plan.summaryCSV {
            write("--summary-csv") { try Self.summaryFile(path).write(SummaryCSVExporter().render(summary)) }
        }
    }

    static func markdownFile(_ path: String) -> ReportFile {
        ReportFile(path: path, signature: MarkdownExport.signature)
    }
    static func summaryFile(_ path: String) -> ReportFile { ReportFile(path: path, signature: SummaryCSV.signature) }

    /// An output's failure in words: the system's reason for a POSIX error (Foundation's own
    /// text reads "NSCocoaErrorDomain Code=512 (null)"), and what a closed pipe means.
    static func describe(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        let posix = [error as NSError, underlying].compactMap { $0 }.first { $0.domain == NSPOSIXErrorDomain }
        guard let posix else { return "\(error)" }
        if posix.code == Int(EPIPE) { return "the reader of stdout closed it (a pipe into head?)" }
        return String(cString: strerror(Int32(posix.code)))
    }

    /// Writes to the output of `flag` unless it failed before; a failure is reported once and
    /// remembered, and the run goes on.
    private mutating func write(_ flag: String, _ body: () throws -> Void) {
        guard !failedOutputs.contains(flag) else { return }
        do {
            try body()
        } catch {
            let code = (error as? ResultsFileError)?.exitCode ?? ExitCode.ioError
            let failure = CommandError(message: "run: \(flag): \(Self.describe(error))", exitCode: code)
            failedOutputs.insert(flag)
            outputFailures.append(failure)
            FileHandle.standardError.write(
                Data("loadgen: \(failure.message); \(flag) gets no more rows, the run goes on\n".utf8))
        }
    }
}
