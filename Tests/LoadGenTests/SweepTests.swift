import Foundation
import Testing

/// `run` as a sweep tool (issue 9): expansion, rounds, limits, statistics outputs, bad lists.
/// Orders are checked from the recorded plan (`--dry-run`) and the rows, never from a clock.
@Suite(.serialized) struct SweepTests {
    func plan(_ arguments: [String]) async throws -> [String] {
        let r = try await CLI.run(["run"] + arguments + ["--dry-run"])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    /// A pragma parameter sweeps like any other, its column holding the value as given (negative
    /// too), and a bad value is refused naming the flag and what it takes.
    @Test func aPragmaSweepsAndItsColumnKeepsNegativeValues() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            [
                "run", "--strategy", "batch", "--rows", "300", "--cache-size", "-4000,100", "--no-limit",
                "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(
            rows.map { $0["cache_size"] ?? "" } == ["-4000", "100"] && rows.allSatisfy { $0["status"] == "ok" },
            "\(rows)")
        let bad = try await CLI.run(
            ["run", "--strategy", "batch", "--cache-size", "big", "--out", dir + "/bad.csv"], tmpdir: dir)
        #expect(
            bad.status == 64 && bad.stderr.contains("--cache-size") && bad.stderr.contains("a whole number"),
            "\(bad.stderr)")
    }

    @Test func theSweepIsTheCartesianProductWithLimitsFirst() async throws {
        let lines = try await plan([
            "--strategy", "batch,context-reset", "--rows", "10k,100k", "--batch-size", "100,1000",
            "--repeat", "5",
        ])
        // Each limit runs three times a round (its median is the round's): 2 × 2 × 5 more children.
        #expect(lines[0] == "10 configurations × 5 repetitions = 70 child processes (each limit runs 3 times a round)")
        #expect(
            Array(lines[1...10]) == [
                "  configuration 1: raw-sqlite  [rows=10000]  (limit, added: median of 3 runs a round)",
                "  configuration 2: raw-sqlite  [rows=100000]  (limit, added: median of 3 runs a round)",
                "  configuration 3: batch  [rows=10000 batch_size=100]",
                "  configuration 4: batch  [rows=10000 batch_size=1000]",
                "  configuration 5: batch  [rows=100000 batch_size=100]",
                "  configuration 6: batch  [rows=100000 batch_size=1000]",
                "  configuration 7: context-reset  [rows=10000 batch_size=100]",
                "  configuration 8: context-reset  [rows=10000 batch_size=1000]",
                "  configuration 9: context-reset  [rows=100000 batch_size=100]",
                "  configuration 10: context-reset  [rows=100000 batch_size=1000]",
            ])
        #expect(lines[11] == "order: rounds 1…5, each running configurations 1…10")
    }

    /// A parameter a strategy does not use does not multiply it, and the summary says so.
    @Test func unusedFlagsDoNotMultiplyAStrategy() async throws {
        let lines = try await plan([
            "--strategy", "batch,many-writers,one-writer", "--writers", "1,4",
            "--coordinators", "shared,per-writer", "--no-limit",
        ])
        let configurations = lines.filter { $0.hasPrefix("  configuration") }
        #expect(configurations.filter { $0.contains(": batch") }.count == 1)
        #expect(configurations.filter { $0.contains(": many-writers") }.count == 4)
        #expect(configurations.filter { $0.contains(": one-writer") }.count == 2)
        #expect(!configurations.contains { $0.contains("raw-sqlite") })
        #expect(lines.contains("note: --writers 1,4 is not used by batch: they ran once for all its values"))
        #expect(
            lines.contains(
                "note: --coordinators shared,per-writer is not used by batch, one-writer: they ran once for all its values"
            ))
        // The limit ignores --batch-size: one raw-sqlite, however many batch sizes.
        let limits = try await plan(["--strategy", "raw-sqlite,prefetch", "--batch-size", "100,1000,10000"])
        #expect(
            limits.filter { $0.hasPrefix("  configuration") && $0.contains(": raw-sqlite") }
                == ["  configuration 1: raw-sqlite  (limit: median of 3 runs a round)"])
        #expect(
            limits.contains(
                "note: --batch-size 100,1000,10000 is not used by raw-sqlite: they ran once for all its values"))
    }

    /// Repetitions run in rounds (every configuration once per round, limits first), and each
    /// row's vs_limit divides by the limit of its own round. The limit commits once, whatever
    /// --batch-size says.
    @Test func roundsPairEachRowWithItsRoundsLimit() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/sweep.csv"
        let r = try await CLI.run(
            [
                "run", "--strategy", "prefetch,raw-sqlite", "--rows", "600", "--batch-size", "100,300",
                "--repeat", "2", "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(
            rows.map { "\($0["strategy"]!) \($0["batch_size"]!) \($0["repeat"]!)" } == [
                "raw-sqlite  1", "prefetch 100 1", "prefetch 300 1", "raw-sqlite  2", "prefetch 100 2",
                "prefetch 300 2",
            ])
        #expect(
            rows.map { $0["config"] } == [
                "", "batch_size=100", "batch_size=300", "", "batch_size=100", "batch_size=300",
            ])
        for round in [0, 3] {
            let limit = Double(rows[round]["rows_per_s"]!)!
            #expect(rows[round]["vs_limit"] == "1.0000" && rows[round]["transactions"] == "2")
            for row in rows[(round + 1)...(round + 2)] {
                #expect(abs(Double(row["vs_limit"]!)! - Double(row["rows_per_s"]!)! / limit) < 0.0001)
            }
        }
        #expect(rows[1]["transactions"] != rows[2]["transactions"])   // prefetch follows --batch-size
        // The limit ran three times a round and one of them is its row: the round's first
        // strategy is the fourth child of the round.
        let sequence = rows.map { Int($0["run_id"]!.split(separator: "-").last!)! }
        #expect((1...3).contains(sequence[0]) && sequence[1] == 4 && sequence[2] == 5)
        #expect((6...8).contains(sequence[3]) && sequence[4] == 9 && sequence[5] == 10)
    }

    @Test func jsonMarkdownAndSummaryCSVCarryTheStatistics() async throws {
        let dir = CLI.makeFolder()
        let markdown = dir + "/review.md"
        let summary = dir + "/summary.csv"
        let r = try await CLI.run(
            [
                "run", "--strategy", "batch,context-reset", "--rows", "500", "--batch-size", "100,250",
                "--repeat", "5", "--json", "--markdown", markdown, "--summary-csv", summary,
                "--progress", "none", "--min-difference", "0",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let repetitions = try #require(json["repetitions"] as? [[String: Any]])
        let configurations = try #require(json["summary"] as? [[String: Any]])
        #expect(repetitions.count == 5 * 5 && configurations.count == 5)
        let first = repetitions[0]
        #expect(
            first["rows"] as? Int == 500 && first["rows_per_s"] is Double
                && first["strategy"] as? String == "raw-sqlite")
        #expect(first["batch_size"] is NSNull && first["error"] is NSNull && first["git_rev"] as? String == "test")
        let batch = try #require(
            configurations.first { $0["strategy"] as? String == "batch" && $0["batch_size"] as? Int == 100 })
        #expect(batch["repetitions"] as? Int == 5 && batch["rows_per_s_median"] is Double)
        #expect((batch["rows_per_s_ci_low"] as? Double ?? .infinity) <= (batch["rows_per_s_median"] as? Double ?? 0))
        #expect(batch["lost"] as? Int == 0 && batch["status"] as? String == "ok" && batch["rank"] is Int)

        let table = try String(contentsOfFile: markdown, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(table[0] == "## loadgen run summary")
        #expect(table[1].hasPrefix("| strategy | batch_size | median rows/s | 95% CI | ± MAD | vs_limit | peak RSS |"))
        #expect(table.filter { $0.hasPrefix("| batch |") || $0.hasPrefix("| context-reset |") }.count == 4)
        // Told apart or not (that is the machine's), the lead says its interval.
        #expect(
            table.contains {
                $0.hasPrefix("- batch_size=100: ")
                    && ($0.contains("× faster than") || $0.contains("are not told apart"))
                    && $0.contains("95% CI")
            }, "\(table)")

        let rows = try CLI.rows(summary)
        #expect(rows.count == 5)
        #expect(rows.allSatisfy { Int($0["repetitions"]!) == 5 && !$0["rows_per_s_ci_high"]!.isEmpty })
        #expect(Set(rows.map { $0["config"]! }) == ["", "batch_size=100", "batch_size=250"])
        #expect(rows.filter { $0["rank"] == "1" }.count == 2)   // one winner per batch size; the limit is not ranked
    }

    @Test func outDashWritesTheCSVToStdoutAndTheSummaryToStderr() async throws {
        let dir = CLI.makeFolder()
        let r = try await CLI.run(
            ["run", "--strategy", "batch", "--rows", "300", "--out", "-", "--progress", "none"],
            tmpdir: dir, cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let records = try CLI.parseCSV(r.stdout)
        #expect(records.count == 3 && records[0][0] == "run_id" && records.allSatisfy { $0.count == records[0].count })
        #expect(r.stderr.contains("Rate:") && !r.stdout.contains("Rate:"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/-"))
    }

    static let badLists: [([String], String)] = [
        (["--rows", "10k,1x"], "--rows: '1x' in '10k,1x' is not accepted; expects a whole number"),
        (["--rows", "10k,,1M"], "--rows: '' in '10k,,1M'"),
        (["--batch-size", "100,100"], "--batch-size lists the same value twice ('100' and '100')"),
        (["--rows", "10k,10000"], "--rows lists the same value twice ('10k' and '10000')"),
        (["--strategy", "batch,nope"], "--strategy: 'nope' in 'batch,nope'"),
        (["--dup-rate", "0,1"], "--dup-rate: '1' in '0,1'"),
        (["--coordinators", "shared,both"], "expects one of shared|per-writer"),
        (
            [
                "--rows", (1...101).map(String.init).joined(separator: ","), "--batch-size",
                (1...100).map(String.init).joined(separator: ","),
            ],
            "the sweep has 10100 configurations (--rows 101 × --batch-size 100); at most 10000"
        ),
        (["--markdown", "-", "--json"], "--markdown - and --json both write to stdout"),
        (["--json", "--out", "-"], "--out - and --json both write to stdout"),
    ]

    @Test(arguments: badLists)
    func badListsNameTheElementAndCreateNothing(arguments: [String], mentions: String) async throws {
        let dir = CLI.makeFolder()
        let r = try await CLI.run(["run"] + arguments + ["--summary-csv", dir + "/s.csv"], tmpdir: dir)
        #expect(r.status == 64, "\(arguments.prefix(4)): \(r.stderr)")
        #expect(r.stderr.contains(mentions), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    /// Ctrl-C in the middle of a sweep: what finished is summarised before exit 130.
    @Test func anInterruptedSweepSummarisesWhatFinished() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/sweep.csv"
        let (p, _, stderr) = CLI.process(
            [
                "run", "--strategy", "raw-sqlite", "--rows", "2000,50000000", "--out", out,
                "--progress", "none",
            ], tmpdir: dir)
        try p.run()
        // The first configuration is recorded and the second one's child runs: interrupt it.
        #expect(
            await CLI.waitUntil {
                ((try? CLI.rows(out)) ?? []).count == 1 && !CLI.children(of: p.processIdentifier).isEmpty
            })
        p.interrupt()
        let errors = String(decoding: await CLI.readToEnd(stderr), as: UTF8.self)
        await CLI.exit(of: p)
        #expect(p.terminationStatus == 130)
        #expect(errors.contains("Finished before the interrupt") && errors.contains("[rows=2000]"))
    }
}

