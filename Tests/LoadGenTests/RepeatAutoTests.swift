import Foundation
import Testing

/// `--repeat auto`, the default (issue 56, items 1 and 2): rounds until the order is clear, a
/// configuration told apart as behind the leader leaving the race with its rows kept, and the
/// run saying why it stopped.
@Suite(.serialized) struct RepeatAutoTests {
    /// A per-row fetch is several times slower than a batch insert: it leaves the race as soon
    /// as the rounds show it (three at the fewest), and the run stops with the order clear. The
    /// budget is generous: a loaded machine takes more rounds, never another answer. No cap: the
    /// lead is judged from whole repetitions (the next test caps).
    @Test func aClearlySlowerIdiomLeavesTheRaceAndTheRunStops() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/auto.csv"
        let r = try await CLI.run(
            [
                "run", "--strategy", "batch,find-or-create-per-row", "--rows", "3000", "--no-limit",
                "--repeat", "auto", "--budget", "10m", "--cap", "none", "--out", out,
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        let slow = rows.filter { $0["strategy"] == "find-or-create-per-row" }
        #expect(
            slow.count >= 3 && rows.allSatisfy { $0["repeats"] == "0" },
            "\(rows.map { ($0["strategy"] ?? "", $0["repeat"] ?? "") })")
        #expect(
            slow.last?["stop"]?.hasPrefix("left after round \(slow.count): batch is ") == true, "\(slow.last ?? [:])")
        #expect(
            rows.last?["stop"]?.hasPrefix("order clear after ") == true || slow.last == rows.last, "\(rows.last ?? [:])"
        )
        #expect(rows.filter { $0["strategy"] == "batch" }.last?["stop"]?.hasPrefix("order clear after ") == true)
        #expect(r.stdout.contains("repetitions (--repeat auto): order clear after"), "\(r.stdout)")
        #expect(r.stdout.contains("use batch:") && r.stdout.contains("sequential 95% CI"), "\(r.stdout)")
    }

    /// `--dry-run` plays the race with each configuration's calibrated cost (issue 56, item 4): an
    /// idiom that saves every record on its own under synchronous FULL (an fsync a record, about
    /// 14× a batch insert's repetition here; the cap is 1.5×, so no load on the machine brings
    /// them within it) is stopped at the cap, its minutes not in the estimate; each
    /// configuration's repetition is named, and a limit runs once a round under auto.
    @Test func theEstimatePlaysTheRace() async throws {
        let r = try await CLI.run([
            "run", "--strategy", "batch,context-save-per-row", "--synchronous", "full", "--rows", "20000",
            "--repeat", "auto", "--cap", "1.5", "--dry-run",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("one repetition here: raw-sqlite ") && r.stdout.contains(", batch "), "\(r.stdout)")
        // The race played with the calibrated seconds the page prints: batch runs first (capped
        // only by the 60 s budget), then the per-record save, capped at 1.5× batch's repetition;
        // from round 2 each is held to 1.5× the fastest repetition so far. Here the per-record save
        // is the one stopped, unless an fsync stall under other tests' load made batch's
        // calibration the slower one (then batch is, in round 2); the rule is checked, not the
        // machine's speed.
        let seconds = Self.repetitionSeconds(r.stdout)
        let batch = try #require(seconds["batch"])
        let perRecord = try #require(seconds["context-save-per-row"])
        let cap = max(1, 1.5 * min(batch, perRecord, 60))
        var capped: [String] = []
        if batch > 60 || batch > cap { capped.append("batch") }
        if perRecord > cap { capped.append("context-save-per-row") }
        if capped.isEmpty {
            #expect(!r.stdout.contains("stopped at the cap"), "\(r.stdout)")
        } else {
            #expect(r.stdout.contains("stopped at the cap: \(capped.joined(separator: ", "))"), "\(r.stdout)")
        }
        #expect(r.stdout.contains("(limit, added: once a round)") && !r.stdout.contains("times a round"), "\(r.stdout)")
        let fixed = try await CLI.run(["run", "--strategy", "batch", "--rows", "2000", "--repeat", "2", "--dry-run"])
        #expect(
            fixed.stdout.contains("(each limit runs 3 times a round)") && !fixed.stdout.contains("--repeat auto:"),
            "\(fixed.stdout)")
    }

    /// `--budget` goes with auto only, and reads durations.
    @Test func theBudgetIsADurationOfAutoRepetitions() async throws {
        let fixed = try await CLI.run(["run", "--repeat", "3", "--budget", "30s", "--rows", "10"])
        #expect(fixed.status == 64 && fixed.stderr.contains("--budget applies with --repeat auto"), "\(fixed.stderr)")
        let bad = try await CLI.run(["run", "--repeat", "auto", "--budget", "soon", "--rows", "10"])
        #expect(bad.status == 64 && bad.stderr.contains("--budget expects a duration from 1s to 24h"), "\(bad.stderr)")
        let plan = try await CLI.run([
            "run", "--strategy", "batch,context-reset", "--rows", "10", "--repeat", "auto", "--budget", "2m",
            "--dry-run", "--no-estimate",
        ])
        #expect(
            plan.status == 0
                && plan.stdout.contains(
                    "at least 3 repetitions (--repeat auto: until the order is clear, a tie or 2 min"),
            "\(plan.stdout)")
    }

    /// Item 2's capping: saving each record in its own transaction is many times slower than a
    /// batch insert. With `--cap 2` its repetition is stopped at twice the batch's slowest, recorded
    /// as capped with no rate, and it leaves the race after that one round (the page says why).
    @Test func aRepetitionFarSlowerThanTheLeadersIsCapped() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/capped.csv"
        let r = try await CLI.run(
            [
                "run", "--strategy", "batch,context-save-per-row", "--rows", "4000", "--no-limit",
                "--synchronous", "full", "--repeat", "auto", "--cap", "2", "--budget", "10m", "--out", out,
            ], tmpdir: dir)
        #expect(r.status == 0, "a capped repetition is censored, not a failure of the run: \(r.stderr)")
        let rows = try CLI.rows(out)
        let capped = rows.filter { $0["strategy"] == "context-save-per-row" }
        #expect(
            capped.count == 1 && capped[0]["status"] == "failed" && capped[0]["rows_per_s"] == "",
            "\(capped) \(r.stderr)")
        #expect(
            capped.first?["error"]?.contains("capped: stopped after") == true
                && capped.first?["error"]?.contains("--cap 2: 2× the fastest configuration's slowest repetition")
                    == true,
            "\(capped)")
        #expect(capped.first?["stop"]?.hasPrefix("left after round 1: excluded") == true, "\(capped)")
        #expect(rows.filter { $0["strategy"] == "batch" }.count >= 3)
    }

    /// A budget smaller than three rounds still gets three: every configuration has the
    /// repetitions an interval needs (the 150k question stopped after one round, "no order").
    @Test func theBudgetNeverStopsBeforeThreeRounds() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/short.csv"
        let r = try await CLI.run(
            [
                "run", "--strategy", "batch,context-reset", "--rows", "2000", "--no-limit", "--repeat", "auto",
                "--budget", "1s", "--cap", "none", "--out", out,
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(
            rows.filter { $0["strategy"] == "context-reset" }.count >= 3
                && rows.filter { $0["strategy"] == "batch" }.count >= 3,
            "\(rows.map { ($0["strategy"] ?? "", $0["repeat"] ?? "") })")
    }

    /// A configuration that looks records up by a key the store has no index on (each lookup
    /// scans the table) runs after the others in every auto round, whatever its place in
    /// `--strategy`: first, nothing would have finished a repetition to cap it against, and the
    /// cap would be the whole budget.
    @Test func aConfigurationThatScansRunsLastInEachRound() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/scans.csv"
        let r = try await CLI.run(
            [
                "run", "--model", UsableAnywhereTests.woo, "--entity", "Product", "--key", "productID",
                "--relationship", "none",
                "--strategy", "find-or-create-per-row,batch-upsert", "--add-constraint", "none,productID",
                "--rows", "300", "--no-limit", "--repeat", "auto", "--budget", "5s", "--out", out,
            ], tmpdir: dir)
        #expect(r.status == 0 && r.stderr.contains("has no index in Model 117"), "\(r.stderr)")
        let rows = try CLI.rows(out)
        let rounds = Dictionary(grouping: rows) { $0["repeat"] ?? "" }
        #expect(rounds.count >= 3, "\(rows.count) rows")
        let scanning = "find-or-create-per-row "
        #expect(rounds["1"]?.contains { "\($0["strategy"] ?? "") \($0["add_constraint"] ?? "")" == scanning } == true)
        // Once told apart it leaves the race; in every round it runs, it runs last.
        for (round, its) in rounds {
            let order = its.map { "\($0["strategy"] ?? "") \($0["add_constraint"] ?? "")" }
            #expect(!order.contains(scanning) || order.last == scanning, "round \(round): \(order)")
        }
    }

    /// "one repetition here: raw-sqlite 1.29 s, batch 4.36 s, …" as seconds by strategy.
    static func repetitionSeconds(_ page: String) -> [String: Double] {
        guard let line = page.split(separator: "\n").first(where: { $0.contains("one repetition here: ") }) else {
            return [:]
        }
        var out: [String: Double] = [:]
        let list = line.components(separatedBy: "one repetition here: ")[1].components(separatedBy: ";")[0]
        for part in list.components(separatedBy: ", ") {
            // Format.duration: "85.2 ms", "1.42 s", "3 min 5 s", "4 h 47 min".
            let words = part.split(separator: " ").map(String.init)
            guard words.count >= 3, let value = Double(words[1]) else { continue }
            switch words[2] {
            case "ms": out[words[0]] = value / 1000
            case "min": out[words[0]] = value * 60 + (words.count > 3 ? Double(words[3]) ?? 0 : 0)
            case "h": out[words[0]] = value * 3600 + (words.count > 3 ? (Double(words[3]) ?? 0) * 60 : 0)
            default: out[words[0]] = value
            }
        }
        return out
    }
}
