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

    /// One configuration's fit: seconds of a child at `rows` rows.
    struct Fit {
        /// A child's cost that does not grow with rows.
        let fixed: Double
        /// The largest size measured and the seconds above `fixed` there.
        let rows: Double
        let seconds: Double
        /// How the cost grows beyond it, as a power of rows (1: linearly), from the two largest
        /// sizes measured, within 1…2.
        let exponent: Double

        /// At `target` rows: the measured seconds scaled by the growth, down as well as up, so
        /// that more rows never read as less time (issue 44, item 9).
        func seconds(at target: Double) -> Double {
            target == rows ? fixed + seconds : fixed + seconds * pow(target / rows, exponent)
        }
    }

    /// Calibrates every configuration of `plans` (each once, however many repetitions it has)
    /// and returns the plans' estimated seconds, what the calibration itself took, and the
    /// configurations that could not be calibrated, with why.
    static func estimate(_ plans: [RunPlan]) throws -> (seconds: Double, spent: Double, unknown: [String]) {
        let started = Clock.nanoseconds()
        var total = 0.0
        var unknown: [String] = []
        // One fit per configuration whatever its rows, measured at the largest it is asked for: a
        // sweep of --rows is one curve, so its estimates grow with the rows.
        var fits: [RunConfiguration: Fit] = [:]
        func family(_ c: RunConfiguration) -> RunConfiguration { var k = c; k.workload.rows = 0; return k }
        for plan in plans {
            let divisors = plan.divisorLimits
            let largest = Dictionary(plan.schedule.map { (family($0), $0) }) { a, b in a.workload.rows >= b.workload.rows ? a : b }
            for c in plan.schedule {
                guard c.input == nil else {
                    unknown.append("\(c.strategy) (an import file is read whole: time one repetition)")
                    continue
                }
                if fits[family(c)] == nil { fits[family(c)] = try fit(largest[family(c)] ?? c, plan: plan) }
                guard let fit = fits[family(c)] else { continue }
                let children = Double(plan.plannedRepeats * (divisors.contains(c) && plan.repeats != 0 ? RunPlan.limitSamples : 1) + plan.warmups)
                total += children * fit.seconds(at: Double(c.workload.rows))
            }
        }
        return (total, Clock.seconds(since: started), unknown)
    }

    /// Runs `c` at growing sizes until a child takes `childBudgetSeconds`, or the plan's size.
    static func fit(_ c: RunConfiguration, plan: RunPlan) throws -> Fit {
        let target = c.workload.rows
        let fixed = try childSeconds(c, rows: min(target, tinyRows), plan: plan)
        var points: [(rows: Double, seconds: Double)] = []
        var rows = min(target, firstRows)
        while true {
            let seconds = try childSeconds(c, rows: rows, plan: plan)
            points.append((Double(rows), max(seconds - fixed, 1e-6)))
            if rows >= target || seconds >= childBudgetSeconds { break }
            rows = min(target, rows * growth)
        }
        let last = points[points.count - 1]
        var exponent = 1.0
        if points.count >= 2 {
            let before = points[points.count - 2]
            exponent = log(last.seconds / before.seconds) / log(last.rows / before.rows)
        }
        return Fit(fixed: fixed, rows: last.rows, seconds: last.seconds, exponent: min(2, max(1, exponent)))
    }

    /// The seconds one child of `c` at `rows` rows takes here, start to verified end.
    static func childSeconds(_ c: RunConfiguration, rows: Int, plan: RunPlan) throws -> Double {
        var configuration = c
        configuration.workload.rows = rows
        var scratch = plan
        // A kept store is never touched by a calibration: it runs in a temporary folder.
        if scratch.storePath != "memory" { scratch.storePath = nil }
        let runID = "calibration-\(rows)"
        let location = try StoreLocation(plan: scratch, configuration: configuration, runID: runID)
        defer { location.remove() }
        var task = ChildTask(configuration: configuration, store: location.options, runID: runID, label: "calibration",
                             progress: .none, timelinePath: nil, orphanPaths: location.orphanPaths)
        task.underCallgrind = plan.countsInstructions
        let started = Clock.nanoseconds()
        _ = try ChildProcess.run(task, callgrindOutput: plan.countsInstructions ? location.folder + "/callgrind.out" : nil)
        return Clock.seconds(since: started)
    }
}
