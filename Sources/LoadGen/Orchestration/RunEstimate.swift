import Foundation
import Report
import Strategies

/// How long a plan's run will take, from each configuration's calibrated cost (`Calibration`),
/// following the run's own schedule (issue 56, item 4): warm-ups, fills made once per family,
/// rounds of every configuration (a limit sampled `RunPlan.limitSamples` times under a fixed
/// `--repeat`), and under `--repeat auto` the race: a repetition capped at `--cap` times the
/// fastest so far, configurations leaving once told apart, and the stop at `--budget`.
///
/// Before, the estimate counted three full rounds for auto and every fill anew: a question with
/// a per-row idiom that the cap stops after a minute read 43 minutes, and an update question
/// whose run filled once read 1.4× its real time.
struct RunEstimate {
    /// Seconds when the repetitions come out as calibrated: for auto, the rounds the race needs
    /// if each pair's paired ratios spread by `spread`. A range when a pair's calibrated ratio is
    /// nearer 1 than a calibration tells (`near`): from that pair settling early to a tie.
    let expected: ClosedRange<Double>
    /// Seconds if no pair is ever settled: the race runs until `--budget` (or its three rounds).
    let worst: Double
    /// Under `--repeat auto`: the rounds of the expected case (a range as `expected` is) and of
    /// the worst case.
    let rounds: (expected: ClosedRange<Int>, worst: Int)?
    /// Configurations the cap is expected to stop (in their first repetition, or in a later round
    /// once a faster one has set the cap).
    let capped: [RunConfiguration]
    /// The pairs whose calibrated ratio is within `calibrationNoise` of 1: (leader, follower,
    /// the calibrated ratio).
    let near: [(RunConfiguration, RunConfiguration, Double)]

    /// The spread (standard deviation) of a pair's paired log ratios assumed for the expected
    /// case: 0.01–0.05 between configurations of one question on this 2-core machine when it is
    /// otherwise idle, up to 0.2 with other work running (issue 56's measurements).
    static let spread = 0.05
    /// How far, in log, one calibration's ratio of two configurations can be from the one their
    /// run measures: the context-reset sweep's batch sizes 1,000 and 10,000 (1.04× in the run)
    /// calibrated from 0.91× to 1.2× over 26 calls (decision 0043's addendum).
    static let calibrationNoise = 0.2

    init(plan: RunPlan, costs: [RunConfiguration: Calibration.Cost]) {
        let schedule = plan.schedule
        let warm = Double(plan.warmups) * schedule.reduce(0) { $0 + (costs[$1]?.repetition ?? 0) }
        guard plan.repeats == 0 else {
            let divisors = plan.divisorLimits
            let round = schedule.reduce(0) { total, c in
                total + Double(divisors.contains(c) ? RunPlan.limitSamples : 1) * (costs[c]?.repetition ?? 0)
            }
            let seconds = warm + Self.fills(schedule, costs) + Double(plan.repeats) * round
            (expected, worst, rounds, capped, near) = (seconds...seconds, seconds, nil, [], [])
            return
        }
        let early = Race(plan: plan, costs: costs, reading: .earliest)
        let late = Race(plan: plan, costs: costs, reading: .latest)
        let unclear = Race(plan: plan, costs: costs, reading: .never)
        let (low, high) = (min(early.seconds, late.seconds), max(early.seconds, late.seconds))
        expected = (warm + low)...(warm + high)
        worst = warm + max(high, unclear.seconds)
        let fewest = min(early.rounds, late.rounds)
        let most = max(early.rounds, late.rounds)
        rounds = (fewest...most, max(most, unclear.rounds))
        capped = early.capped
        near = early.near
    }

    /// Each family's fill once: the runner keeps one filled store per configuration without
    /// its strategy (`Runner.prefillTemplate`).
    static func fills(_ configurations: [RunConfiguration], _ costs: [RunConfiguration: Calibration.Cost]) -> Double {
        var families: [RunConfiguration: Double] = [:]
        for c in configurations {
            var family = c
            family.strategy = ""
            families[family] = max(families[family] ?? 0, costs[c]?.fill ?? 0)
        }
        return families.values.reduce(0, +)
    }
}

// MARK: - The race, simulated

extension RunEstimate {
    /// `Runner.runUntilSettled` played with calibrated seconds instead of children: the same
    /// configurations per round, the same cap, the same stop.
    struct Race {
        private(set) var seconds = 0.0
        private(set) var rounds = 0
        private(set) var capped: [RunConfiguration] = []
        private(set) var near: [(RunConfiguration, RunConfiguration, Double)] = []

