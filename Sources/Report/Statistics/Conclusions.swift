/// What a run concludes, beyond its figures: which configurations broke a promise (and are
/// ranked apart, with why and the fix), and which configuration to use by a stated objective,
/// with those within noise of it and those excluded.
///
/// Report knows no strategy: what a strategy promises and how a team fixes a broken promise come
/// from the caller (`ConclusionOptions.advice`, filled from the strategy registry).
package struct ConclusionOptions: Sendable {
    /// What "best" means.
    package enum Objective: String, Sendable, CaseIterable {
        /// Most rows per second (or the highest `vs_limit` across invocations).
        case rate
        /// Least peak RSS.
        case rss
        /// Least p99 latency: open-loop latency to commit with `--rate`, else p99 save time.
        case latency

        package var phrase: String {
            switch self {
            case .rate: return "most rows per second"
            case .rss: return "least peak RSS"
            case .latency: return "least p99 latency"
            }
        }
    }

    package var objective = Objective.rate
    /// Configurations above these are excluded from the recommendation.
    package var maxRSSBytes: Int?
    package var maxLatencyMilliseconds: Double?
    /// The smallest difference worth reporting: a lead below it reads as equal.
    package var minDifference = 0.05
    /// Per strategy, what a team does when its screen misses rows (`--view-context`).
    package var screenAdvice: [String: String] = [:]
    /// The parameter columns that describe the workload (the records), not a choice: a
    /// recommendation is made per workload, never across them (10 k rows against 100 k rows is
    /// not a choice a team makes).
    package var workloadColumns: [String] = []

    package init() {}

    /// The default of `--min-difference`.
    package static let defaultMinDifference = 0.05
}

/// Why a configuration cannot be recommended, one phrase per reason, and what to do about it.
package struct Verdict: Sendable, Equatable {
    package let reasons: [String]
    package let fix: String?

    package var isOK: Bool { reasons.isEmpty }

    /// The promises a configuration's repetitions broke: a repetition that failed (lost or
    /// duplicated rows where its idiom promises none, a failed check, a crash), or a screen that
    /// misses rows it should show.
    static func of(_ c: RunSummary.Configuration, options: ConclusionOptions) -> Verdict {
        var reasons: [String] = []
        var fix: String?
        let failed = c.rows.filter { $0.measurement.status != .ok }
        if !failed.isEmpty {
            let first = failed[0].measurement.error.map { ": \($0)" } ?? ""
            reasons.append("\(failed.count) of \(c.rows.count) repetitions \(failed[0].measurement.status.rawValue)\(first)")
        }
        if let missing = c.ok.compactMap({ $0.measurement.verification?.viewMissing }).max(), missing > 0 {
            let rows = c.last?.verification?.storeRows ?? 0
            reasons.append("its screen (--view-context) misses \(missing) of \(rows) rows")
            fix = options.screenAdvice[c.strategy]
        }
        return Verdict(reasons: reasons, fix: fix)
    }
}

/// The configuration to use, by the objective, at one workload.
package struct Recommendation: Sendable {
    /// The workload it is for (`rows=100000 dup_rate=0.1000`), "" when the run has one.
    package let workload: String
    package let objective: ConclusionOptions.Objective
    /// True when rows of several invocations are compared: then through `vs_limit` only.
    package let throughLimit: Bool
    package let best: RunSummary.Configuration?
    /// Within noise of the best: less than `minDifference` apart, or an interval that includes 1.
    package let withinNoise: [(configuration: RunSummary.Configuration, difference: Double)]
    /// Left out, with why.
    package let excluded: [(configuration: RunSummary.Configuration, why: String)]
    /// When there is no best, why not.
    package let none: String?
}

extension RunSummary {
    /// The value of the objective for `c` (higher is better for the rate, lower for the others),
    /// or nil when the configuration has no such figure.
    static func objectiveValue(_ c: Configuration, _ objective: ConclusionOptions.Objective, throughLimit: Bool) -> Double? {
        switch objective {
        case .rate: return throughLimit ? c.vsLimit?.median : c.rate?.median
        case .rss: return c.peakRSS?.median
        case .latency: return c.latencyP99?.median
        }
    }

    /// One recommendation per workload (per value of the workload columns), in run order.
    static func recommend(_ configurations: [Configuration], unranked: Set<String>, options: ConclusionOptions,
                          throughLimit: Bool) -> [Recommendation] {
        var workloads: [String] = []
        var byWorkload: [String: [Configuration]] = [:]
        let candidates = configurations.filter { !unranked.contains($0.strategy) }
        let varying = options.workloadColumns.filter { column in Set(candidates.map { $0.parameters[column] }).count > 1 }
        for c in configurations where !unranked.contains(c.strategy) {
            let key = varying.compactMap { column in
                c.parameters[column].isEmpty ? nil : "\(column)=\(c.parameters[column])"
            }.joined(separator: " ")
            if byWorkload[key] == nil { workloads.append(key) }
            byWorkload[key, default: []].append(c)
        }
        return workloads.map { recommendation(byWorkload[$0]!, workload: $0, options: options, throughLimit: throughLimit) }
    }

    private static func recommendation(_ candidates: [Configuration], workload: String, options: ConclusionOptions,
                                       throughLimit: Bool) -> Recommendation {
        let objective = options.objective
        var excluded: [(Configuration, String)] = []
        var eligible: [(Configuration, Double)] = []
        for c in candidates {
            if !c.verdict.isOK {
                excluded.append((c, c.verdict.reasons.joined(separator: "; ") + (c.verdict.fix.map { " — \($0)" } ?? "")))
            } else if let limit = options.maxRSSBytes, let rss = c.peakRSS?.median, rss > Double(limit) {
                excluded.append((c, "peak RSS \(Format.bytes(Int(rss))) is above --max-rss \(Format.bytes(limit))"))
            } else if let limit = options.maxLatencyMilliseconds, let p99 = c.latencyP99?.median, p99 > limit {
                excluded.append((c, String(format: "p99 latency %.1f ms is above --max-latency %.1f ms", p99, limit)))
            } else if let value = objectiveValue(c, objective, throughLimit: throughLimit) {
                eligible.append((c, value))
            } else {
                let missing = objective == .rate ? (throughLimit ? "no vs_limit (run without --no-limit)" : "no rate")
                    : objective == .rss ? "no peak RSS" : "no latency (a --rate run, or saves)"
                excluded.append((c, missing))
            }
        }
        let higherIsBetter = objective == .rate
        eligible.sort { higherIsBetter ? $0.1 > $1.1 : $0.1 < $1.1 }
        guard let (best, value) = eligible.first else {
            return Recommendation(workload: workload, objective: objective, throughLimit: throughLimit, best: nil, withinNoise: [],
                                  excluded: excluded, none: candidates.isEmpty ? "nothing was measured"
                                    : "no configuration kept its promises and measured the objective")
        }
        let close = eligible.dropFirst().compactMap { c, v -> (Configuration, Double)? in
            let difference = higherIsBetter ? 1 - v / value : v / value - 1
            let interval = objective == .rate && !throughLimit ? RunSummary.pairedRatio(best, c)?.interval : nil
            let withinInterval = interval.map { $0.lowerBound <= 1 } ?? false
            return difference < options.minDifference || withinInterval ? (c, difference) : nil
        }
        return Recommendation(workload: workload, objective: objective, throughLimit: throughLimit, best: best,
                              withinNoise: close, excluded: excluded, none: nil)
    }
}
