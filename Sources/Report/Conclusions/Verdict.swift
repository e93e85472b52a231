/// Why a configuration cannot be recommended, one phrase per reason, and what to do about it.
///
/// Three kinds of reason, each enough: a repetition failed (a broken promise of its own: lost
/// rows, a failed check, a crash); the idiom is the bug it demonstrates; or its stores fall short
/// of what the workload needs (duplicated keys where keys repeat, records without their parent, a
/// screen that misses rows). Such a configuration is measured and shown, ranked apart, and never
/// recommended.
package struct Verdict: Sendable, Equatable {
    package let reasons: [String]
    package let fix: String?
    /// What the workload needs of the store.
    package let needs: Set<Requirement>
    /// The needs its stores fell short of.
    package let missing: [Requirement]
    /// Repetitions that were not ok.
    package let failed: Int
    /// True for an idiom that demonstrates a bug.
    package let isBug: Bool

    package var isOK: Bool { reasons.isEmpty }

    /// The outcome in one word, for the summary CSV's `outcome` column: ok, failed, bug, or
    /// short of what (`short:unique+links`).
    package var outcome: String {
        if failed > 0 { return "failed" }
        if isBug { return "bug" }
        if !missing.isEmpty { return "short:" + missing.map(\.rawValue).joined(separator: "+") }
        return "ok"
    }

    static func of(_ c: RunSummary.Configuration, options: ConclusionOptions) -> Verdict {
        var reasons: [String] = []
        var fixes: [String] = []
        let failed = c.rows.filter { $0.measurement.status != .ok }
        if !failed.isEmpty {
            let first = failed[0].measurement.error.map { ": \($0)" } ?? ""
            reasons.append(
                "\(failed.count) of \(c.rows.count) repetitions \(failed[0].measurement.status.rawValue)\(first)")
        }
        let bug = options.bugs[c.strategy]
        if let bug {
            reasons.append("the bug it demonstrates (\(bug.bug)): measured to show it, never recommended")
            fixes.append(bug.fix)
        }
        let needs = options.needs(of: c)
        let declared = needs.intersection(options.neverDelivers[c.strategy] ?? [])
        let missing = Set((c.outcome?.shortfalls(of: needs) ?? []) + declared).sorted()
        for requirement in missing {
            // A declared shortfall is said the same with or without a verified store.
            reasons.append((c.outcome ?? .unverified).shortfall(requirement))
            if let fix = options.fixes[c.strategy]?[requirement], !fixes.contains(fix) { fixes.append(fix) }
        }
        return Verdict(
            reasons: reasons, fix: fixes.isEmpty ? nil : fixes.joined(separator: "; "), needs: needs,
            missing: missing, failed: failed.count, isBug: bug != nil)
    }
}