        /// Which round each follower leaves at, from its calibrated ratio to its leader.
        enum Reading {
            /// At `SequentialRatio.roundsToSettle`'s earliest for the calibrated ratio.
            case earliest
            /// At its latest: a near pair as a tie.
            case latest
            /// Never: every pair stays open (the worst case).
            case never
        }

        /// Unless `never`, each configuration leaves at the round `SequentialRatio` would settle
        /// it against its group's leader if the ratios were the calibrated ones (`reading` says
        /// which end for a near pair); with `never`, none ever does (the worst case).
        init(plan: RunPlan, costs: [RunConfiguration: Calibration.Cost], reading: Reading) {
            let schedule = plan.schedule
            let limits = Set(schedule.filter { $0.writeStrategy?.isLimit ?? false })
            let ranked = schedule.filter { !limits.contains($0) }
            var settle: [RunConfiguration: Int] = [:]
            var slowest: [RunConfiguration: Double] = [:]
            var filled: Set<RunConfiguration> = []
            var excluded: Set<RunConfiguration> = []
            var spent = 0.0
            for r in 1...AutoRepeat.maximumRounds {
                let racing = ranked.filter {
                    !capped.contains($0) && !excluded.contains($0) && r <= (settle[$0] ?? Int.max)
                }
                let needed = Set(racing.map(RunPlan.limit(of:)))
                var round = 0.0
                for c in plan.raceOrder(schedule)
                where limits.contains(c) ? needed.contains(c) || ranked.isEmpty : racing.contains(c) {
                    var family = c
                    family.strategy = ""
                    var child = (costs[c]?.repetition ?? 0) + (filled.insert(family).inserted ? costs[c]?.fill ?? 0 : 0)
                    if !limits.contains(c), ranked.count >= 2, let factor = plan.cap {
                        let reference = ranked.compactMap { slowest[$0] }.min()
                        let cap = reference.map { max(Runner.Cap.floor, factor * $0) } ?? plan.budget
                        if child > cap { (child, capped) = (cap, capped + [c]) }
                    }
                    if !limits.contains(c) { slowest[c] = max(slowest[c] ?? 0, child) }
                    // Excluded by the conclusion: it leaves after its first round, as in the race.
                    if !limits.contains(c), costs[c]?.excluded != nil { excluded.insert(c) }
                    round += child
                }
                spent += round
                rounds = r
                let staying = ranked.filter { !capped.contains($0) && !excluded.contains($0) }
                if r == 1 && reading != .never {
                    (settle, near) = Self.settlingRounds(staying, costs: costs, plan: plan, reading: reading)
                }
                let goesOn = staying.contains { r < (settle[$0] ?? Int.max) }
                if !goesOn || (r >= SequentialRatio.minimumPairs && spent + round > plan.budget) { break }
            }
            seconds = spent
        }

        /// The round after which each configuration leaves: a follower when its calibrated
        /// ratio to its workload's leader would be settled, the leader with its last follower,
        /// and none before the three rounds the race always runs; and the near pairs.
        static func settlingRounds(
            _ ranked: [RunConfiguration], costs: [RunConfiguration: Calibration.Cost],
            plan: RunPlan, reading: Reading
        ) -> ([RunConfiguration: Int], [(RunConfiguration, RunConfiguration, Double)]) {
            var settle: [RunConfiguration: Int] = [:]
            var near: [(RunConfiguration, RunConfiguration, Double)] = []
            let workloads = Dictionary(grouping: ranked) { "\($0.operation.rawValue) \($0.workload.rows)" }
            for group in workloads.values {
                let work = { (c: RunConfiguration) in max(costs[c]?.window ?? 0, 1e-9) }
                guard let leader = group.min(by: { work($0) < work($1) }) else { continue }
                var last = SequentialRatio.minimumPairs
                for c in group where c != leader {
                    let ratio = work(c) / work(leader)
                    let range = SequentialRatio.roundsToSettle(
                        calibrated: log(ratio), noise: RunEstimate.calibrationNoise, spread: RunEstimate.spread,
                        minDifference: plan.conclusions.minDifference, maximum: AutoRepeat.maximumRounds)
                    if SequentialRatio.isNear(log(ratio), noise: RunEstimate.calibrationNoise) {
                        near.append((leader, c, ratio))
                    }
                    let n = (reading == .latest ? range.latest : range.earliest) ?? Int.max
                    settle[c] = n
                    last = max(last, n)
                }
                settle[leader] = last
            }
            return (settle, near)
        }
    }
}
