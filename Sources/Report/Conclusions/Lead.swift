/// What a configuration is judged by in a conclusion: one value per repetition, and which way
/// is better.
package enum Metric: String, Sendable {
    /// `vs_limit`: rows of several invocations, each divided by its own round's limit.
    // not a results column: an --objective value
    case vsLimit = "vs_limit"
    /// Rows per second: one invocation, or an operation (updates, deletes, reads have no limit).
    case rate = "rows/s"
    case peakRSS = "peak RSS"
    /// p99 latency to commit (open loop), else of a save.
    case latency = "p99 latency"

    package var higherIsBetter: Bool { self == .vsLimit || self == .rate }

    /// The metric `objective` is judged by for `c`: across invocations an import compares
    /// through `vs_limit`; an operation, which has no limit, by its rate paired by round.
    static func of(_ c: RunSummary.Configuration, _ objective: ConclusionOptions.Objective, throughLimit: Bool)
        -> Metric
    {
        switch objective {
        case .rate: return throughLimit && c.vsLimit != nil ? .vsLimit : .rate
        case .rss: return .peakRSS
        case .latency: return .latency
        }
    }

    /// The configuration's median of it.
    func median(_ c: RunSummary.Configuration) -> Double? {
        switch self {
        case .vsLimit: return c.vsLimit?.median
        case .rate: return c.rate?.median
        case .peakRSS: return c.peakRSS?.median
        case .latency: return c.latencyP99?.median
        }
    }

    /// One repetition's value, keyed by its round (invocation and repetition): repetitions of two
    /// configurations in the same round ran back to back on the same machine state.
    func values(_ c: RunSummary.Configuration) -> [String: Double] {
        let openLoop = c.ok.contains { $0.measurement.strategy?.latencyP99Milliseconds != nil }
        var byRound: [String: Double] = [:]
        for row in c.ok {
            let m = row.measurement
            let value: Double?
            switch self {
            case .vsLimit: value = row.vsLimit
            case .rate: value = m.rowsPerSecond
            case .peakRSS: value = m.peakRSSBytes.map(Double.init)
            case .latency: value = openLoop ? m.strategy?.latencyP99Milliseconds : m.strategy?.saveP99Milliseconds
            }
            if let value { byRound[RunSummary.round(of: row)] = value }
        }
        return byRound
    }
}

