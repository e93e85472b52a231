import Foundation

/// The gate's verdicts as JSON (`compare --json`, `ab --json`: what moved, by how much, the exit
/// status) and, read back from them, what a pull request shows (`loadgen verdict`): one comment,
/// updated on each push, and an error annotation per regression.
package enum GateVerdict {
    /// How each JSON file begins: `compare`, `ab` and `verdict` replace only their own.
    package static func signature(_ tool: String) -> String { "{\n  \"_loadgen\" : \"\(tool)\"" }
    /// The comment's first line: the workflow finds the comment to update by it.
    package static let commentMarker = "<!-- loadgen-gate -->"

    // MARK: Writing

    package static func json(_ c: Comparison, status: Int32) -> String {
        // Numbers as numbers (issue 58, item 5): each figure's value, and the relative change as a
        // fraction, where the cell is a number; the text a reader sees beside it (`*_text`).
        func findings(_ list: [Comparison.Finding]) -> [[String: Any]] {
            list.map { f in
                let (before, after) = (number(f.baseline), number(f.now))
                let change = before.flatMap { b in after.flatMap { a in b != 0 ? rounded(a / b - 1) : nil } }
                return [
                    "configuration": f.configuration, "figure": f.figure, "verdict": f.verdict,
                    "baseline": before.map { $0 as Any } ?? NSNull(), "now": after.map { $0 as Any } ?? NSNull(),
                    "change": change.map { $0 as Any } ?? NSNull(),
                    "baseline_text": f.baseline, "now_text": f.now, "change_text": f.change,
                ]
            }
        }
        return serialized([
            // not a results column: the verdict's exit status
            "_loadgen": "compare", "status": Int(status), "configurations": c.configurationsCompared,
            "regressions": findings(c.regressions), "improvements": findings(c.improvements),
            "not_judged": c.onlyInBaseline.map { "only in the baseline: \($0)" }
                + c.onlyInCurrent.map { "only now: \($0)" },
        ])
    }

    package static func json(_ c: PairedComparison, status: Int32, notJudged: [String], rounds: Int) -> String {
        let judged = c.configurations.map { j -> [String: Any] in
            [
                "name": j.name, "measure": j.measure.rawValue, "pairs": j.pairs, "change": rounded(j.change),
                "p_slower": j.pSlower,
                "seen_9_in_10": j.smallestVisible.map(rounded) as Any? ?? NSNull(), "verdict": j.verdict.rawValue,
            ]
        }
        return serialized([
            // not a results column: the verdict's exit status
            "_loadgen": "ab", "status": Int(status), "rounds": rounds, "configurations": judged,
            "regressions": judged.filter { ($0["verdict"] as? String) == "slower" },
            "not_judged": c.unpaired.map { "\($0.configuration): \($0.why)" } + notJudged,
        ])
    }

    private static func rounded(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }

    /// A cell as the number it shows ("38,458", "0.512"), nil for any other text.
    static func number(_ cell: String) -> Double? {
        Double(cell.replacingOccurrences(of: ",", with: "")).flatMap { $0.isFinite ? $0 : nil }
    }

    /// What a reader sees of a finding's `key`: its text (`key_text`), or the value of a file
    /// written before the numbers were numbers.
    private static func shown(_ finding: [String: Any], _ key: String) -> String {
        (finding[key + "_text"] as? String) ?? finding[key].map { "\($0)" } ?? ""
    }

    /// A p-value as a reader reads one: three significant digits, "< 0.0001" below.
    static func pValue(_ value: Any?) -> String {
        guard let p = value as? Double else { return "\(value ?? "")" }
        return p < 0.0001 ? "< 0.0001" : String(format: "%.3g", p)
    }

    private static func serialized(_ object: [String: Any]) -> String {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    // MARK: Reading back

    /// A verdict file's object, nil when it is not one of `tool`'s.
    package static func read(_ data: Data, tool: String) -> [String: Any]? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["_loadgen"] as? String == tool
        else { return nil }
        return object
    }

    // MARK: The pull request

    /// The comment: the verdict first, a row per part (what it judged, what moved, what it cannot
    /// see), the regressions, what was not judged, and the link to the full report.
    package static func comment(work: [String: Any]?, time: [String: Any]?, link: String?) -> String {
        let regressions = workRegressions(work) + timeRegressions(time)
        let unjudged =
            strings(work?["not_judged"]).map { "work · " + $0 } + strings(time?["not_judged"]).map { "time · " + $0 }
        let failed = failedParts(work: work, time: time)
        let headline =
            !regressions.isEmpty
            ? "\(regressions.count) regression\(regressions.count == 1 ? "" : "s")"
            : !failed.isEmpty
                ? "did not pass (" + failed.map(\.detail).joined(separator: "; ") + ")"
                : !unjudged.isEmpty || work == nil || time == nil ? "not everything could be judged" : "no regression"
        var text = commentMarker + "\n## loadgen gate: \(headline)\n\n"
        text += "| part | judged | verdict | what moved | what it cannot see |\n|---|---|---|---|---|\n"
        text +=
            "| **Work**: instructions, allocations, SQL, rows (both sides under callgrind, compared exactly) | "
            + workRow(work) + " | wall time: fsync, lock waits, a consumer's lag |\n"
        text += "| **Time**: wall and CPU time per record (paired A/B) | " + timeRow(time) + " |\n"
        let report = link.map { "[the full report](\($0))" } ?? "the full report (the workflow run)"
        // GitHub refuses a comment over 65,536 characters (672 regressions made 101 k): each list
        // takes what fits of half the room left, and says how many it leaves to the report.
        let room = (commentLimit - text.utf8.count - 200) / 2
        if !regressions.isEmpty {
            text +=
                "\n**Regressions**\n\n"
                + capped(
                    regressions.map { "- \($0.title.dropFirst(titlePrefix.count)): \($0.detail)\n" },
                    room: room, what: "regression", report: report)
        }
        if !unjudged.isEmpty {
            text +=
                "\n**Not judged**\n\n" + capped(unjudged.map { "- \($0)\n" }, room: room, what: "entry", report: report)
        }
        if let link { text += "\n[The full report](\(link))\n" }
        return text
    }

    /// The most characters GitHub takes in a comment.
    package static let commentLimit = 65_536
    /// The most error annotations GitHub shows for one step: the rest would be dropped unsaid.
    package static let annotationLimit = 10

    /// As many `lines` as fit in `room` bytes (UTF-8: never fewer than GitHub's characters),
    /// then one saying how many are left out and where they are.
    private static func capped(_ lines: [String], room: Int, what: String, report: String) -> String {
        var text = ""
        var used = 0
        for (i, line) in lines.enumerated() {
            guard used + line.utf8.count <= room else {
                let left = lines.count - i
                return text + "- … and \(left) more \(what)\(left == 1 ? "" : "s"), in \(report)\n"
            }
            text += line
            used += line.utf8.count
        }
        return text
    }

    /// GitHub's workflow commands: an error annotation per regression, on the check.
    /// At most `annotationLimit`: past it, the last says how many more the comment and the full
    /// report list.
    package static func annotations(work: [String: Any]?, time: [String: Any]?) -> String {
        var all = workRegressions(work) + timeRegressions(time) + failedParts(work: work, time: time)
        if all.count > annotationLimit {
            let left = all.count - (annotationLimit - 1)
            all =
                Array(all.prefix(annotationLimit - 1))
                + [
                    (
                        titlePrefix + "\(left) more",
                        "\(left) more regressions, not annotated (GitHub shows \(annotationLimit) per step): "
                            + "see the pull request's comment and the full report"
                    )
                ]
        }
        return all.map { r in
            "::error title=\(escaped(r.title, property: true))::\(escaped(r.detail, property: false))\n"
        }.joined()
    }

    /// The parts that exited with a failure and list no regression (compare exits 1 for a
    /// configuration of the baseline not measured again, ab 2 for what it could not judge): each
    /// fails the gate as a regression does, and says so (it showed "no regression": issue 55, item 18).
    private static func failedParts(work: [String: Any]?, time: [String: Any]?) -> [(title: String, detail: String)] {
        [("work", "compare", work), ("time", "ab", time)].compactMap { name, tool, part in
            guard let part, status(part) != 0, objects(part["regressions"]).isEmpty else { return nil }
            let why = strings(part["not_judged"]).first.map { ": " + $0 } ?? ""
            return (titlePrefix + name, "\(tool) exited \(status(part))\(why)")
        }
    }

    // not a results column: the verdict's exit status
    private static func status(_ part: [String: Any]) -> Int { part["status"] as? Int ?? 0 }

    private static func workRow(_ work: [String: Any]?) -> String {
        guard let work else { return "— | the work step did not run | — " }
        let moved = objects(work["regressions"]).prefix(3).map {
            "\($0["configuration"] ?? "") \($0["figure"] ?? "") \(shown($0, "change"))"
        }
        let count = objects(work["regressions"]).count
        let verdict =
            count > 0
            ? "\(count) regression\(count == 1 ? "" : "s")"
            : status(work) != 0 ? "exited \(status(work))" : "no regression"
        return "\(work["configurations"] ?? 0) configurations | \(verdict) | "
            + (moved.isEmpty ? "—" : moved.joined(separator: "; ") + (count > 3 ? "; …" : ""))
    }

    private static func timeRow(_ time: [String: Any]?) -> String {
        guard let time else { return "— | the A/B did not run | — | —" }
        let all = objects(time["configurations"])
        let names = Set(all.compactMap { $0["name"] as? String })
        let slower = objects(time["regressions"])
        let slowed = Set(slower.compactMap { $0["name"] as? String }).count
        let seen = all.compactMap { $0["seen_9_in_10"] as? Double }.sorted()
        let blind =
            seen.isEmpty
            ? "any slowdown (too few pairs)"
            : String(
                format: "a slowdown under %.1f %% … %.1f %% (the smallest each would flag 9 times in 10)",
                seen[0] * 100, seen.last! * 100)
        // Which configurations were timed, named: the timed suite is a few of them, and a reader
        // must not take "no slowdown" for every strategy's (the work part counts them all).
        let timed = names.sorted()
        let listed = timed.prefix(6).joined(separator: ", ") + (timed.count > 6 ? ", … \(timed.count - 6) more" : "")
        return "\(names.count) configurations × \(time["rounds"] ?? 0) rounds (only these are timed: \(listed)) | "
            + (!slower.isEmpty
                ? "\(slowed) slowdown\(slowed == 1 ? "" : "s")"
                : status(time) != 0
                    ? "exited \(status(time))"
                    : "no slowdown") + " | "
            + (slower.isEmpty
                ? "—"
                : slower.map { "\($0["name"] ?? "") \($0["measure"] ?? "") \(percent($0["change"]))" }.joined(
                    separator: "; "))
            + " | " + blind + "; the time of every configuration not listed"
    }

    private static func workRegressions(_ work: [String: Any]?) -> [(title: String, detail: String)] {
        objects(work?["regressions"]).map { f in
            (
                titlePrefix + "work · \(f["configuration"] ?? "")",
                "\(f["figure"] ?? "") \(shown(f, "baseline")) → \(shown(f, "now")) (\(shown(f, "change"))): \(f["verdict"] ?? "")"
            )
        }
    }

    /// One regression per configuration: a change that slows its CPU work slows its wall time
    /// too, and both measures flagged are one cause, said with both (the issue-58 probe counted
    /// a CPU-only slowdown twice).
    private static func timeRegressions(_ time: [String: Any]?) -> [(title: String, detail: String)] {
        let slower = objects(time?["regressions"])
        return slower.map { ($0["name"] as? String) ?? "" }.uniqued().map { name in
            let measures = slower.filter { ($0["name"] as? String) == name }
            return (
                titlePrefix + "time · \(name)",
                measures.map { j in
                    "\(j["measure"] ?? "") \(percent(j["change"])) over \(j["pairs"] ?? 0) pairs (p = \(pValue(j["p_slower"])))"
                }.joined(separator: "; ")
            )
        }
    }

    /// How an annotation's title begins; the comment lists the rest.
    private static let titlePrefix = "loadgen gate · "

    private static func percent(_ value: Any?) -> String {
        String(format: "%+.1f %%", ((value as? Double) ?? 0) * 100)
    }

    private static func objects(_ value: Any?) -> [[String: Any]] { value as? [[String: Any]] ?? [] }
    private static func strings(_ value: Any?) -> [String] { value as? [String] ?? [] }

    /// A workflow command's text: `%`, CR and LF escaped, and in a property `:` and `,` too.
    static func escaped(_ text: String, property: Bool) -> String {
        var out = text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
        if property { out = out.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C") }
        return out
    }
}
