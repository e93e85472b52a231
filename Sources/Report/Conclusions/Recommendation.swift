/// The configuration to use, by the objective, at one workload: only configurations that
/// deliver what the workload needs are compared, and a winner is named only when these
/// repetitions tell it apart from every other.
package struct Recommendation: Sendable {
    /// The workload it is for, as what is constant in the group and varies in the run
    /// (`rows=100000 view_context=on`); "" when the run has one workload.
    package let workload: String
    /// What the result is when it is not the records (`a count`), nil for the records.
    package let purpose: String?
    package let objective: ConclusionOptions.Objective
    /// What the configurations are judged by (nil when none could be).
    package let metric: Metric?
    /// True when rows of several invocations are compared.
    package let throughLimit: Bool
    /// What the workload needs of the store.
    package let needs: Set<Requirement>
    /// The configurations that may be recommended, best first; each after the first with its lead
    /// behind the first.
    package let ranked: [(configuration: RunSummary.Configuration, lead: Lead?)]
    /// How often the first stays first when the rounds are resampled (nil below five rounds).
    package let stability: Double?
    /// Left out, with why.
    package let excluded: [(configuration: RunSummary.Configuration, why: String)]
    /// When nothing may be recommended, why not.
    package let none: String?
    /// Each member's name within the workload: its strategy, and what tells it from another
    /// member of the same strategy (what the heading says is left out).
    package let names: [ParameterValues: String]

    /// The name of `c` in this recommendation.
    package func name(_ c: RunSummary.Configuration) -> String { names[c.parameters] ?? c.strategy }

    /// The first and every configuration these repetitions do not tell apart from it
    /// (`Lead.tiedFollowers`), in rank order.
    package var leaders: [RunSummary.Configuration] {
        guard let first = ranked.first else { return [] }
        return [first.configuration]
            + Lead.tiedFollowers(ranked.dropFirst().map(\.lead)).map { ranked[$0 + 1].configuration }
    }

    /// The configuration to use: the first, when it is told apart from every other.
    package var winner: RunSummary.Configuration? { leaders.count == 1 ? ranked.first?.configuration : nil }

    /// True when some lead has no interval: these repetitions cannot give an order.
    package var orderUnknown: Bool { ranked.dropFirst().contains { $0.lead?.interval == nil } }
}

extension RunSummary {
    /// One recommendation per workload, in run order. A workload is a value of every workload
    /// column (a switch's blank read as off), of what the result is (a count is not a list), and
    /// of whether the rows were timed at all (callgrind's are not).
    static func recommend(
        _ configurations: [Configuration], unranked: Set<String>, options: ConclusionOptions,
        throughLimit: Bool, leads: LeadMemo = LeadMemo()
    ) -> [Recommendation] {
        let candidates = configurations.filter { !unranked.contains($0.strategy) }
        let columns = options.workloadColumns
        var workloads = groups(candidates) { workload(of: $0, options: options) }
        // A workload only strategies that force history make, beside the run's others: not asked for.
        if workloads.count > 1 {
            workloads.removeAll { group in group.members.allSatisfy { options.forcesHistory.contains($0.strategy) } }
        }
        // A heading names the columns that tell this workload from the run's others (unique keys
        // follow from rows and the duplicate rate).
        let varying = columns.indices.filter { i in
            columns[i] != .uniqueKeys && Set(workloads.map { $0.key[i] }).count > 1
        }
        return workloads.map { key, members in
            var words = varying.compactMap { i in key[i].isEmpty ? nil : "\(columns[i])=\(key[i])" }
            if members[0].underCallgrind { words.append("under callgrind") }
            return recommendation(
                members, workload: words.joined(separator: " "), purpose: options.purposes[members[0].strategy],
                options: options, throughLimit: throughLimit, leads: leads)
        }
    }

    private static func recommendation(
        _ candidates: [Configuration], workload: String, purpose: String?, options: ConclusionOptions,
        throughLimit: Bool, leads memo: LeadMemo
    ) -> Recommendation {
        var excluded: [(Configuration, String)] = []
        var eligible: [Configuration] = []
        for c in candidates {
            if let why = exclusion(of: c, options: options, throughLimit: throughLimit) {
                excluded.append((c, why))
            } else {
                eligible.append(c)
            }
        }
        let needs = candidates.first.map { options.needs(of: $0) } ?? []
        // One metric for the group: through vs_limit only when every member has it.
        let metric: Metric? =
            eligible.isEmpty
            ? nil
            : eligible.allSatisfy({ Metric.of($0, options.objective, throughLimit: throughLimit) == .vsLimit })
                ? .vsLimit
                : Metric.of(eligible[0], options.objective, throughLimit: false)
        guard let metric, !eligible.isEmpty else {
            let why =
                candidates.isEmpty
                ? "nothing was measured"
                : candidates.allSatisfy(\.underCallgrind)
                    ? "every configuration here was counted under callgrind: compare "
                        + "their instructions with loadgen compare, and time them without --instructions"
                    : noneWhy(excluded.map(\.0), needs: needs, options: options)
            return Recommendation(
                workload: workload, purpose: purpose, objective: options.objective, metric: nil,
                throughLimit: throughLimit,
                needs: needs, ranked: [], stability: nil, excluded: excluded, none: why,
                names: memberNames(candidates))
        }
        eligible.sort { a, b in
            let (x, y) = (metric.median(a)!, metric.median(b)!)
            return metric.higherIsBetter ? x > y : x < y
        }
        let ranked = eligible.enumerated().map { i, c in
            (c, i == 0 ? nil : memo.lead(eligible[0], over: c, metric: metric, minDifference: options.minDifference))
        }
        // A bootstrap over the rounds of a run that stopped when its order was clear would claim
        // more than the rounds show, as the leads' own intervals do not (decision 0042): "first in
        // 100 % of resamples" beside "not told apart" is what issue 56 found vanishing on a rerun.
        let sequential = ranked.contains { $0.1?.sequentialLevel != nil }
        return Recommendation(
            workload: workload, purpose: purpose, objective: options.objective, metric: metric,
            throughLimit: throughLimit,
            needs: needs, ranked: ranked, stability: sequential ? nil : stability(eligible, metric: metric),
            excluded: excluded, none: nil, names: memberNames(candidates))
    }