/// How far one configuration is ahead of another, and whether these repetitions tell them apart.
///
/// Told apart means both: the 95 % interval of the ratio excludes 1, and the lead is at least
/// the smallest difference worth reporting (`--min-difference`). Without an interval (fewer than
/// five repetitions in common) no order can be given, however large the measured ratio: two
/// identical runs here gave 1.01× and 1.28× for the same pair.
package struct Lead: Sendable {
    /// The first's advantage as a ratio ≥ 1 when it is ahead: the ratio of medians for a figure
    /// where higher is better, its inverse for one where lower is.
    package let ratio: Double
    /// The bootstrap interval of that ratio: over repetitions paired by round when the two share
    /// five rounds, else (rows of several invocations, through `vs_limit`) over each side's own.
    package let interval: ClosedRange<Double>?
    /// Rounds in common (the pairs), or the smaller side's repetitions when unpaired.
    package let repetitions: Int
    package let paired: Bool
    package let minDifference: Double
    /// What the ratio is of.
    package let metric: Metric
    /// With `--repeat auto`: the error the interval's look spent (`SequentialRatio`), nil for a
    /// 95 % bootstrap interval.
    package var sequentialLevel: Double? = nil

    /// Whether these repetitions show that the first is ahead by a difference worth reporting.
    package var toldApart: Bool { (interval?.lowerBound ?? 0) > 1 && ratio >= 1 + minDifference }

    /// Which of the configurations behind the first (their leads in rank order, by index) are
    /// not told apart from it: those a tied set lists. One told apart from the first is never in
    /// it, even ranked above one that is not (issue 56: "use any of them" listed configurations the
    /// same line called told apart); the conclusion names it apart instead, so that none ranked
    /// inside the set is left out silently (issue 44, item 8).
    package static func tiedFollowers(_ leads: [Lead?]) -> [Int] {
        leads.indices.filter { leads[$0]?.toldApart != true }
    }

    /// The configurations behind the first that are told apart from it although ranked above the
    /// last one that is not: named beside a tied set, never in it.
    package static func apartInside(_ leads: [Lead?]) -> [Int] {
        guard let last = tiedFollowers(leads).last else { return [] }
        return (0..<last).filter { leads[$0]?.toldApart == true }
    }

    /// Why the two are not told apart ("" when they are).
    package var whyNot: String {
        guard let interval else {
            return "no interval from \(repetitions) repetition\(repetitions == 1 ? "" : "s")"
                + (paired ? " in common" : "") + " (an interval needs \(Statistics.minimumForInterval): --repeat "
                + "\(Statistics.minimumForInterval) or more)"
        }
        if interval.lowerBound <= 1 {
            return String(
                format: "%@ %.2f … %.2f includes 1", sequentialLevel == nil ? "95% CI" : "sequential 95% CI",
                interval.lowerBound, interval.upperBound)
        }
        if ratio < 1 + minDifference {
            return String(format: "%.1f %% is below --min-difference %.0f %%", (ratio - 1) * 100, minDifference * 100)
        }
        return ""
    }

    /// How a sentence compares the two: "faster than", "the vs_limit of", "less peak RSS than".
    package var comparing: String {
        switch metric {
        case .vsLimit: return "the vs_limit of"
        case .rate: return "faster than"
        case .peakRSS: return "less peak RSS than"
        case .latency: return "less p99 latency than"
        }
    }

    /// "1.86× (95% CI 1.80 … 1.93)"; with `--repeat auto`, "1.86× (sequential 95% CI 1.71 … 2.02)".
    package var text: String {
        let name = sequentialLevel == nil ? "95% CI" : "sequential 95% CI"
        return String(format: "%.2f×", ratio)
            + (interval.map { String(format: " (%@ %.2f … %.2f)", name, $0.lowerBound, $0.upperBound) } ?? "")
    }

    /// The lead of `a` over `b` on `metric`, nil when either lacks it.
    static func of(
        _ a: RunSummary.Configuration, over b: RunSummary.Configuration, metric: Metric,
        minDifference: Double
    ) -> Lead? {
        guard let x = metric.median(a), let y = metric.median(b), x > 0, y > 0 else { return nil }
        let (va, vb) = (metric.values(a), metric.values(b))
        // Oriented so that a ratio above 1 favours `a`.
        let orient: (Double, Double) -> (Double, Double) = { p, q in metric.higherIsBetter ? (p, q) : (q, p) }
        let pairs = va.keys.sorted().compactMap { round in vb[round].map { orient(va[round]!, $0) } }
        let ratio = metric.higherIsBetter ? x / y : y / x
        // Repetitions that stopped when the order was clear (`--repeat auto`) are judged by the
        // interval that decided the stop, valid however it came (decision 0042): a bootstrap
        // read at the stop would claim more than the rounds show.
        if a.ok.allSatisfy(\.isAutoRepeat), b.ok.allSatisfy(\.isAutoRepeat), let s = SequentialRatio(pairs) {
            return Lead(
                ratio: s.ratio, interval: s.interval, repetitions: pairs.count, paired: true,
                minDifference: minDifference, metric: metric, sequentialLevel: s.level)
        }
        if metric != .vsLimit || !Set(va.keys).isDisjoint(with: vb.keys) {
            return Lead(
                ratio: ratio, interval: Bootstrap.ratioInterval(pairs), repetitions: pairs.count, paired: true,
                minDifference: minDifference, metric: metric)
        }
        // vs_limit of different invocations: each is divided by its own round's limit, so the
        // samples compare unpaired.
        let (sa, sb) =
            metric.higherIsBetter ? (Array(va.values), Array(vb.values)) : (Array(vb.values), Array(va.values))
        return Lead(
            ratio: ratio, interval: Bootstrap.unpairedRatioInterval(sa, sb), repetitions: min(sa.count, sb.count),
            paired: false, minDifference: minDifference, metric: metric)
    }
}

