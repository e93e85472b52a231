import Foundation

/// The A/B gate's report in Markdown: the verdict first, what was and was not judged and why,
/// then every configuration with its change, interval, p and the smallest change it could show.
package enum PairedReport {
    /// How the run went, for the heading: the sides, the rounds, the machine's load, the time.
    package struct Context: Sendable {
        package var base = "base"
        package var new = "new"
        package var rounds = 0
        package var seconds = 0.0
        package var load: (before: Double, after: Double)?
        package var machine = ""
        package var notJudged: [String] = []
        /// Why the gate could not judge (ab exits 2), nil when it could: the heading says it.
        package var unjudged: String?

        package init() {}
    }

    /// How ab.md begins: the mark by which ab recognises the page it may replace.
    package static let signature = "## loadgen ab: "

    package static func render(_ c: PairedComparison, context: Context) -> String {
        let regressions = c.regressions
        let faster = (c.configurations + c.strategies).filter { $0.verdict == .faster }
        var text = signature
        let count = Set(c.configurations.map(\.name)).count
        if c.configurations.isEmpty {
            text += "nothing was paired\n\n"
        } else if regressions.isEmpty, let why = context.unjudged {
            text += "not judged: \(why)\n\n"
        } else if regressions.isEmpty {
            text +=
                "no slowdown in \(count) configuration\(count == 1 ? "" : "s") (wall time and CPU time)"
                + (faster.isEmpty ? "" : "; \(faster.count) measure\(faster.count == 1 ? "" : "s") faster") + "\n\n"
        } else {
            text += slowdowns(regressions) + "\n\n"
        }
        text +=
            "\(context.new) against \(context.base), built and run on this machine in one job: \(context.rounds) rounds, each "
            + "running every configuration once per side, back to back, the order alternating (ABBA). "
            + String(
                format:
                    "Wall time and CPU time per record are each judged; a finding needs p < %.2g (%.2g over %d tests) "
                    + "and a change of at least %.0f %%.",
                c.testLevel, c.options.alpha, c.configurations.count + c.strategies.count, c.options.threshold * 100)
        if let load = context.load {
            text += String(format: " Load average %.2f before, %.2f after.", load.before, load.after)
        }
        if context.seconds > 0 { text += " Took \(Format.duration(context.seconds))." }
        if !context.machine.isEmpty { text += " \(context.machine)." }
        text += "\n\n"
        text += sensitivity(c)
        let notJudged = c.unpaired.map { "\($0.configuration): \($0.why)" } + context.notJudged
        if !notJudged.isEmpty { text += "**Not judged:** " + notJudged.joined(separator: "; ") + ".\n\n" }
        text += table("Per configuration", c.configurations)
        if !c.strategies.isEmpty { text += table("Per strategy, pooled", c.strategies) }
        if !c.workChanges.isEmpty {
            text += "### Work that changed (exact figures of the first pair)\n\n"
            for w in c.workChanges {
                text +=
                    "- \(w.configuration): \(w.figure) \(Format.thousands(w.base)) → \(Format.thousands(w.new)) "
                    + "(\(w.new >= w.base ? "+" : "")\(Format.thousands(w.new - w.base)))\n"
            }
            text += "\n"
        }
        return text
    }

    /// "2 configurations slower: a (time +21.0 %, p = …; CPU time +23.4 %, p = …); b (…)": one
    /// per configuration, its measures together. Wall time and CPU time are two views of one
    /// change (a probe of issue 58 read a CPU-only change as two slowdowns).
    private static func slowdowns(_ regressions: [PairedComparison.Judged]) -> String {
        let names = regressions.map(\.name).uniqued()
        return "\(names.count) configuration\(names.count == 1 ? "" : "s") slower: "
            + names.map { name in
                let measures = regressions.filter { $0.name == name }
                    .map { "\($0.measure.rawValue) \(percent($0.change)), p = \(p($0.pSlower))" }
                return "\(name) (" + measures.joined(separator: "; ") + ")"
            }.joined(separator: "; ")
    }

    /// "What it can see": the smallest slowdown the pairs could have been flagged at, and the
    /// configurations too few pairs leave blind.
    private static func sensitivity(_ c: PairedComparison) -> String {
        var text = ""
        let visible = c.configurations.compactMap(\.smallestVisible).sorted()
        // One per configuration: its wall and CPU time are two measures, blind together.
        let blind = c.configurations.filter { $0.smallestVisible == nil }.map(\.name).uniqued()
        if !visible.isEmpty {
            text += String(
                format: "**What it can see:** the smallest slowdown these pairs would flag 9 times in 10 is %.1f %% "
                    + "(median over configurations and measures; %.1f … %.1f %%; each in the table).",
                visible[visible.count / 2] * 100, visible.first! * 100, visible.last! * 100)
        } else if !c.configurations.isEmpty {
            text += "**What it can see:** nothing under 100 %."
        }
        if !blind.isEmpty {
            let needed = c.pairsNeeded
            text +=
                " \(blind.count) configuration\(blind.count == 1 ? "" : "s") cannot be flagged at all: with n pairs the test's "
                + "smallest p is 1/2ⁿ, and p < \(PairedReport.p(c.testLevel)) takes \(needed) pairs or more (--rounds)."
        }
        return c.configurations.isEmpty ? text : text + "\n\n"
    }

    private static func table(_ title: String, _ rows: [PairedComparison.Judged]) -> String {
        var text =
            "### \(title)\n\n| | measure | pairs | change (median) | 95 % CI | p slower | p faster | "
            + "seen 9 in 10 | verdict |\n|---|---|---:|---:|---:|---:|---:|---:|---|\n"
        for j in rows {
            let ci = j.interval.map { "\(percent($0.lowerBound)) … \(percent($0.upperBound))" } ?? ""
            text +=
                "| \(j.name) | \(j.measure.rawValue) | \(j.pairs) | \(percent(j.change)) | \(ci) | \(p(j.pSlower)) | \(p(j.pFaster)) | "
                + "\(j.smallestVisible.map { String(format: "%.1f %%", $0 * 100) } ?? "> 100 %") | \(j.verdict.rawValue) |\n"
        }
        return text + "\n"
    }

    static func percent(_ change: Double) -> String { String(format: "%+.1f %%", change * 100) }

    static func p(_ value: Double) -> String { value < 0.0001 ? "< 0.0001" : String(format: "%.4f", value) }
}
