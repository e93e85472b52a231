import Foundation

/// The comparison as Markdown, for a terminal, a job summary or a pull-request comment:
/// regressions first, then improvements, near misses, what did not move, what could not be
/// compared, and what size of change the noisy rule could have seen.
package enum CompareReport {
    package static func render(_ c: Comparison, baseline: [String], current: [String]) -> String {
        var text = "## loadgen compare: " + verdict(c) + "\n\n"
        text +=
            "Baseline: \(baseline.joined(separator: ", ")). Now: \(current.joined(separator: ", ")).  \n" + machines(c)
        if !c.unjudgedFigures.isEmpty {
            text +=
                "The baseline was written by an older loadgen and lacks \(c.unjudgedFigures.joined(separator: ", ")): "
                + "\(c.unjudgedFigures.count == 1 ? "that figure is" : "those figures are") not judged.\n\n"
        }
        text += "### Regressions (\(c.regressions.count))\n\n" + table(c.regressions)
        text += "### Improvements (\(c.improvements.count))\n\n" + table(c.improvements)
        text +=
            "### Near misses (\(c.nearMisses.count))\n\nMoved past half their threshold, not flagged.\n\n"
            + table(c.nearMisses)
        if !c.reported.isEmpty {
            text +=
                "### Time, memory, instructions and allocations across machines (\(c.reported.count), not judged)\n\n"
                + table(c.reported)
        }
        let unchanged = c.unchanged.values.reduce(0, +)
        let kinds = [Comparison.Kind.exact, .nearExact, .noisy].compactMap { kind in
            c.unchanged[kind].map { "\($0) \(kind.rawValue)" }
        }
        text +=
            "### Unchanged\n\n\(unchanged) figures in \(c.configurationsCompared) configurations"
            + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))") + ".\n"
        if !c.onlyInBaseline.isEmpty || !c.onlyInCurrent.isEmpty {
            text += "\n### Not compared (in one file only)\n\n"
            if !c.onlyInBaseline.isEmpty {
                text +=
                    c.allowsMissing
                    ? "Configurations of the baseline missing now are allowed (--allow-missing).\n\n"
                    : "Each configuration of the baseline missing now fails the gate (a shard that did not run, a line "
                        + "dropped from the suite); --allow-missing lists them without failing.\n\n"
            }
            text += c.onlyInBaseline.map { "- only in the baseline: \($0)\n" }.joined()
            text += c.onlyInCurrent.map { "- only now: \($0)\n" }.joined()
        }
        text += detectable(c)
        text +=
            "\nRules: exact figures (SQL by kind, saves, transactions, rows, lost, duplicates, integrity, status) must "
            + "match wherever the baseline's repetitions agree, or stay within the baseline's band where racing writers make "
            + "them disagree; allocations, instructions and VM steps within ±0.5 % or three times the baseline's own spread; "
            + "vs_limit and peak RSS only when they moved past their threshold (7.5 % or twice the baseline's night-to-night "
            + "drift; 10 % / 20 % for a baseline of one night) AND a one-sided Mann-Whitney U test over the repetitions "
            + "gives p < 0.01.\n"
        return text
    }

    /// What the rows ran on, and how that bounds what is judged.
    private static func machines(_ c: Comparison) -> String {
        var text = ""
        if c.workOnly {
            text +=
                "**Work only (--work-only)**: exact and near-exact figures are judged here; time and memory are judged by "
                + "the A/B pairs on one machine, not against a stored baseline.\n\n"
            if c.toolchainChanged {
                text +=
                    "**Another Swift on one machine**: baseline \(c.baselineMachines.joined(separator: "; ")), now "
                    + "\(c.currentMachines.joined(separator: "; ")). The toolchain is part of the change: its instructions are judged.\n\n"
            }
        } else if c.crossMachine {
            text +=
                "**Compared across machines (--cross-machine)**: baseline on \(c.baselineMachines.joined(separator: "; ")), "
                + "now on \(c.currentMachines.joined(separator: "; ")). Exact figures and SQLite's VM steps are judged; "
                + "time, memory, instructions and allocations need not transfer, so they are shown, not judged.\n\n"
        } else {
            text += "Machine: \(c.currentMachines.joined(separator: "; ")).\n\n"
        }
        return text
    }

    private static func verdict(_ c: Comparison) -> String {
        var verdicts: [String] = []
        if !c.regressions.isEmpty {
            verdicts.append("\(c.regressions.count) regression" + (c.regressions.count == 1 ? "" : "s"))
        }
        if !c.allowsMissing && !c.onlyInBaseline.isEmpty {
            verdicts.append(
                "\(c.onlyInBaseline.count) configuration" + (c.onlyInBaseline.count == 1 ? "" : "s")
                    + " of the baseline not measured")
        }
        guard verdicts.isEmpty else { return verdicts.joined(separator: ", ") }
        // What "no regression" covers: with --allow-missing, only the configurations measured.
        guard c.allowsMissing && !c.onlyInBaseline.isEmpty else { return "no regression" }
        let all = c.configurationsCompared + c.onlyInBaseline.count
        return
            "no regression in \(c.configurationsCompared) of \(all) configurations; \(c.onlyInBaseline.count) not measured"
    }

    private static func table(_ findings: [Comparison.Finding]) -> String {
        guard !findings.isEmpty else { return "None.\n\n" }
        var text = "| configuration | figure | baseline | now | change | verdict |\n|---|---|---:|---:|---:|---|\n"
        for f in findings {
            text += "| \(f.configuration) | \(f.figure) | \(f.baseline) | \(f.now) | \(f.change) | \(f.verdict) |\n"
        }
        return text + "\n"
    }

    /// Per noisy figure: the smallest change it could be flagged at, over the configurations, and
    /// the configurations where it is blind to anything under 25 %.
    private static func detectable(_ c: Comparison) -> String {
        guard !c.detectable.isEmpty else { return "" }
        var text =
            "\n### What the noisy rule can see\n\nThe smallest change that would have been flagged, per "
            + "configuration: a new sample with the baseline's spread and this many repetitions, moved until it passes "
            + "both the threshold and the test. Exact and near-exact figures see any change past their tolerance.\n\n"
            + "| figure | configurations | smallest | median | largest | not below 25 % |\n|---|---:|---:|---:|---:|---|\n"
        for figure in c.detectable.map(\.figure).uniqued() {
            let mine = c.detectable.filter { $0.figure == figure }
            let changes = mine.compactMap(\.change).sorted()
            let blind = mine.filter { ($0.change ?? 1) > 0.25 }
            let median = changes.isEmpty ? "–" : percent(changes[changes.count / 2])
            let list =
                blind.prefix(6).map { d in
                    "\(d.configuration) (\(d.change.map(percent) ?? "none ≤ 100 %"); \(d.baselineRepetitions) vs "
                        + "\(d.currentRepetitions), spread \(percent(d.spread)))"
                }.joined(separator: "; ") + (blind.count > 6 ? "; \(blind.count - 6) more" : "")
            text +=
                "| \(figure) | \(mine.count) | \(changes.first.map(percent) ?? "–") | \(median) | "
                + "\(changes.last.map(percent) ?? "–") | \(blind.isEmpty ? "none" : list) |\n"
        }
        return text + "\nMore repetitions in the suite lower these; a wider threshold would raise them.\n"
    }

    private static func percent(_ v: Double) -> String { String(format: "%.1f %%", v * 100) }
}
