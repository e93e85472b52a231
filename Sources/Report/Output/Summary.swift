import Foundation
import SQLiteKit

/// The human summary on stdout, like hyperfine's: per configuration the median rate with its
/// MAD and the bootstrap interval of the median, the range, outliers; then per sweep point the
/// strategies fastest first with how much faster the first is; then one table of everything.
package enum Summary {
    /// Beyond this many configurations (or sweep points) the summary keeps to one line each:
    /// a big sweep's details belong in `--summary-csv` and `--markdown`.
    package static let detailLimit = 12

    package static func render(_ summary: RunSummary) -> String {
        var text = ""
        let detailed = summary.configurations.count <= detailLimit
        for c in summary.configurations where detailed || c.ok.count < c.rows.count {
            text += block(c, mark: summary.marks[c.strategy]) + "\n"
        }
        if !detailed {
            text +=
                "Per-configuration details are shown up to \(detailLimit) configurations (this run has "
                + "\(summary.configurations.count); failed ones are above): they are in --markdown FILE and --json.\n\n"
        }
        let rankings = summary.rankings.filter { $0.members.count > 1 || !$0.apart.isEmpty }
        if rankings.count <= detailLimit {
            for ranking in rankings { text += rank(ranking, summary: summary) + "\n" }
        } else {
            text += "Fastest at each point (\(rankings.count) points):\n"
            for ranking in rankings { text += "  " + leadLine(ranking, summary: summary) + "\n" }
            text += "\n"
        }
        text += recommendations(summary)
        if summary.configurations.count > 1 { text += table(summary) }
        let footnotes = summary.configurations.map(\.strategy).uniqued().compactMap { name in
            summary.marks[name].map { "  * \(name): \($0)" }
        }
        if !footnotes.isEmpty || !summary.notes.isEmpty {
            text += "\n" + (footnotes + summary.notes.map { "  \($0)" }).joined(separator: "\n") + "\n"
        }
        return text
    }

    /// Convenience: the summary of rows with nothing swept.
    package static func render(_ rows: [ResultRow]) -> String { render(RunSummary(rows: rows)) }

    private static func block(_ c: RunSummary.Configuration, mark: String?) -> String {
        let p = c.parameters
        var text =
            "\(c.strategy)\(mark == nil ? "" : " *")" + (c.label.isEmpty ? "" : "  [\(c.label)]")
            + "  (\(p.records), \(p.rows) rows, \(p.uniqueKeys) unique keys, \(c.rows.count) repetition"
            + (c.rows.count == 1 ? ")\n" : "s)\n")
        for bad in c.rows where bad.measurement.status != .ok {
            text +=
                "  repetition \(bad.repetition): \(bad.measurement.status.rawValue)"
                + (bad.measurement.error.map { ": \($0)" } ?? "") + "\n"
        }
        guard let last = c.last else { return text }
        if let rate = c.rate { text += rateLines(c, rate) }
        if let wall = c.wall { text += "  Time:      " + spread(wall, Format.duration) + "\n" }
        if let vs = c.vsLimit {
            text += String(format: "  vs limit:  %.3f", vs.median)
            if let ci = vs.medianInterval {
                text += String(format: "  [95%% CI %.3f … %.3f]", ci.lowerBound, ci.upperBound)
            }
            text += "\n"
        }
        if let rss = c.peakRSS, let heap = c.ok.compactMap(\.measurement.peakHeapBytes).max() {
            text +=
                "  Memory:    peak RSS \(Format.bytes(Int(rss.median))) (median), peak heap \(Format.bytes(heap)) (max)\n"
        }
        if let sql = last.sql { text += sqlLine(c, sql, last) }
        if let latency = last.strategy?.latencyP50Milliseconds {
            text += String(
                format: "  Latency:   p50 %.1f ms, p99 %.1f ms, max %.1f ms (last)", latency,
                last.strategy?.latencyP99Milliseconds ?? 0, last.strategy?.latencyMaxMilliseconds ?? 0)
            text += last.strategy?.fellBehind == true ? "  — " + behindPhrase(c, last) + "\n" : "\n"
        }
        if let shown = last.strategy?.viewObjects { text += screenLine(c, shown: shown, last) }
        if last.strategy?.historyLagP50Milliseconds != nil { text += historyLine(c, last) }
        if let changes = last.verification?.historyChanges {
            text += "  History:   \(changes) change rows left in the store (last)\n"
        }
        if let v = last.verification {
            text +=
                "  Store:     \(v.storeRows) rows, \(v.duplicates) duplicates, \(v.lost) lost, "
                + "\(v.badLinks) bad links, integrity \(v.integrity), \(Format.bytes(v.storeBytes)) (last)\n"
        }
        return text
    }

    /// What could not keep up with `--rate`: the writer, by how much (issue 44, item 7).
    static func behindPhrase(_ c: RunSummary.Configuration, _ last: RunMeasurement) -> String {
        let asked = Double(c.parameters[.rate]) ?? 0
        let done = last.rowsPerSecond ?? 0
        return String(
            format: "the writer could not keep up with --rate %@/s: it committed %@/s (%.0f %% of the arrivals)",
            Format.thousands(Int(asked)), Format.thousands(Int(done)), asked > 0 ? done / asked * 100 : 0)
            + (last.strategy?.peakBacklog.map { ", backlog up to \(Format.thousands($0)) records" } ?? "")
    }

    /// The history consumer's lag over the repetitions (median and range, not the last one's),
    /// and whether it kept up: its backlog stayed bounded as the import grew (`BacklogTrend`, the
    /// `kept_up` column), in how many repetitions.
    package static func historyLine(_ c: RunSummary.Configuration, _ last: RunMeasurement) -> String {
        let p50 = Statistics(c.ok.compactMap { $0.measurement.strategy?.historyLagP50Milliseconds })
        let p99 = Statistics(c.ok.compactMap { $0.measurement.strategy?.historyLagP99Milliseconds })
        guard let p50, let p99 else { return "" }
        var line = String(
            format:
                "  History:   consumer lag p50 %.1f ms, p99 %.1f ms (medians; p99 %.1f … %.1f ms over %d repetitions)",
            p50.median, p99.median, p99.min, p99.max, p99.count)
        line += keptUpPhrase(c)
        return line + (last.strategy?.autoMergeMissed.map { "; automatic merges alone miss \($0) rows (last)" } ?? "")
            + "\n"
    }

    /// "; kept up in 5 of 5 repetitions (backlog at most 3 transactions' records: 15,000)", or
    /// "; fell behind in 3 of 5 …: its backlog grew with the import".
    static func keptUpPhrase(_ c: RunSummary.Configuration) -> String {
        let verdicts = c.ok.compactMap { $0.measurement.strategy?.fellBehind }
        guard !verdicts.isEmpty else { return "" }
        let behind = verdicts.filter { $0 }.count
        let backlog =
            c.ok.compactMap { $0.measurement.strategy?.peakBacklog }.max().map {
                ", backlog up to \(Format.thousands($0)) records"
            } ?? ""
        return behind == 0
            ? "; kept up in \(verdicts.count) of \(verdicts.count) repetitions (its backlog stayed bounded\(backlog))"
            : "; fell behind in \(behind) of \(verdicts.count) repetitions: its backlog grew with the import\(backlog)"
    }

    /// The rate's spread, and each outlier repetition (kept, and said).
    private static func rateLines(_ c: RunSummary.Configuration, _ rate: Statistics) -> String {
        var text = "  Rate:      " + spread(rate, Format.rate) + "\n"
        for i in rate.outliers {
            let row = c.ok[i]
            let z = rate.modifiedZScore(row.measurement.rowsPerSecond ?? 0) ?? 0
            text += String(
                format: "             repetition %d is an outlier (modified z %.1f), kept\n", row.repetition, z)
        }
        return text
    }

    /// "SQL: 61 statements, 55 selects, 0 transactions, … (last)".
    private static func sqlLine(
        _ c: RunSummary.Configuration, _ sql: StatementCounters.Snapshot, _ last: RunMeasurement
    ) -> String {
        var line = "  SQL:       \(sql.total) statements, \(sql.select) selects, \(sql.commits) transactions"
        if let saves = last.strategy?.saves { line += ", \(saves) saves" }
        if let conflicts = last.strategy?.conflicts {
            line += ", \(conflicts) conflicts"
            // Conflicts with no second writer look odd: they are the repeated keys.
            if conflicts > 0 && c.parameters.writers <= 1 {
                line += " (one writer: repeated keys meeting their first copy, resolved by the merge policy)"
            }
        }
        if let retries = last.strategy?.busyRetries { line += ", \(retries) busy retries" }
        return line + " (last)\n"
    }

    /// What the screen in front of the run shows (`--view-context`: the same for every strategy)
    /// once the strategy's saves or batch requests are merged, and what merging cost.
    private static func screenLine(_ c: RunSummary.Configuration, shown: Int, _ last: RunMeasurement) -> String {
        let operation = c.parameters.operation
        let what =
            operation == "delete"
            ? "shows \(shown) objects once the deleted ones left it"
            : operation == "update"
                ? "shows \(shown) objects, the updated ones among them refreshed by the merge"
                : "shows \(shown) objects" + (last.verification?.viewMissing.map { ", misses \($0) rows" } ?? "")
        return "  Screen:    \(what)"
            + String(format: ", merging took %.1f ms (last)\n", last.strategy?.mergeMillisecondsTotal ?? 0)
    }

    /// "median 221 k rows/s ± 4 k rows/s (MAD)  [95% CI … ]  min … max".
    private static func spread(_ s: Statistics, _ format: (Double) -> String) -> String {
        var text = "median \(format(s.median))"
        guard s.count > 1 else { return text }
        text += " ± \(format(s.mad)) (MAD)"
        if let ci = s.medianInterval { text += "  [95% CI \(format(ci.lowerBound)) … \(format(ci.upperBound))]" }
        text += "  range \(format(s.min)) … \(format(s.max))"
        return text
    }

    private static func rank(_ ranking: RunSummary.Ranking, summary: RunSummary) -> String {
        var text =
            (summary.throughLimit ? "Highest vs_limit first" : "Fastest first")
            // "Fastest first at rows=1000:", "Fastest first for a count:".
            + (ranking.point.isEmpty
                ? ":\n" : ranking.point.hasPrefix("for ") ? " \(ranking.point):\n" : " at \(ranking.point):\n")
        let width = ranking.names.map(\.count).max() ?? 0
        for (i, c) in ranking.members.enumerated() {
            let figure =
                summary.throughLimit && c.vsLimit != nil
                ? String(format: "vs_limit %.3f", c.vsLimit?.median ?? 0)
                : Format.rate(c.rate?.median ?? 0)
            text +=
                "  \(i + 1). " + ranking.names[i].padding(toLength: width, withPad: " ", startingAt: 0)
                + "  \(figure)\n"
        }
        if ranking.members.count > 1 { text += "  " + leadLine(ranking, summary: summary, withPoint: false) + "\n" }
        for (c, name) in zip(ranking.apart, ranking.apartNames) {
            text += "  ranked apart: " + apartLine(c, name: name) + "\n"
        }
        return text
    }

    /// "context-reset [view_context=on] (41 k rows/s): its screen misses 135000 of 135000 rows — the fix".
    static func apartLine(_ c: RunSummary.Configuration, name: String) -> String {
        let figure = c.rate.map { " (\(Format.rate($0.median)))" } ?? ""
        return name + figure + ": " + c.verdict.reasons.joined(separator: "; ")
            + (c.verdict.fix.map { " — \($0)" } ?? "")
    }

    /// "batch is 1.86× faster than context-reset (95% CI 1.80 … 1.93)"; the members not told
    /// apart from the first named as such, with why; no order at all without intervals.
    static func leadLine(_ ranking: RunSummary.Ranking, summary: RunSummary, withPoint: Bool = true) -> String {
        let point = withPoint && !ranking.point.isEmpty ? ranking.point + ": " : ""
        guard ranking.members.count > 1 else {
            return point + (ranking.names.first ?? "nothing ranked")
                + (ranking.apart.isEmpty ? "" : " (\(ranking.apart.count) ranked apart)")
        }
        let leads = ranking.leads
        if ranking.orderUnknown {
            let reps = leads.compactMap { $0?.repetitions }.min() ?? 0
            return point
                + "no order can be given: \(reps) repetition\(reps == 1 ? "" : "s") in common (an interval needs "
                + "\(Statistics.minimumForInterval): --repeat \(Statistics.minimumForInterval) or more); measured order: "
                + ranking.names.joined(separator: ", ")
        }
        let tied = Lead.tiedFollowers(leads)
        guard let last = tied.last else { return point + ahead(ranking.names[0], leads[0]!, ranking.names[1]) }
        let equal = ([0] + tied.map { $0 + 1 }).map { ranking.names[$0] }
        var line =
            point + listed(equal) + " are not told apart: "
            + tied.map { i in "\(ranking.names[i + 1]) \(behind(leads[i]!)) (\(leads[i]!.whyNot))" }
            .joined(separator: "; ")
        // Told apart from the first though ranked above one that is not: said, never in the set.
        for i in Lead.apartInside(leads) { line += "; " + ahead(ranking.names[0], leads[i]!, ranking.names[i + 1]) }
        if leads.indices.contains(last + 1), let next = leads[last + 1] {
            line += "; " + ahead(ranking.names[0], next, ranking.names[last + 2])
        }
        return line
    }

    /// "batch is 1.86× faster than context-reset (95% CI 1.80 … 1.93)".
    static func ahead(_ first: String, _ lead: Lead, _ other: String) -> String {
        String(format: "%@ is %.2f× %@ %@", first, lead.ratio, lead.comparing, other)
            + (lead.interval.map { String(format: " (95%% CI %.2f … %.2f)", $0.lowerBound, $0.upperBound) } ?? "")
    }

    /// "3.1 % behind".
    static func behind(_ lead: Lead) -> String {
        String(format: "%.1f %% behind", (1 - 1 / lead.ratio) * 100)
    }

    /// "a, b and c".
    static func listed(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// The conclusion: per workload, what it needs, the configuration to use by the objective (or
    /// those not told apart, or why no order can be given), and those excluded with why.
    package static func recommendations(_ summary: RunSummary) -> String {
        let useful = summary.recommendations.filter { !$0.ranked.isEmpty || !$0.excluded.isEmpty }
        guard !useful.isEmpty, summary.configurations.filter({ !summary.unranked.contains($0.strategy) }).count > 1
        else { return "" }
        var text = ""
        for r in useful {
            text +=
                "Recommendation" + (r.purpose.map { " for \($0)" } ?? "")
                + (r.workload.isEmpty ? "" : " at \(r.workload)")
                + " (\(r.objective.phrase)"
                + (r.metric == .vsLimit
                    ? ", through vs_limit: rows of several invocations"
                    : r.throughLimit && r.metric == .rate
                        ? ", by rows/s paired by round: operations have no limit" : "")
                + Self.needsPhrase(r.needs) + "):\n"
            text += "  " + conclusionLine(r) + "\n"
            if let whatIf = whatIfLine(r) { text += "  " + whatIf + "\n" }
            text += breakEvenLines(r)
            // What the configuration to use does not do is said with it, not only under the table.
            for leader in r.leaders.map(\.strategy).uniqued() {
                if let mark = summary.marks[leader] { text += "  note: \(leader): \(mark)\n" }
            }
            for (c, why) in r.excluded { text += "  excluded: \(r.name(c)): \(why)\n" }
        }
        return text + "\n"
    }

    /// What a recommendation's heading says it required: of the store, and of what a read returns.
    static func needsPhrase(_ needs: Set<Requirement>) -> String {
        let store = needs.subtracting([.objects])
        return (store.isEmpty ? "" : "; the store must hold \(Requirement.describe(store))")
            + (needs.contains(.objects) ? "; the screen must get managed objects" : "")
    }

    /// The recommendation's one line: use X, or which are equal, or why none.
    static func conclusionLine(_ r: Recommendation) -> String {
        guard let first = r.ranked.first?.configuration else { return "none: \(r.none ?? "")" }
        let stable =
            r.stability.map {
                String(format: "; first in %.0f %% of %d resamples of the rounds", $0 * 100, Bootstrap.resamples)
            } ?? ""
        if r.ranked.count == 1 {
            return
                "use \(r.name(first)): \(objectiveText(first, r)), the only configuration that may be recommended here"
        }
        if r.orderUnknown {
            let reps = r.ranked.compactMap { $0.lead?.repetitions }.min() ?? 0
            return "no order can be given: \(reps) repetition\(reps == 1 ? "" : "s") in common (an interval needs "
                + "\(Statistics.minimumForInterval): --repeat \(Statistics.minimumForInterval) or more); measured: "
                + r.ranked.map { "\(r.name($0.configuration)) \(objectiveText($0.configuration, r))" }.joined(
                    separator: ", ")
        }
        if let winner = r.winner, let next = r.ranked[1].lead {
            return
                "use \(r.name(winner)): \(objectiveText(winner, r)), ahead of \(r.name(r.ranked[1].configuration)) by \(next.text)\(stable)"
        }
        let followers = Array(r.ranked.dropFirst())
        let leads = followers.map(\.lead)
        let tied = Lead.tiedFollowers(leads).map { followers[$0] }
        // One told apart from the first, though ranked above one that is not, is never among
        // those to use: it is named after them as what it is (issue 56).
        let apart = Lead.apartInside(leads).map { followers[$0] }
        return "not told apart: " + listed(r.leaders.map(r.name)) + " ("
            + tied.map { entry in "\(r.name(entry.configuration)) \(behind(entry.lead!)), \(entry.lead!.whyNot)" }
            .joined(separator: "; ")
            + ")\(stable): use any of them, or decide by another objective or more repetitions"
            + apart.map { entry in
                "; not \(r.name(entry.configuration)), though it ranks above \(r.name(tied.last!.configuration)): "
                    + "\(behind(entry.lead!)), told apart"
                    + (entry.lead!.interval.map { String(format: " (CI %.2f … %.2f)", $0.lowerBound, $0.upperBound) }
                        ?? "")
            }.joined()
    }

    /// Per lead of the first, how much more a managed object may cost on a device than here
    /// before the order flips (`BreakEven`), and where a team measures that cost.
    static func breakEvenLines(_ r: Recommendation) -> String {
        let evens = r.breakEvens
        guard let first = r.ranked.first?.configuration, !evens.isEmpty else { return "" }
        return evens.map { "  per managed object, \(r.name(first)) over \(r.name($0.other)): \($0.breakEven.text)\n" }
            .joined()
            + "  (a managed object's cost on your device: \(BreakEven.guide))\n"
    }

    /// When the configuration to use lays the store out with a constraint the model lacks
    /// (`--add-constraint`): what adopting it buys over the best configuration on the model as it
    /// is, for the same store (every configuration here met the same needs).
    static func whatIfLine(_ r: Recommendation) -> String? {
        guard let winner = r.winner, !winner.parameters[.addConstraint].isEmpty,
            let asIs = r.ranked.map(\.configuration).first(where: { $0.parameters[.addConstraint].isEmpty }),
            let fast = winner.rate?.median, let slow = asIs.rate?.median, slow > 0
        else { return nil }
        let added = winner.parameters[.addConstraint].replacingOccurrences(of: "+", with: " + ")
        return String(
            format: "that is: adding a uniqueness constraint on %@ and using %@ is %.1f× as fast as %@, the best on "
                + "the model as it is, for the same store", added, winner.strategy, fast / slow, asIs.strategy)
    }

    package static func name(_ c: RunSummary.Configuration) -> String {
        c.strategy + (c.label.isEmpty ? "" : " [\(c.label)]")
    }

    static func objectiveText(_ c: RunSummary.Configuration, _ r: Recommendation) -> String {
        switch r.metric {
        case .vsLimit?: return String(format: "vs_limit %.3f", c.vsLimit?.median ?? 0)
        case .peakRSS?: return "peak RSS " + Format.bytes(Int(c.peakRSS?.median ?? 0))
        case .latency?: return String(format: "p99 %.1f ms", c.latencyP99?.median ?? 0)
        case .rate?, nil: return Format.rate(c.rate?.median ?? 0)
        }
    }

    private static func table(_ summary: RunSummary) -> String {
        let figures = SummaryTable.columns(summary, markdown: false)
        var lines = [[Column.strategy.name, "configuration"] + figures.map(\.title)]
        for c in summary.configurations {
            lines.append(
                [c.strategy + (summary.marks[c.strategy] == nil ? "" : " *"), c.label] + figures.map { $0.cell(c) })
        }
        if summary.configurations.allSatisfy({ $0.label.isEmpty }) {
            lines = lines.map { $0.enumerated().filter { $0.offset != 1 }.map(\.element) }
        }
        let widths = (0..<lines[0].count).map { c in lines.map { $0[c].count }.max()! }
        return lines.map { line in
            zip(line, widths).enumerated().map { i, pair in
                i == 0 || (i == 1 && lines[0][1] == "configuration")
                    ? pair.0.padding(toLength: pair.1, withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: pair.1 - pair.0.count) + pair.0
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}

extension Sequence where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
