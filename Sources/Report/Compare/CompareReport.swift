/// The comparison as Markdown, for a terminal or a pull-request comment: regressions first,
/// then improvements, then what did not move and what could not be compared.
package enum CompareReport {
    package static func render(_ c: Comparison, baseline: [String], current: [String]) -> String {
        var verdicts: [String] = []
        if !c.regressions.isEmpty { verdicts.append("\(c.regressions.count) regression" + (c.regressions.count == 1 ? "" : "s")) }
        if !c.allowsMissing && !c.onlyInBaseline.isEmpty {
            verdicts.append("\(c.onlyInBaseline.count) configuration" + (c.onlyInBaseline.count == 1 ? "" : "s")
                            + " of the baseline not measured")
        }
        var text = "## loadgen compare: " + (verdicts.isEmpty ? "no regression" : verdicts.joined(separator: ", ")) + "\n\n"
        text += "Baseline: \(baseline.joined(separator: ", ")). Now: \(current.joined(separator: ", ")).  \n"
        if c.crossMachine {
            text += "**Compared across machines (--cross-machine)**: baseline on \(c.baselineMachines.joined(separator: "; ")), "
                + "now on \(c.currentMachines.joined(separator: "; ")). Time and memory need not transfer.\n\n"
        } else {
            text += "Machine: \(c.currentMachines.joined(separator: "; ")).\n\n"
        }
        text += "### Regressions (\(c.regressions.count))\n\n" + table(c.regressions)
        text += "### Improvements (\(c.improvements.count))\n\n" + table(c.improvements)
        let unchanged = c.unchanged.values.reduce(0, +)
        let kinds = [Comparison.Kind.exact, .nearExact, .noisy].compactMap { kind in
            c.unchanged[kind].map { "\($0) \(kind.rawValue)" }
        }
        text += "### Unchanged\n\n\(unchanged) figures in \(c.configurationsCompared) configurations"
            + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))") + ".\n"
        if !c.onlyInBaseline.isEmpty || !c.onlyInCurrent.isEmpty {
            text += "\n### Not compared (in one file only)\n\n"
            if !c.onlyInBaseline.isEmpty {
                text += c.allowsMissing ? "Configurations of the baseline missing now are allowed (--allow-missing).\n\n"
                    : "Each configuration of the baseline missing now fails the gate (a shard that did not run, a line "
                    + "dropped from the suite); --allow-missing lists them without failing.\n\n"
            }
            text += c.onlyInBaseline.map { "- only in the baseline: \($0)\n" }.joined()
            text += c.onlyInCurrent.map { "- only now: \($0)\n" }.joined()
        }
        text += "\nRules: exact figures (SQL by kind, saves, transactions, rows, lost, duplicates, integrity, status) must "
            + "match, or stay within the baseline's band where writers race; allocations, instructions and VM steps within "
            + "2 %; vs_limit and peak RSS only when they moved past 10 % / 20 % AND a one-sided Mann-Whitney U test over "
            + "the repetitions gives p < 0.01.\n"
        return text
    }

    private static func table(_ findings: [Comparison.Finding]) -> String {
        guard !findings.isEmpty else { return "None.\n\n" }
        var text = "| configuration | figure | baseline | now | change | verdict |\n|---|---|---:|---:|---:|---|\n"
        for f in findings {
            text += "| \(f.configuration) | \(f.figure) | \(f.baseline) | \(f.now) | \(f.change) | \(f.verdict) |\n"
        }
        return text + "\n"
    }
}
