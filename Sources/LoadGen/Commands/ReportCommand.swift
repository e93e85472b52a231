import Foundation
import Host
import Report
import Strategies

/// `loadgen report CSV… --out DIR`: the page an engineer pastes into a design review:
/// parameters and machine, the summary with intervals, the ranking, the charts, what the verifier
/// found, and the command that reproduces it.
enum ReportCommand {
    static let about =
        "Write DIR/review.md for a design review: summary, ranking, charts, store checks and how to reproduce."

    static let specs: [OptionSpec] =
        [
            .option("--out", "DIR", "where review.md and its charts go", default: "review/"),
            .option("--timeline", "FILE", "a --timeline file, for memory over rows"),
            .option("--history", "FILE", "results/history.csv, for the nightly trend"),
            .option("--format", "png|svg|both", "chart format", default: "png"),
            .option("--script", "FILE", "the gnuplot script", default: "plots.gnuplot, compiled into loadgen"),
            .flag("--no-charts", "write the page without charts (no gnuplot needed)"),
            .flag("--cross-machine", "summarise rows measured on different machines or SQLite versions in one page"),
        ] + ConclusionFlags.specs

    /// How a page loadgen wrote starts: only such a review.md is replaced.
    static let signature = "# Design review"

    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            print(
                Help.render(
                    usage: "loadgen report RESULTS.csv [more.csv …] --out DIR [options]", about: about, specs: specs,
                    footer: "Example: loadgen report results/sweep.csv --timeline results/timeline.csv --out review/"),
                terminator: "")
            return ExitCode.success
        }
        let a = try Arguments(command: "report", arguments: arguments, specs: specs)
        let charts = try Charts(a, command: "report", defaultOut: "review/")
        // Without a conclusion flag, each invocation concludes as it asked (its recorded command).
        let (options, asked) = try ConclusionFlags.reading(a, rows: charts.rows)
        let machines = Self.machines(charts.rows)
        if machines.count > 1 && !a.flag("--cross-machine") {
            throw CommandError(
                message: "report: the rows were measured on \(machines.count) machines or SQLite versions "
                    + "(\(machines.joined(separator: "; "))); medians across them mean nothing. Report each "
                    + "machine's file on its own, or summarise them anyway with --cross-machine",
                exitCode: ExitCode.dataError)
        }
        let folder = charts.out.hasSuffix("/") ? charts.out : charts.out + "/"
        let page = ReportFile(path: folder + "review.md", signature: signature)
        // Checked before any chart is drawn: a review.md loadgen did not write is never replaced.
        if FileManager.default.fileExists(atPath: folder) {
            do { try page.check() } catch let error as ResultsFileError {
                throw CommandError(message: "report: --out \(charts.out): \(error)", exitCode: error.exitCode)
            }
        }
        // The summary (its bootstraps) is made while gnuplot draws: one job per core. Not under
        // an address-space limit (ulimit -v): there a new thread's first allocation may need an
        // allocator arena that does not fit, and jemalloc then crashes instead of failing (report
        // segfaulted under `ulimit -v 100000` where plot said the limit); one thread does it all.
        let rows = charts.rows
        let summary =
            EnvironmentFailure.addressSpaceLimit == nil
            ? try Deferred(name: "summary") { ResultsSummary.make(rows, options: options) } : nil
        let drawn: [String]
        do { drawn = try charts.draw() } catch {
            _ = summary?.value()
            throw error
        }
        try Charts.makeFolders(folder)
        let text = render(
            charts, images: drawn.filter { $0.hasSuffix(".png") || $0.hasSuffix(".svg") }, folder: folder,
            machines: machines, options: options, asked: asked,
            summary: summary?.value() ?? ResultsSummary.make(rows, options: options))
        let path = page.path
        do { try page.write(text) } catch let error as ResultsFileError {
            throw CommandError(message: "report: \(error)", exitCode: error.exitCode)
        }
        print(path)
        for chart in drawn { print(chart) }
        return ExitCode.success
    }

    /// The conclusion: the run's, or, when the file's invocations asked different things
    /// (another objective, cap or requirement), each group's on its own, said so.
    static func conclusions(
        _ summary: RunSummary, asked: [(asked: String, options: ConclusionOptions, rows: [ResultRow])]
    ) -> String {
        guard asked.count > 1 else {
            let conclusion = Summary.recommendations(summary)
            return conclusion.isEmpty
                ? "" : "## Conclusion\n\n```\n" + conclusion.trimmingCharacters(in: .newlines) + "\n```\n\n"
        }
        var text =
            "## Conclusion\n\nThe invocations in these results asked different things; each is concluded as it asked.\n\n"
        for group in asked {
            let conclusion = Summary.recommendations(ResultsSummary.make(group.rows, options: group.options))
            text +=
                "### " + (group.asked.isEmpty ? "As run with the defaults" : "As run with `\(group.asked)`") + "\n\n"
            text +=
                conclusion.isEmpty
                ? "Nothing to compare.\n\n" : "```\n" + conclusion.trimmingCharacters(in: .newlines) + "\n```\n\n"
        }
        return text
    }

    /// The machines the rows were measured on: CPU model, cores and SQLite version, as compare
    /// tells them apart.
    static func machines(_ rows: [ResultRow]) -> [String] {
        rows.map {
            "\($0.identity.system.cpuModel), \($0.identity.system.cores) cores, SQLite \($0.identity.system.sqliteVersion), "
                + "Swift \($0.identity.system.swiftVersion)"
        }.uniqued()
    }

    static func render(
        _ charts: Charts, images: [String], folder: String, machines: [String] = [],
        options: ConclusionOptions = ConclusionOptions(),
        asked: [(asked: String, options: ConclusionOptions, rows: [ResultRow])] = [],
        summary made: RunSummary? = nil
    ) -> String {
        let rows = charts.rows
        let summary = made ?? ResultsSummary.make(rows, options: options)
        var text = "# Design review: \(Set(rows.map(\.parameters.strategy)).sorted().joined(separator: ", "))\n\n"
        text += machine(rows) + "\n"
        let records = rows.map(\.parameters.records).uniqued().filter { !$0.isEmpty }
        if records != ["expenses"] && !records.isEmpty {
            text += "Records: \(records.joined(separator: "; ")).\n\n"
        }
        text += models(rows)
        if machines.count > 1 {
            text +=
                "**Measured on \(machines.count) machines (--cross-machine)**: \(machines.joined(separator: "; ")). "
                + "Medians below mix them; compare across machines only through `vs_limit`.\n\n"
        }
        text += reproduce(rows)
        text += rerunNote(summary) + "\n"
        text += conclusions(summary, asked: asked)
        text +=
            MarkdownExport.render(summary, title: "summary").replacingOccurrences(
                of: "## loadgen summary", with: "## Summary"
            )
            .replacingOccurrences(of: "\n### Recommendation\n", with: "\n### Recommendation (as above)\n") + "\n"
        text += ReadSection.markdown(summary)
        if !images.isEmpty {
            text += "## Charts\n\n"
            // The chart that answers the objective first (issue 44, item 2): memory for --objective
            // rss, latency for latency, throughput for the rate.
            let answering =
                options.objective == .rss ? "memory." : options.objective == .latency ? "latency." : "throughput"
            let ordered =
                images.filter { URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(answering) }
                + images.filter { !URL(fileURLWithPath: $0).lastPathComponent.hasPrefix(answering) }
            for image in ordered where image.hasSuffix(".png") || !images.contains(where: { $0.hasSuffix(".png") }) {
                let name = URL(fileURLWithPath: image).lastPathComponent
                let title = charts.data.charts.first { name.hasPrefix($0.name + ".") }?.title ?? name
                text += "### \(title)\n\n![\(title)](\(name))\n\n"
            }
        }
        // A quiet chart needs no word (the update's throughput beside the import's drawn one), as on `plot`'s stderr.
        let skipped = charts.data.charts.filter { $0.data == nil && !$0.quiet }
        if charts.noCharts {
            text += "Charts not drawn (--no-charts).\n\n"
        } else if !skipped.isEmpty {
            text +=
                "Charts not drawn: "
                + skipped.map { "\($0.title.lowercased()) (\($0.skipped ?? ""))" }.joined(separator: "; ") + ".\n\n"
        }
        text += findings(summary) + historyConsumers(summary)
        return text
    }

    /// Each history consumer's lag and whether it kept up (its backlog's trend over the run), as
    /// the terminal summary says it: a verdict the page carries too (issue 54, item 8).
    private static func historyConsumers(_ summary: RunSummary) -> String {
        let lines = summary.configurations.compactMap { c -> String? in
            guard let last = c.ok.last?.measurement, last.strategy?.historyLagP50Milliseconds != nil else { return nil }
            let line = Summary.historyLine(c, last).trimmingCharacters(in: .whitespacesAndNewlines)
            return "- \(Summary.name(c)): " + line.replacingOccurrences(of: "History:   ", with: "")
        }
        return lines.isEmpty ? "" : "\n## History consumers\n\n" + lines.joined(separator: "\n") + "\n"
    }

    /// The roles and sizes of each model run, said in words rather than left inside the reproduce
    /// command: which model file, which entity, its key and relationship, and the sizes the
    /// generator assumed (issue 28).
    static func models(_ rows: [ResultRow]) -> String {
        let lines = rows.map(\.parameters).filter { !$0[.model].isEmpty }.map { p -> String in
            let relationship = p[.relationship]
            let parents =
                p[.parents].isEmpty || !p[.input].isEmpty
                ? "" : " (\(p[.parents]) related objects unless one-to-one)"
            let related =
                relationship.isEmpty || relationship == "none"
                ? "related to nothing"
                : "related through `\(relationship)`" + parents
            let sizes = p[.attributeBytes].split(separator: "+").map {
                $0.replacingOccurrences(of: "=", with: " ") + " bytes"
            }
            let values =
                sizes.isEmpty
                ? "Binary/Transformable values \(p[.payloadBytes]) bytes each"
                : "Binary/Transformable values: " + sizes.joined(separator: ", ")
            let generated = p[.input].isEmpty ? "; generated strings \(p[.stringLength]) bytes, " + values : ""
            let key =
                (p[.key].isEmpty
                    ? "keyed by nothing (only inserted)"
                    : "keyed by `\(p[.key].replacingOccurrences(of: "+", with: " + "))`")
                + (p[.addConstraint].isEmpty
                    ? ""
                    : " with the uniqueness constraint `\(p[.addConstraint].replacingOccurrences(of: "+", with: " + "))` "
                        + "added (--add-constraint: the model does not have it)")
                + (p[.addIndex].isEmpty
                    ? ""
                    : " with the index `\(p[.addIndex].replacingOccurrences(of: "+", with: " + "))` "
                        + "added (--add-index: the model does not have it)")
            return "- `\(p[.model])`: records are **\(p[.entity])**, \(key), " + related + generated
        }.uniqued()
        guard !lines.isEmpty else { return "" }
        return "### Model\n\n" + lines.joined(separator: "\n") + "\n\n"
    }

    private static func machine(_ rows: [ResultRow]) -> String {
        let systems = rows.map(\.identity.system)
        let first = systems[0]
        let dates = rows.map(\.identity.startedAt).sorted()
        let revisions = Set(systems.map(\.gitRevision)).sorted().joined(separator: ", ")
        return "Measured \(dates.first ?? "")…\(dates.last ?? "") at revision \(revisions) on \(first.host): "
            + "\(first.cpuModel), \(first.cores) cores, \(first.os); Swift \(first.swiftVersion), SQLite \(first.sqliteVersion), "
            + "\(first.allocator). \(rows.count) repetitions of \(Set(rows.map(\.parameters)).count) configurations, "
            + "each in its own process; `vs_limit` divides by raw-sqlite in the same round.\n"
    }

    /// The command lines that measured these rows, as each invocation recorded its own, with the
    /// revision and machine it ran at. Several invocations are said, and compared through
    /// `vs_limit` only; invocations of one command line (a year of nightlies) are said once, with
    /// how many they were and when.
    static func reproduce(_ rows: [ResultRow]) -> String {
        // Per invocation its first row's identity, its repetitions and revisions (not a copy of its rows).
        var invocations: [Invocation] = []
        var position: [Substring: Int] = [:]
        for row in rows {
            let invocation = row.identity.runID.split(separator: "-").first ?? ""
            guard let i = position[invocation] else {
                position[invocation] = invocations.count
                invocations.append(
                    Invocation(identity: row.identity, repetitions: 1, revisions: [row.identity.system.gitRevision]))
                continue
            }
            invocations[i].repetitions += 1
            if !invocations[i].revisions.contains(row.identity.system.gitRevision) {
                invocations[i].revisions.append(row.identity.system.gitRevision)
            }
        }
        var text =
            "### Reproduce\n\n\(Rerun.invocationSaid), from any folder; each rerun writes into a "
            + "folder of its own, never onto these rows.\n\n"
        if invocations.count > 1 {
            let revisions = Set(rows.map(\.identity.system.gitRevision)).count
            text +=
                "These rows come from \(invocations.count) invocations"
                + (revisions > 1 ? " at \(revisions) revisions" : "")
                + ": each ran on its own machine state, so the rankings and the conclusion compare them through "
                + "`vs_limit` (each divided by its own limit), not rows per second.\n\n"
        }
        let commands = Dictionary(grouping: invocations, by: \.identity.command)
        for command in invocations.map(\.identity.command).uniqued() {
            text += reproduceBlock(command, commands[command]!, several: invocations.count > 1)
        }
        return text
    }

    /// What the review says of one invocation: its first row's identity, repetitions, revisions.
    private struct Invocation {
        let identity: RunIdentity
        var repetitions: Int
        var revisions: [String]
    }

    /// One command line and, among several invocations, which of them ran it.
    private static func reproduceBlock(_ command: String, _ mine: [Invocation], several: Bool) -> String {
        let first = mine[0].identity
        // Only a `loadgen run` line that parses is pasted; anything else in the cell (a hand-edited
        // `curl … | sh`) is said, never reproduced (issue 55, item 5).
        let line =
            command.isEmpty
            ? "# not recorded: these rows predate loadgen recording its command line"
            : Rerun.lines(command) ?? "# not reproduced: the recorded command is not a loadgen run command line"
        var text = "```sh\n\(line)\n```\n"
        let repetitions = mine.map(\.repetitions).reduce(0, +)
        if several && mine.count == 1 {
            text +=
                "(\(repetitions) repetitions, started \(first.startedAt), revision \(first.system.gitRevision), "
                + "\(first.system.cpuModel))\n"
        } else if several {
            let revisions = mine.flatMap(\.revisions).uniqued()
            let named =
                revisions.prefix(3).joined(separator: ", ")
                + (revisions.count > 3 ? " and \(revisions.count - 3) more" : "")
            text +=
                "(\(mine.count) invocations of this line, \(repetitions) repetitions, started \(first.startedAt) … "
                + "\(mine.last!.identity.startedAt), revision\(revisions.count == 1 ? "" : "s") \(named), \(first.system.cpuModel))\n"
        }
        return text + "\n"
    }

    /// How far a rerun on another day may move the figures: measured from these rows when a
    /// configuration ran in several invocations (each invocation's median against all of them),
    /// else the repetitions' own spread, and always what repeats exactly.
    static func rerunNote(_ summary: RunSummary) -> String {
        var moves: [Double] = []
        var spreads: [Double] = []
        for c in summary.configurations where !c.underCallgrind {
            let byInvocation = Dictionary(grouping: c.ok) {
                String($0.identity.runID.split(separator: "-").first ?? "")
            }
            let medians = byInvocation.values.compactMap {
                Statistics($0.compactMap(\.measurement.rowsPerSecond))?.median
            }
            if medians.count > 1, let all = c.rate?.median, all > 0 {
                moves.append(medians.map { abs($0 / all - 1) }.max()!)
            }
            if let rate = c.rate, rate.count > 1, rate.median > 0 { spreads.append(rate.mad / rate.median) }
        }
        let exact =
            "SQL statements, saves, rows, duplicates, lost keys and bad links repeat exactly where one writer works "
            + "(racing writers move them a little); allocations and instructions within 1 %."
        if let typical = Statistics(moves) {
            return String(
                format: "**A rerun on another day** may move rates and memory: between the invocations of these rows a "
                    + "configuration's median moved by %.0f %% (median over %d configurations; at most %.0f %%). ",
                typical.median * 100, moves.count, typical.max * 100) + exact + "\n"
        }
        let spread =
            Statistics(spreads).map {
                String(format: " (here the repetitions spread by %.0f %% of the median, MAD)", $0.median * 100)
            } ?? ""
        return
            "**A rerun on another day** may move rates and memory by ±30 %: wall time moves that much between invocations "
            + "on a shared machine\(spread), which is why leads are judged by intervals within one run. " + exact + "\n"
    }

    /// What the verifier found, per strategy: the correctness side of the numbers.
    private static func findings(_ summary: RunSummary) -> String {
        var text =
            "## What the verifier found\n\n| strategy | repetitions ok | duplicates | stale | lost | bad links | unexpected rows | "
            + "integrity | a repeated record keeps | needs | outcome | errors |\n|---|---:|---:|---:|---:|---:|---:|---|---|---|---|---|\n"
        for strategy in summary.configurations.map(\.strategy).uniqued() {
            let mine = summary.configurations.filter { $0.strategy == strategy }
            let needs = Set(mine.flatMap(\.verdict.needs)).sorted().map(\.rawValue).joined(separator: "+")
            let outcome =
                summary.unranked.contains(strategy)
                ? "the limit"
                : mine.map(\.verdict.outcome).uniqued().joined(separator: "; ")
            let rows = mine.flatMap(\.rows)
            let v = rows.compactMap(\.measurement.verification)
            func range(_ pick: (Verification) -> Int) -> String {
                guard let low = v.map(pick).min(), let high = v.map(pick).max() else { return "" }
                return low == high ? String(low) : "\(low)…\(high)"
            }
            let integrity = Set(v.map(\.integrity)).sorted().joined(separator: "; ")
            let stale = v.contains { $0.stale != nil } ? range { $0.stale ?? 0 } : "—"
            let keeps = StrategyRegistry.strategy(named: strategy)?.repeatedKey.policy ?? ""
            let errors = Set(rows.compactMap(\.measurement.error)).sorted().joined(separator: "; ")
            text +=
                "| \(strategy) | \(rows.filter { $0.measurement.status == .ok }.count) of \(rows.count) | \(range(\.duplicates)) | "
                + "\(stale) | \(range(\.lost)) | \(range(\.badLinks)) | \(range(\.unexpectedRows)) | \(integrity) | \(keeps) | "
                + "\(needs.isEmpty ? "—" : needs) | \(outcome) | \(errors) |\n"
        }
        return text + "\nA repetition fails where its strategy breaks its own promise (`loadgen list`). The conclusion "
            + "above goes further: it compares only configurations whose stores hold what the workload needs (needs: "
            + "unique keys where keys repeat, each key's last values where repeats change them (current: stale rows keep an "
            + "older copy's), every record linked to its parent, a current screen with --view-context; `--require` states "
            + "it otherwise, `--require first-wins` when the app keeps the first copy on purpose). Outcome `short:…` names what a store lacked, `bug` an idiom shown for "
            + "the bug it demonstrates: both are measured, ranked apart, and never recommended.\n"
    }
}