    /// Why nothing may be recommended, in the words of what stopped them: a store that fell
    /// short, a limit the team set (`--max-rss`, `--max-latency`) that every good store broke, or both.
    private static func noneWhy(_ excluded: [Configuration], needs: Set<Requirement>, options: ConclusionOptions)
        -> String
    {
        var limits: [String] = []
        if let rss = options.maxRSSBytes { limits.append("--max-rss \(Format.bytes(rss))") }
        if let latency = options.maxLatencyMilliseconds {
            limits.append(String(format: "--max-latency %g ms", latency))
        }
        let delivered = "delivered \(Requirement.describe(needs))"
        let sound = excluded.filter { $0.verdict.isOK && !$0.underCallgrind }
        if sound.count == excluded.count, !limits.isEmpty {
            return
                "every configuration \(delivered), and none stayed within \(limits.joined(separator: " and ")): the excluded lines say by how much"
        }
        if !sound.isEmpty, !limits.isEmpty {
            return "no configuration both \(delivered) and stayed within \(limits.joined(separator: " and "))"
        }
        return "no configuration \(delivered) and kept its promises"
    }

    /// What tells one workload from another: the workload columns' values, what the result is (a
    /// list is not a count) and whether the rows were timed (callgrind's are not). The last two
    /// are never blank, so they never join another group.
    static func workload(of c: Configuration, options: ConclusionOptions) -> [String] {
        options.workloadColumns.map { options.value($0, of: c.parameters) }
            + [options.purposes[c.strategy] ?? "the records", c.underCallgrind ? "callgrind" : "timed"]
    }

    private static func memberNames(_ members: [Configuration]) -> [ParameterValues: String] {
        Dictionary(zip(members.map(\.parameters), names(members)), uniquingKeysWith: { a, _ in a })
    }

    /// The cap a team set (`--max-rss`, `--max-latency`) that `c` broke: the flag, and why in
    /// full. One rule for the conclusion and the charts, which draw such a bar apart.
    /// The median decides; when some repetitions stayed under the cap the line says how many,
    /// so an exclusion within the configuration's own spread reads as such.
    static func overCap(_ c: Configuration, options: ConclusionOptions) -> (flag: String, why: String)? {
        let rss = c.peakRSS?.median ?? 0
        if let limit = options.maxRSSBytes, rss > Double(limit) {
            return (
                "over --max-rss",
                "peak RSS \(Format.bytes(Int(rss))) (median) is above --max-rss \(Format.bytes(limit)) "
                    + "(\(Format.grouped(limit)) bytes)"
                    + Self.margin(c.peakRSS, under: Double(limit)) { Format.bytes(Int($0)) }
            )
        }
        let p99 = c.latencyP99?.median ?? 0
        if let limit = options.maxLatencyMilliseconds, p99 > limit {
            return (
                "over --max-latency",
                String(format: "p99 latency %.1f ms (median) is above --max-latency %.1f ms", p99, limit)
                    + Self.margin(c.latencyP99, under: limit) { String(format: "%.1f ms", $0) }
            )
        }
        return nil
    }

    /// ", though 2 of 5 repetitions stayed under it: within its own spread" when some did.
    private static func margin(_ s: Statistics?, under limit: Double, _ format: (Double) -> String) -> String {
        guard let s, s.count > 1, let low = s.sorted.first, let high = s.sorted.last else { return "" }
        let under = s.sorted.filter { $0 <= limit }.count
        guard under > 0 else { return "" }
        return ", though \(under) of \(s.count) repetitions stayed under it: the cap falls within its own spread "
            + "(\(format(low)) … \(format(high)))"
    }

    /// Why `c` may not be recommended, nil when it may.
    private static func exclusion(of c: Configuration, options: ConclusionOptions, throughLimit: Bool) -> String? {
        if !c.verdict.isOK {
            return c.verdict.reasons.joined(separator: "; ") + (c.verdict.fix.map { " — \($0)" } ?? "")
        }
        if c.underCallgrind {
            return "counted under callgrind (--instructions): its time and memory are valgrind's, not a timing"
        }
        if let over = overCap(c, options: options) { return over.why }
        guard Metric.of(c, options.objective, throughLimit: throughLimit).median(c) == nil else { return nil }
        switch options.objective {
        case .rate: return "no rate"
        case .rss: return "no peak RSS"
        case .latency: return "no latency (a --rate run, or saves)"
        }
    }
}
