import Foundation
import Report
import Strategies

/// How long a plan will take on this machine, for `--dry-run`: each configuration is run here
/// as a real child at a few small sizes, and the whole child's time (start, fill, window,
/// verification) is fitted and extrapolated to the plan's rows.
///
/// Taken from the nightly baseline, the estimate was 5–80× low: the baseline runs synchronous
/// NORMAL and another day's disk, and `--strategy context-save-per-row --rows 150k` under FULL
/// (one fsync per save) was estimated at 18.5 s for a repetition of 26 minutes. A short
/// measurement of the configuration itself, with its own settings, has neither problem.
struct Calibration {
    /// A configuration's calibration stops at the first child that takes this long.
    static let childBudgetSeconds = 0.4
    /// The sizes tried, each `growth` times the one before, from `firstRows`.
    static let firstRows = 250
    static let growth = 4
    /// The child's fixed cost is measured at this many rows.
    static let tinyRows = 10

    /// One configuration's fit: seconds of a child at `rows` rows, and of its measured window.
    struct Fit {
        /// A child's cost that does not grow with rows.
        let fixed: Double
        /// The largest size measured and the seconds above `fixed` there.
        let rows: Double
        let seconds: Double
        /// How the cost grows beyond it, as a power of rows (1: linearly), from the two largest
        /// sizes measured, within 1…2.
        let exponent: Double
        /// The measured window at `rows` and its growth, the same way: the race compares rates,
        /// and a child's time around its window (records generated, the store checked) is the
        /// same for every idiom, so a ratio of whole children understates the ratio of rates.
        let window: Double
        let windowExponent: Double

        /// At `target` rows: the measured seconds scaled by the growth, down as well as up, so
        /// that more rows never read as less time (issue 44, item 9).
        func seconds(at target: Double) -> Double {
            fixed + Self.scaled(seconds, from: rows, to: target, exponent: exponent)
        }

        func window(at target: Double) -> Double {
            Self.scaled(window, from: rows, to: target, exponent: windowExponent)
        }

        static func scaled(_ value: Double, from rows: Double, to target: Double, exponent: Double) -> Double {
            target == rows ? value : value * pow(target / rows, exponent)
        }

        /// From the points measured (rows, seconds above the fixed cost, window), the largest last.
        init(fixed: Double, points: [(rows: Double, seconds: Double, window: Double)]) {
            let last = points[points.count - 1]
            func growth(_ value: KeyPath<(rows: Double, seconds: Double, window: Double), Double>) -> Double {
                guard points.count >= 2 else { return 1 }
                let before = points[points.count - 2]
                return min(2, max(1, log(last[keyPath: value] / before[keyPath: value]) / log(last.rows / before.rows)))
            }
            (self.fixed, rows, seconds, window) = (fixed, last.rows, last.seconds, last.window)
            (exponent, windowExponent) = (growth(\.seconds), growth(\.window))
        }
    }

    /// What one configuration costs here at the plan's rows.
    struct Cost {
        /// One repetition's child, start to verified end (from a copy of the filled store when
        /// the run keeps one, as every repetition after the first does).
        let repetition: Double
        /// Its measured window: the figure whose ratios the race judges.
        let window: Double
        /// Filling the store once for the configuration's family (0 when nothing is filled or
        /// every child fills its own, in memory).
        let fill: Double
        /// Why the run's conclusion would exclude it, judged on its largest calibration child as
        /// the race judges rows (a broken promise: the buggy idiom's duplicates, a failure), so
        /// that the estimate lets it leave after its first round as the race does; nil if not.
        var excluded: String?
    }

    /// Calibrates every configuration of `plans` (each once, however many repetitions it has)
    /// and returns each one's cost, what the calibration itself took, and the configurations that
    /// could not be calibrated, with why.
    static func costs(_ plans: [RunPlan]) throws -> (costs: [RunConfiguration: Cost], spent: Double, unknown: [String])
    {
        let started = Clock.nanoseconds()
        var costs: [RunConfiguration: Cost] = [:]
        var unknown: [String] = []
        // One fit per configuration whatever its rows, measured at the largest it is asked for: a
        // sweep of --rows is one curve, so its estimates grow with the rows.
        var fits: [RunConfiguration: (fit: Fit, fill: Fill?, last: Child)] = [:]
        func family(_ c: RunConfiguration) -> RunConfiguration {
            var k = c
            k.workload.rows = 0
            return k
        }
        for plan in plans {
            let largest = Dictionary(plan.schedule.map { (family($0), $0) }) { a, b in
                a.workload.rows >= b.workload.rows ? a : b
            }
            for c in plan.schedule where costs[c] == nil {
                guard c.input == nil else {
                    unknown.append("\(c.strategy) (an import file is read whole: time one repetition)")
                    continue
                }
                if fits[family(c)] == nil { fits[family(c)] = try fit(largest[family(c)] ?? c, plan: plan) }
                guard let (fit, fill, last) = fits[family(c)] else { continue }
                // A child the machine stopped (a memory limit, a full disk) timed nothing the run
                // would: its seconds are not an estimate.
                if let environment = last.measurement.flatMap(EnvironmentFailure.of) {
                    unknown.append("\(c.strategy) (its calibration failed on the environment: \(environment.reason))")
                    continue
                }
                let rows = Double(c.workload.rows)
                costs[c] = Cost(
                    repetition: fit.seconds(at: rows), window: fit.window(at: rows),
                    fill: fill.map { $0.seconds * rows / $0.rows } ?? 0)
            }
            for (c, why) in exclusions(plan, lastChildren: { fits[family($0)]?.last }) { costs[c]?.excluded = why }
        }
        return (costs, Clock.seconds(since: started), unknown)
    }

