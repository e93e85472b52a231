import Foundation
import Testing

/// `loadgen run` end to end: real child processes, real stores, real CSV.
@Suite(.serialized) struct RunCommandTests {
    @Test func historyIsRecordedWhenAskedAndSaysWhereItCannotBe() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            [
                "run", "--strategy", "raw-sqlite,context-reset,history-consumer", "--rows", "1000", "--history",
                "--out", out, "--progress", "none",
            ], tmpdir: dir)
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

    @Test func appendsARowWithEveryColumn() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            ["run", "--strategy", "raw-sqlite", "--rows", "2000", "--out", out, "--progress", "none"], tmpdir: dir)
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
        // Each figure checked against what it must be, not only for being there.
        let number = { (column: String) in Double(row[column] ?? "") ?? -1 }
        let wall = number("wall_s")
        // wall_s is rounded to the microsecond: over a few milliseconds that is within 1e-3 of the rate.
        #expect(wall > 0 && abs(number("rows_per_s") / (2000 / wall) - 1) < 1e-3, "rows_per_s is rows / wall_s")
        #expect(number("cpu_user_s") >= 0 && number("cpu_sys_s") >= 0)
        #expect(
            number("peak_rss_bytes") >= number("end_rss_bytes") && number("end_rss_bytes") > 1_000_000, "VmHWM ≥ VmRSS")
        #expect(number("peak_heap_bytes") >= number("end_heap_bytes") && number("end_heap_bytes") > 0)
        // The statements by kind add up to no more than the total; every record is one INSERT.
        let kinds = ["sql_selects", "sql_inserts", "sql_updates", "sql_deletes"].map(number)
        #expect(kinds.allSatisfy { $0 >= 0 } && kinds.reduce(0, +) <= number("sql_statements"))
        #expect(number("sql_inserts") >= 2000 && number("transactions") >= 1)
        #expect(
            number("store_bytes") > 0 && number("store_bytes").truncatingRemainder(dividingBy: 4096) == 0,
            "a closed store is whole pages")
        #expect(ISO8601DateFormatter().date(from: row["started_at"] ?? "") != nil)
        #expect((row["run_id"] ?? "").range(of: "^[0-9a-f]+-1$", options: .regularExpression) != nil)
        #expect((row["sqlite_version"] ?? "").range(of: "^3\\.[0-9]+\\.[0-9]+$", options: .regularExpression) != nil)
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        if let model = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") })?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
        {
            #expect(row["cpu_model"] == model)
        }
        #expect(r.stdout.contains("raw-sqlite") && r.stdout.contains("integrity ok"))
    }

    @Test func reportsDuplicatesExactly() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        // The photos model has no constraint on the URL (seed 001's app): every repeat is a row.
        let r = try await CLI.run(
            [
                "run", "--dataset", "photos", "--payload-bytes", "64", "--strategy", "raw-sqlite", "--rows", "5000",
                "--dup-rate", "0.1", "--repeat", "2", "--out", out, "--quiet",
            ], tmpdir: dir)
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
    @Test func repetitionsRunInRoundsAndPairWithTheirRoundsLimit() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            [
                "run", "--strategy", "prefetch,raw-sqlite", "--rows", "2000", "--repeat", "3",
                "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(
            rows.map { "\($0["strategy"]!) \($0["repeat"]!)" }
                == ["raw-sqlite 1", "prefetch 1", "raw-sqlite 2", "prefetch 2", "raw-sqlite 3", "prefetch 3"])
        for round in stride(from: 0, to: rows.count, by: 2) {
            let raw = Double(rows[round]["rows_per_s"]!)!
            let other = Double(rows[round + 1]["rows_per_s"]!)!
            #expect(rows[round]["vs_limit"] == "1.0000")
            #expect(abs(Double(rows[round + 1]["vs_limit"]!)! - other / raw) < 0.0001)
        }
    }

    /// The whole catalogue as users run it: through the binary, where the queue checker is off
    /// and the engine takes its fast paths (the in-process tests run with it on).
    @Test func everyStrategyKeepsEveryRecordThroughTheBinary() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            [
                "run", "--strategy", "all", "--rows", "3000", "--dup-rate", "0.1", "--writers", "2",
                "--batch-size", "250", "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        // One row per import strategy, each once: `loadgen list` names them.
        let list = try await CLI.run(["list"]).stdout
        let imports = list.components(separatedBy: "\n\n")[0].split(separator: "\n").dropFirst()
            .compactMap { line in
                line.hasPrefix("  ") && !line.hasPrefix("   ") ? line.split(separator: " ").first.map(String.init) : nil
            }
        #expect(imports.count >= 14 && rows.map { $0["strategy"] ?? "" }.sorted() == imports.sorted(), "\(imports)")
        for row in rows {
            let name = row["strategy"] ?? "?"
            #expect(row["status"] == "ok" && row["lost"] == "0" && row["integrity"] == "ok", "\(name)")
            if !["raw-sqlite", "batch-insert-only", "many-writers", "find-or-create-writers"].contains(name) {
                #expect(row["duplicates"] == "0" && row["bad_links"] == "0" && row["store_rows"] == "2700", "\(name)")
            }
        }
    }

    @Test func inMemoryStoreAndTimelineAndJSON() async throws {
        let dir = CLI.makeFolder()
        let timeline = dir + "/timeline.csv"
        let r = try await CLI.run(
            [
                "run", "--strategy", "raw-sqlite", "--rows", "3000", "--store", "memory",
                "--timeline", timeline, "--json", "--progress", "none",
            ], tmpdir: dir)
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

    @Test func keptStoreCanBeInspectedAndReplaced() async throws {
        let dir = CLI.makeFolder()
        let store = dir + "/kept.sqlite"
        for _ in 0..<2 {
            let r = try await CLI.run(
                ["run", "--strategy", "raw-sqlite", "--rows", "1000", "--store", store, "--quiet"], tmpdir: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: store))
    }

    @Test func listAndHelpAndVersion() async throws {
        let list = try await CLI.run(["list"])
        #expect(list.status == 0 && list.stdout.contains("raw-sqlite") && list.stdout.contains("expenses"))
        let help = try await CLI.run(["run", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--dup-rate") && help.stdout.contains("--progress"))
        let version = try await CLI.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("loadgen "))
        #expect(try await CLI.run(["list", "--help"]).status == 0)
    }
}
