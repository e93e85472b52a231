import Foundation
import Testing

/// `loadgen run` end to end: real child processes, real stores, real CSV.
@Suite(.serialized) struct RunCommandTests {
    @Test func historyIsRecordedWhenAskedAndSaysWhereItCannotBe() throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try CLI.run(["run", "--strategy", "raw-sqlite,context-reset,history-consumer", "--rows", "1000", "--history",
                             "--out", out, "--progress", "none"], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("--history is not used by raw-sqlite"))
        let rows = try CLI.rows(out)
        // raw-sqlite asked for with --history is the limit itself, not a second configuration.
        #expect(rows.filter { $0["strategy"] == "raw-sqlite" }.count == 1)
        let limit = rows.first { $0["strategy"] == "raw-sqlite" }
        #expect(limit?["history"] == "" && limit?["history_changes"] == "")
        for row in rows where row["strategy"] != "raw-sqlite" {
            #expect(row["status"] == "ok" && row["history"] == "yes", "\(row["strategy"] ?? "") \(row["error"] ?? "")")
            #expect(Int(row["history_changes"] ?? "") ?? 0 > 0)
        }
        let consumer = rows.first { $0["strategy"] == "history-consumer" }
        #expect(consumer?["view_missing"] == "0" && consumer?["auto_merge_missed"] == "1000")
        // The lag is measured (a time: its value is the benchmark's, not the test's); it is there.
        let lag = consumer?["history_lag_p99_ms"] ?? ""
        #expect(Double(lag) != nil, "lag '\(lag)'")
    }

    @Test func appendsARowWithEveryColumn() throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try CLI.run(["run", "--strategy", "raw-sqlite", "--rows", "2000", "--out", out, "--progress", "none"], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let records = try CLI.parseCSV(String(contentsOfFile: out, encoding: .utf8))
        #expect(records.count == 2)
        #expect(records.allSatisfy { $0.count == records[0].count })
        let row = try CLI.rows(out)[0]
        #expect(row["strategy"] == "raw-sqlite")
        #expect(row["rows"] == "2000" && row["unique_keys"] == "2000")
        #expect(row["status"] == "ok")
        #expect(row["store_rows"] == "2000" && row["duplicates"] == "0" && row["lost"] == "0")
        #expect(row["integrity"] == "ok" && row["bad_links"] == "0")
        #expect(row["vs_limit"] == "1.0000")
        #expect(row["git_rev"] == "test" && row["store"] == "file" && row["journal"] == "wal")
        #expect(row["allocator"]?.hasPrefix("jemalloc") == true)
        for column in ["wall_s", "cpu_user_s", "rows_per_s", "peak_rss_bytes", "end_rss_bytes", "peak_heap_bytes",
                       "sql_statements", "store_bytes", "started_at", "run_id", "cpu_model", "sqlite_version"] {
            #expect(!(row[column] ?? "").isEmpty, "\(column) is blank")
        }
        #expect(Int(row["sql_statements"]!)! > 2000)
        #expect(Int(row["peak_rss_bytes"]!)! > 1_000_000)
        #expect(r.stdout.contains("raw-sqlite") && r.stdout.contains("integrity ok"))
    }

    @Test func reportsDuplicatesExactly() throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try CLI.run(["run", "--strategy", "raw-sqlite", "--rows", "5000", "--dup-rate", "0.1", "--repeat", "2",
                             "--out", out, "--quiet"], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(rows.count == 2)
        for row in rows {
            #expect(row["duplicates"] == "500" && row["lost"] == "0" && row["store_rows"] == "5000")
            #expect(row["unique_keys"] == "4500" && row["repeats"] == "2")
        }
        #expect(rows.map { $0["repeat"] } == ["1", "2"])
        #expect(r.stdout.isEmpty)
    }

    /// Repetitions run in rounds, raw-sqlite first whatever the order given, and each row's
    /// vs_limit divides by the raw-sqlite repetition of its own round.
    @Test func repetitionsRunInRoundsAndPairWithTheirRoundsLimit() throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try CLI.run(["run", "--strategy", "prefetch,raw-sqlite", "--rows", "2000", "--repeat", "3",
                             "--out", out, "--quiet"], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(rows.map { "\($0["strategy"]!) \($0["repeat"]!)" }
                == ["raw-sqlite 1", "prefetch 1", "raw-sqlite 2", "prefetch 2", "raw-sqlite 3", "prefetch 3"])
        for round in stride(from: 0, to: rows.count, by: 2) {
            let raw = Double(rows[round]["rows_per_s"]!)!, other = Double(rows[round + 1]["rows_per_s"]!)!
            #expect(rows[round]["vs_limit"] == "1.0000")
            #expect(abs(Double(rows[round + 1]["vs_limit"]!)! - other / raw) < 0.0001)
        }
    }

    /// The whole catalogue as users run it: through the binary, where the queue checker is off
    /// and the engine takes its fast paths (the in-process tests run with it on).
    @Test func everyStrategyKeepsEveryRecordThroughTheBinary() throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try CLI.run(["run", "--strategy", "all", "--rows", "3000", "--dup-rate", "0.1", "--writers", "2",
                             "--batch-size", "250", "--out", out, "--quiet"], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(rows.count >= 13)
        for row in rows {
            let name = row["strategy"] ?? "?"
            #expect(row["status"] == "ok" && row["lost"] == "0" && row["integrity"] == "ok", "\(name)")
            if !["raw-sqlite", "batch-insert-only", "many-writers"].contains(name) {
                #expect(row["duplicates"] == "0" && row["bad_links"] == "0" && row["store_rows"] == "2700", "\(name)")
            }
        }
    }

    @Test func inMemoryStoreAndTimelineAndJSON() throws {
        let dir = CLI.makeFolder()
        let timeline = dir + "/timeline.csv"
        let r = try CLI.run(["run", "--strategy", "raw-sqlite", "--rows", "3000", "--store", "memory",
                             "--timeline", timeline, "--json", "--progress", "none"], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let repetition = (json?["repetitions"] as? [[String: Any]])?.first
        #expect(repetition?["store"] as? String == "memory" && repetition?["store_rows"] as? Int == 3000)
        #expect(repetition?["journal"] as? String == "memory" && repetition?["batch_size"] is NSNull)
        let samples = try CLI.parseCSV(String(contentsOfFile: timeline, encoding: .utf8))
        #expect(samples.first == ["run_id", "t_ms", "rows_done", "rss_bytes", "heap_bytes", "strategy", "config"])
        #expect(samples.count >= 2)
        #expect(samples.last?[2] == "3000" && samples.last?[5] == "raw-sqlite")
    }

    @Test func keptStoreCanBeInspectedAndReplaced() throws {
        let dir = CLI.makeFolder()
        let store = dir + "/kept.sqlite"
        for _ in 0..<2 {
            let r = try CLI.run(["run", "--strategy", "raw-sqlite", "--rows", "1000", "--store", store, "--quiet"], tmpdir: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: store))
    }

    @Test func listAndHelpAndVersion() throws {
        let list = try CLI.run(["list"])
        #expect(list.status == 0 && list.stdout.contains("raw-sqlite") && list.stdout.contains("expenses"))
        let help = try CLI.run(["run", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--dup-rate") && help.stdout.contains("--progress"))
        let version = try CLI.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("loadgen "))
        #expect(try CLI.run(["list", "--help"]).status == 0)
    }
}