    /// What filling the store took beyond a copy of it, at the largest size measured; a fill
    /// grows with the rows it writes.
    struct Fill {
        let rows: Double
        let seconds: Double
    }

    /// Runs `c` at growing sizes until a child takes `childBudgetSeconds`, or the plan's size.
    static func fit(_ c: RunConfiguration, plan: RunPlan) throws -> (fit: Fit, fill: Fill?, last: Child) {
        let target = c.workload.rows
        let fixed = try repetitionSeconds(c, rows: min(target, tinyRows), plan: plan).child.seconds
        var points: [(rows: Double, seconds: Double, window: Double)] = []
        var fill: Fill?
        var last: Child
        var rows = min(target, firstRows)
        while true {
            let measured = try repetitionSeconds(c, rows: rows, plan: plan)
            last = measured.child
            points.append((Double(rows), max(measured.child.seconds - fixed, 1e-6), max(measured.child.window, 1e-6)))
            fill = measured.fill.map { Fill(rows: Double(rows), seconds: $0) }
            if rows >= target || measured.child.seconds >= childBudgetSeconds { break }
            rows = min(target, rows * growth)
        }
        return (Fit(fixed: fixed, points: points), fill, last)
    }

    /// One repetition of `c` at `rows` as the run makes it: when the run keeps a filled store
    /// (`Runner.prefillTemplate`), a first child fills and keeps it, and the repetition is a
    /// second child starting from its copy; the fill is the first's extra time.
    static func repetitionSeconds(_ c: RunConfiguration, rows: Int, plan: RunPlan) throws -> (
        child: Child, fill: Double?
    ) {
        guard c.operation.needsFilledStore, plan.storePath != "memory" else {
            return (try childSeconds(c, rows: rows, plan: plan, template: nil), nil)
        }
        let folder = try TemporaryFolders.make()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let template = folder + "/prefill.sqlite"
        let filling = try childSeconds(c, rows: rows, plan: plan, template: template)
        let copying = try childSeconds(c, rows: rows, plan: plan, template: template)
        return (copying, max(0, filling.seconds - copying.seconds))
    }

    /// One child's seconds, start to verified end, its measured window (0 when it measured none)
    /// and what it measured (a crash as status and reason; nil when it was stopped at a cap).
    struct Child {
        let rows: Int
        let seconds: Double
        let window: Double
        let measurement: RunMeasurement?
    }

    /// The configurations of `plan` that its conclusion, read from each one's largest
    /// calibration child, excludes, with why.
    static func exclusions(_ plan: RunPlan, lastChildren: (RunConfiguration) -> Child?) -> [(RunConfiguration, String)]
    {
        let identity = RunIdentity(
            runID: "calibration", startedAt: "", system: SystemInfo.current(gitRevision: ""), command: "")
        var byParameters: [ParameterValues: RunConfiguration] = [:]
        var rows: [ResultRow] = []
        for c in plan.schedule {
            guard let child = lastChildren(c) else { continue }
            var measured = c
            measured.workload.rows = child.rows
            let parameters = ParameterValues(measured.csvFields)
            byParameters[parameters] = c
            rows.append(
                ResultRow(
                    identity: identity, parameters: parameters, configuration: plan.label(of: c),
                    measurement: child.measurement ?? RunMeasurement(status: .crashed)))
        }
        let summary = RunSummary(
            rows: rows, sweptColumns: plan.sweptColumns, notes: plan.notes, marks: plan.marks,
            unranked: Set(StrategyRegistry.all.filter(\.isLimit).map(\.name)), options: plan.conclusions)
        return summary.recommendations.flatMap(\.excluded).compactMap { excluded in
            byParameters[excluded.configuration.parameters].map { ($0, excluded.why) }
        }
    }

    /// One child of `c` at `rows` rows here.
    static func childSeconds(_ c: RunConfiguration, rows: Int, plan: RunPlan, template: String?) throws -> Child {
        var configuration = c
        configuration.workload.rows = rows
        var scratch = plan
        // A kept store is never touched by a calibration: it runs in a temporary folder.
        if scratch.storePath != "memory" { scratch.storePath = nil }
        let runID = "calibration-\(rows)"
        let location = try StoreLocation(plan: scratch, configuration: configuration, runID: runID)
        defer { location.remove() }
        var task = ChildTask(
            configuration: configuration, store: location.options, runID: runID, label: "calibration",
            progress: .none, timelinePath: nil, orphanPaths: location.orphanPaths)
        task.underCallgrind = plan.countsInstructions
        task.prefillTemplate = template
        let started = Clock.nanoseconds()
        let outcome = try ChildProcess.run(
            task, callgrindOutput: plan.countsInstructions ? location.folder + "/callgrind.out" : nil)
        guard case .finished(let measurement) = outcome else {
            // A crash is kept as the run keeps it (status and reason), so that one under a
            // memory limit reads as the environment's.
            var crashed: RunMeasurement?
            if case .crashed(let reason) = outcome { crashed = .crashed(reason) }
            return Child(rows: rows, seconds: Clock.seconds(since: started), window: 0, measurement: crashed)
        }
        return Child(
            rows: rows, seconds: Clock.seconds(since: started), window: measurement.wallSeconds ?? 0,
            measurement: measurement)
    }
}