/// `--operation` on the command line (issue 13): strategies follow their operation, and flags
/// that mean nothing for an operation on a filled store are refused, naming the flag.
@Suite struct OperationCommandTests {
    static let bad: [([String], String)] = [
        (["--operation", "read", "--dup-rate", "0.3"], "--dup-rate means nothing for --operation read"),
        (["--operation", "update", "--fraction", "0"], "--fraction: '0' is not accepted"),
        (["--operation", "update", "--fraction", "1.5"], "--fraction: '1.5' is not accepted"),
        (["--fraction", "0.2"], "--fraction applies only with --operation update or delete"),
        (["--strategy", "batch-update"], "batch-update is an update strategy; run it with --operation update"),
        (
            ["--operation", "delete", "--strategy", "batch"],
            "batch is an import strategy; run it with --operation import"
        ),
        (
            ["--operation", "update", "--dataset", "photos"],
            "Photo has no date or number attribute (besides its key) to select the targets by"
        ),
        (
            ["--operation", "rewrite"],
            "--operation: 'rewrite' is not accepted; expects one of import|update|delete|read"
        ),
    ]

    @Test(arguments: bad)
    func badCombinationsExit64NamingTheFlag(arguments: [String], mentions: String) async throws {
        let dir = CLI.makeFolder()
        let r = try await CLI.run(["run"] + arguments + ["--out", dir + "/runs.csv"], tmpdir: dir)
        #expect(r.status == 64, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains(mentions), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func anOperationRunsItsStrategiesOnAFilledStoreAndChecksIt() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/ops.csv"
        let r = try await CLI.run(
            ["run", "--operation", "update,delete", "--rows", "2000", "--fraction", "0.3", "--out", out, "--quiet"],
            tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(
            rows.map { $0["strategy"]! } == [
                "batch-update", "fetch-update", "update-by-id", "batch-delete", "fetch-delete",
            ])
        for row in rows {
            #expect(
                row["status"] == "ok" && row["targets"] == "600" && !(row["prefill_s"] ?? "").isEmpty,
                "\(row["strategy"]!)")
            #expect(row["vs_limit"] == "" && row["fraction"] == "0.3000")
        }
        #expect(rows.filter { $0["operation"] == "delete" }.allSatisfy { $0["store_rows"] == "1400" })
        let reads = try await CLI.run(["run", "--operation", "read", "--rows", "2000", "--dry-run"])
        #expect(
            reads.stdout.contains("read-faulting") && reads.stdout.contains("count")
                && !reads.stdout.contains("raw-sqlite"))
    }
}
