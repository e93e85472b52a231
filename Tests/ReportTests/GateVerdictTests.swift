import Foundation
import Testing

@testable import Report

/// What a pull request is shown of the gate: never "no regression" for a part that failed, and
/// never more than GitHub takes (issue 55, items 18 and 23).
@Suite struct GateVerdictTests {
    func work(status: Int, regressions: Int, notJudged: [String] = []) -> [String: Any] {
        [
            "_loadgen": "compare", "status": status, "configurations": 40, "not_judged": notJudged,
            "regressions": (0..<regressions).map { i -> [String: Any] in
                [
                    "configuration": "batch rows=\(i) with a long name to fill the comment faster",
                    "figure": "sql_statements",
                    "baseline": 1000, "now": 1100 + i, "change": "+10.0 %", "verdict": "exact figure moved",
                ]
            },
        ]
    }

    let time: [String: Any] = [
        "_loadgen": "ab", "status": 0, "rounds": 12, "configurations": [], "regressions": [], "not_judged": [],
    ]

    /// 18. A work part that exited 1 with no regression listed (a configuration of the baseline
    /// not measured again) did not pass: the comment and an annotation say so.
    @Test func aPartThatFailedIsNeverNoRegression() {
        let failed = work(status: 1, regressions: 0, notJudged: ["only in the baseline: prefetch rows=1000"])
        let comment = GateVerdict.comment(work: failed, time: time, link: nil)
        #expect(
            comment.contains(
                "## loadgen gate: did not pass (compare exited 1: only in the baseline: prefetch rows=1000)"),
            "\(comment)")
        #expect(!comment.contains("| no regression |"), "\(comment)")
        let annotations = GateVerdict.annotations(work: failed, time: time)
        #expect(annotations.hasPrefix("::error title=loadgen gate · work::compare exited 1"), "\(annotations)")
        var unjudged = time
        unjudged["status"] = 2
        #expect(
            GateVerdict.comment(work: work(status: 0, regressions: 0), time: unjudged, link: nil).contains(
                "did not pass (ab exited 2)"))
    }

    /// 23. 672 regressions made a 101 k comment GitHub refuses, and hundreds of annotations it
    /// drops unsaid: both are capped and say how many they leave to the full report.
    @Test func theCommentAndTheAnnotationsFitGitHubsLimits() {
        let many = work(status: 1, regressions: 672)
        let comment = GateVerdict.comment(work: many, time: time, link: "https://example.invalid/runs/1")
        #expect(comment.utf8.count <= GateVerdict.commentLimit, "\(comment.utf8.count) bytes")
        #expect(comment.contains("## loadgen gate: 672 regressions"))
        let left = comment.split(separator: "\n").first { $0.hasPrefix("- … and ") }
        #expect(
            left?.hasSuffix("more regressions, in [the full report](https://example.invalid/runs/1)") == true,
            "\(left ?? "")")
        let annotations = GateVerdict.annotations(work: many, time: time).split(separator: "\n")
        #expect(annotations.count == GateVerdict.annotationLimit)
        #expect(annotations.last?.contains("663 more regressions, not annotated") == true, "\(annotations.last ?? "")")
        // A short list is whole, with no line about more.
        #expect(!GateVerdict.comment(work: work(status: 1, regressions: 3), time: time, link: nil).contains("- … and"))
    }

    /// Issue 58, item 1: one configuration slower in wall and in CPU time is one slowdown, said
    /// with both measures, its p-values as p-values; the comment names what was timed.
    @Test func aSlowdownSeenByBothMeasuresIsOne() {
        let judged: [[String: Any]] = [
            [
                "name": "context-reset", "measure": "time", "pairs": 40, "change": 0.081, "p_slower": 0.000012345678,
                "verdict": "slower",
                "seen_9_in_10": 0.045,
            ],
            [
                "name": "context-reset", "measure": "CPU time", "pairs": 40, "change": 0.05, "p_slower": 0.00123456789,
                "verdict": "slower",
                "seen_9_in_10": 0.03,
            ],
            [
                "name": "batch", "measure": "time", "pairs": 40, "change": 0.001, "p_slower": 0.4,
                "verdict": "unchanged", "seen_9_in_10": 0.05,
            ],
        ]
        let slow: [String: Any] = [
            "_loadgen": "ab", "status": 1, "rounds": 40, "configurations": judged,
            "regressions": judged.filter { $0["verdict"] as? String == "slower" }, "not_judged": [],
        ]
        let comment = GateVerdict.comment(work: work(status: 0, regressions: 0), time: slow, link: nil)
        #expect(comment.contains("## loadgen gate: 1 regression\n"), "\(comment)")
        #expect(
            comment.contains("| 1 slowdown |") && comment.contains("only these are timed: batch, context-reset"),
            "\(comment)")
        #expect(
            comment.contains("time +8.1 % over 40 pairs (p = < 0.0001); CPU time +5.0 % over 40 pairs (p = 0.00123)"),
            "\(comment)")
        #expect(
            GateVerdict.annotations(work: nil, time: slow).split(separator: "\n").filter {
                $0.contains("time · context-reset")
            }.count == 1)
    }
}