extension RunSummary {
    /// The round a repetition ran in: its invocation (the run id's prefix) and its repetition.
    static func round(of row: ResultRow) -> String {
        "\(row.identity.runID.split(separator: "-").first ?? "")#\(row.repetition)"
    }

    /// How often `candidates[0]` stays best when the rounds are resampled (2,000 times, with the
    /// bootstrap's fixed seed): each resample draws rounds with replacement, and every
    /// configuration's median is taken over its repetitions in the drawn rounds. Nil below five
    /// rounds.
    static func stability(_ candidates: [Configuration], metric: Metric) -> Double? {
        guard candidates.count > 1 else { return nil }
        let byRound = candidates.map(metric.values)
        let rounds = Array(Set(byRound.flatMap(\.keys))).sorted()
        guard rounds.count >= Statistics.minimumForInterval else { return nil }
        // Each candidate's values sorted, and the rank of its value in each round by the round's
        // position (-1: none): a resample looks up positions and counts ranks (`RankDraws`),
        // instead of hashing every round's name and sorting what it drew per candidate, which
        // was most of `report`'s time over a year of nightlies. The medians are the same.
        let ranked = byRound.map { values -> (sorted: [Double], rank: [Int]) in
            let present = rounds.indices.filter { values[rounds[$0]] != nil }
            let ranks = Ranks(present.map { values[rounds[$0]]! })
            var rank = [Int](repeating: -1, count: rounds.count)
            for (k, round) in present.enumerated() { rank[round] = ranks.rank[k] }
            return (ranks.sorted, rank)
        }
        var random = SplitMix64(seed: Bootstrap.seed)
        var stays = 0
        var counted = 0
        var draws = ranked.map { RankDraws(count: $0.sorted.count) }
        var picks = [Int](repeating: 0, count: rounds.count)
        for _ in 0..<Bootstrap.resamples {
            for k in picks.indices { picks[k] = random.next(below: rounds.count) }
            var best: (index: Int, value: Double)?
            var complete = true
            for (i, candidate) in ranked.enumerated() {
                for round in picks where candidate.rank[round] >= 0 { draws[i].draw(candidate.rank[round]) }
                guard draws[i].drawn > 0 else {
                    complete = false
                    break
                }
                let median = draws[i].median { candidate.sorted[$0] }
                if best == nil || (metric.higherIsBetter ? median > best!.value : median < best!.value) {
                    best = (i, median)
                }
            }
            guard complete, let best else { continue }
            counted += 1
            if best.index == 0 { stays += 1 }
        }
        return counted == 0 ? nil : Double(stays) / Double(counted)
    }
}

/// The leads one summary computed, by pair and metric: its rankings and its recommendations
/// compare mostly the same pairs, and each lead is a bootstrap of 2,000 resamples (over a 100 MB
/// results file, a fifth of `report`'s time). Lives only while the summary is made.
final class LeadMemo {
    private struct Key: Hashable {
        let a: ParameterValues, b: ParameterValues
        let callgrind: [Bool]
        let metric: Metric
        let minDifference: Double
    }

    private var leads: [Key: Lead?] = [:]

    func lead(_ a: RunSummary.Configuration, over b: RunSummary.Configuration, metric: Metric, minDifference: Double)
        -> Lead?
    {
        let key = Key(
            a: a.parameters, b: b.parameters, callgrind: [a.underCallgrind, b.underCallgrind], metric: metric,
            minDifference: minDifference)
        if let known = leads[key] { return known }
        let lead = Lead.of(a, over: b, metric: metric, minDifference: minDifference)
        leads[key] = lead
        return lead
    }
}
