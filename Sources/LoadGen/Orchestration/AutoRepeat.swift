import Report
import Strategies

/// `--repeat auto` (issue 56, items 1 and 2): rounds of the configurations until the answer is
/// settled, each round every configuration still racing once, interleaved as fixed repetitions are.
///
/// After each round from the third, the leader (best median on the objective) is compared with
/// every other configuration by `SequentialRatio`, whose error holds however the stop comes. A
/// configuration told apart as behind the leader by more than `--min-difference` leaves the race
/// (it is not repeated; its rows stay, the last saying why it left). The run stops when every
/// other configuration has left or is within the minimum difference of the leader (a tie), or
/// when the next round would pass `--budget`. The limit (raw-sqlite) is repeated with the
/// configurations that divide by it and never decides anything.
struct AutoRepeat {
    let budget: Double
    let options: ConclusionOptions
    /// Why each configuration that left the race left, by configuration.
    private(set) var left: [RunConfiguration: String] = [:]
    /// Why the run stopped (nil while it goes on).
    private(set) var stopped: String?

    /// The most rounds, whatever the budget: a safety net, not a setting.
    static let maximumRounds = 100

    init(budget: Double, options: ConclusionOptions) {
        self.budget = budget
        self.options = options
    }

    /// Whether `configuration` still races.
    func races(_ configuration: RunConfiguration) -> Bool { left[configuration] == nil }

    /// After round `round` (1-based), with every ok row so far by configuration and round, the
    /// time spent and the last round's: decides who leaves and whether to stop.
    mutating func decide(after round: Int, values: [RunConfiguration: [Int: Double]], failed: Set<RunConfiguration>,
                         spent: Double, lastRound: Double) {
        guard round >= SequentialRatio.minimumPairs else { return }
        let higherIsBetter = options.objective == .rate
        // A configuration that failed a repetition is ranked apart by the summary: it races no more.
        for c in failed where left[c] == nil { left[c] = "left after round \(round): a repetition failed" }
        let racing = values.keys.filter { left[$0] == nil }
        func median(_ c: RunConfiguration) -> Double {
            let v = values[c, default: [:]].values.sorted()
            return v.isEmpty ? 0 : v[v.count / 2]
        }
        guard let leader = racing.max(by: { higherIsBetter ? median($0) < median($1) : median($0) > median($1) }) else {
            stopped = "every configuration failed"
            return
        }
        var ties = 0, open = 0
        for other in racing where other != leader {
            let rounds = values[leader, default: [:]].keys.filter { values[other]?[$0] != nil }.sorted()
            let pairs = rounds.map { r -> (Double, Double) in
                let (a, b) = (values[leader]![r]!, values[other]![r]!)
                return higherIsBetter ? (a, b) : (b, a)
            }
            guard let s = SequentialRatio(pairs) else { open += 1; continue }
            switch s.verdict(minDifference: options.minDifference) {
            case .firstAhead:
                left[other] = "left after round \(round): " + String(format: "%@ is %.2f× ahead (interval %.2f … %.2f at %.2g)",
                                                                     leader.strategy, s.ratio, s.interval.lowerBound,
                                                                     s.interval.upperBound, s.level)
            case .tie: ties += 1
            case .secondAhead, .open: open += 1
            }
        }
        if open == 0 {
            stopped = ties == 0 ? "order clear after \(round) rounds" : "tie within \(Int(options.minDifference * 100)) % after \(round) rounds"
        } else if spent + lastRound > budget {
            stopped = "budget spent after \(round) rounds: \(open) configuration\(open == 1 ? "" : "s") not told apart from the leader"
        } else if round >= Self.maximumRounds {
            stopped = "\(round) rounds: \(open) configuration\(open == 1 ? "" : "s") not told apart from the leader"
        }
    }
}
