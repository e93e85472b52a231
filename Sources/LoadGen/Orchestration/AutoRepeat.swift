import Report
import Strategies

/// `--repeat auto` (issue 56, items 1 and 2): rounds of the configurations until the answer is
/// settled, each round every configuration still racing once, interleaved as fixed repetitions are.
///
/// After each round from the third, the run's conclusion so far is read: each workload's leader is
/// compared with every other eligible configuration by `SequentialRatio` (the lead of `--repeat
/// auto` rows), whose error holds however the stop comes. A configuration told apart as behind
/// the leader by more than `--min-difference`, or excluded from the recommendation (a broken
/// promise, a requirement, a cap), leaves the race (it is not repeated; its rows stay, the last
/// saying why it left). The run stops when every
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

    /// After round `round` (1-based), with the conclusion the rows so far give (the summary's own
    /// recommendations, so the race and the page agree on who is eligible and how leads are
    /// measured), the time spent and the last round's: decides who leaves and whether to stop.
    /// `configuration` finds the run's configuration of a summary's.
    mutating func decide(
        after round: Int, recommendations: [Recommendation],
        configuration: (RunSummary.Configuration) -> RunConfiguration?, spent: Double, lastRound: Double
    ) {
        var ties = 0
        var open = 0
        for recommendation in recommendations {
            // Excluded (a failure, a capped repetition, a broken promise, a requirement or a cap
            // on memory): the page says why from the round it ran; more would not change it.
            for (c, why) in recommendation.excluded {
                if let c = configuration(c), left[c] == nil { left[c] = "left after round \(round): excluded: \(why)" }
            }
            guard let leader = recommendation.ranked.first?.configuration else { continue }
            // No verdict on a lead before three rounds (at least three repetitions each).
            guard round >= SequentialRatio.minimumPairs else {
                open += 1
                continue
            }
            for (c, lead) in recommendation.ranked.dropFirst() {
                guard let run = configuration(c), left[run] == nil else { continue }
                guard let lead, let interval = lead.interval else {
                    open += 1
                    continue
                }
                let margin = 1 + options.minDifference
                if lead.toldApart {
                    left[run] =
                        "left after round \(round): "
                        + String(
                            format: "%@ is %.2f× ahead (%@)", leader.strategy, lead.ratio,
                            lead.text.drop { $0 != "(" }.dropFirst().dropLast().description)
                } else if interval.lowerBound > 1 / margin && interval.upperBound < margin {
                    ties += 1
                } else {
                    open += 1
                }
            }
        }
        if open == 0 {
            let rounds = "\(round) round\(round == 1 ? "" : "s")"
            stopped =
                ties == 0
                ? "order clear after \(rounds)" : "tie within \(Int(options.minDifference * 100)) % after \(rounds)"
        } else if round >= SequentialRatio.minimumPairs && spent + lastRound > budget {
            // Never before three rounds: each configuration gets the repetitions an interval needs.
            stopped =
                "budget spent after \(round) rounds: \(open) configuration\(open == 1 ? "" : "s") not told apart from the leader"
        } else if round >= Self.maximumRounds {
            stopped = "\(round) rounds: \(open) configuration\(open == 1 ? "" : "s") not told apart from the leader"
        }
    }
}
