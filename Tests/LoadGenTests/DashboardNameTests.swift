import Foundation
import Testing

/// Issue 47, 3: a dashboard's benchmark names never collide, a history exports one night, and an
/// export with nothing in it fails instead of writing `[]`.
@Suite struct DashboardNameTests {
    /// Eight configurations differing only in --journal, --key-order and --cache-size exported as
    /// one BMF benchmark (seven overwritten): now eight, each named by what sets it apart.
    @Test func everyConfigurationOfASweepHasItsOwnName() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/sweep.csv"
        let run = try await CLI.run(
            [
                "run", "--strategy", "batch", "--rows", "150", "--repeat", "1", "--no-limit", "--journal", "wal,delete",
                "--key-order", "ascending,random", "--cache-size", "100,-2000", "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let bmf = try await CLI.run(["export", out, "--format", "bmf"])
        let names = try #require(try JSONSerialization.jsonObject(with: Data(bmf.stdout.utf8)) as? [String: Any]).keys
        #expect(names.count == 8, "\(names.sorted())")
        #expect(
            names.contains {
                $0.contains("journal=delete") && $0.contains("key_order=random") && $0.contains("cache_size=100")
            },
            "\(names.sorted())")
        #expect(
            !names.contains { $0.contains("journal=wal") }, "a parameter at its default is left out: \(names.sorted())")
        // One parameter at a time over many more (a suite, one line each): every configuration
        // still has a name of its own.
        let suite = dir + "/every.suite"
        try """
        --strategy context-reset --rows 100 --repeat 1 --no-limit --synchronous normal,full,off
        --strategy context-reset --rows 100 --repeat 1 --no-limit --key-dist uniform,zipf --zipf-s 1.1,2
        --strategy context-reset --rows 100 --repeat 1 --no-limit --batch-size 10,100 --seed 1,2
        --strategy context-reset --rows 100 --repeat 1 --no-limit --dup-rate 0,0.2 --categories 5,50
        --strategy context-reset --rows 100 --repeat 1 --no-limit --view-context off,on --history off,on
        --strategy context-reset,batch --rows 100 --repeat 1 --no-limit --journal wal,delete --store memory
        --strategy one-writer --rows 100 --repeat 1 --no-limit --writers 1,2 --coordinators shared,per-writer
        --operation update,delete --strategy fetch-update,fetch-delete --rows 100 --repeat 1 --fraction 0.1,0.5
        """.write(toFile: suite, atomically: true, encoding: .utf8)
        let every = dir + "/every.csv"
        let swept = try await CLI.run(["run", "--suite", suite, "--out", every, "--quiet"], tmpdir: dir)
        #expect(swept.status == 0, "\(swept.stderr)")
        // Lines that reach the same configuration (every parameter at its default) measure one
        // benchmark twice; any two that differ in what the suite varies have two names.
        let varied = [
            "strategy", "operation", "rows", "seed", "dup_rate", "key_dist", "zipf_s", "categories", "batch_size",
            "writers", "coordinators", "synchronous", "journal", "store", "view_context", "history", "fraction",
        ]
        let configurations = Set(try CLI.rows(every).map { row in varied.map { row[$0] ?? "" }.joined(separator: ",") })
        let everyExport = try await CLI.run(["export", every, "--format", "bmf"])
        let everyName = try #require(
            try JSONSerialization.jsonObject(with: Data(everyExport.stdout.utf8)) as? [String: Any]
        ).keys
        #expect(
            everyName.count == configurations.count && everyName.count > 20,
            "\(everyName.count) names, \(configurations.count)")
        let github = try await CLI.run(["export", out, "--format", "github-smaller-is-better"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(github.stdout.utf8)) as? [[String: Any]])
        let titles = entries.compactMap { $0["name"] as? String }
        #expect(!titles.isEmpty && Set(titles).count == titles.count, "\(titles)")
    }

    /// A history of several nights exports the latest (or the one named), never all pooled; a
    /// night it does not hold is refused with the days it does.
    @Test func aHistoryExportsOneNight() async throws {
        let dir = CLI.makeFolder()
        let one = dir + "/one.csv"
        #expect(
            try await CLI.run(
                [
                    "run", "--strategy", "batch", "--rows", "100", "--repeat", "2", "--no-limit", "--out", one,
                    "--quiet",
                ],
                tmpdir: dir
            ).status == 0)
        // The same rows as another night: the day before, with run ids of their own.
        let records = try CLI.parseCSV(String(contentsOfFile: one, encoding: .utf8))
        let (id, started) = (records[0].firstIndex(of: "run_id")!, records[0].firstIndex(of: "started_at")!)
        let earlier = records.dropFirst().map { r in
            r.enumerated().map {
                $0.offset == id ? "earlier" + $0.element : $0.offset == started ? "2020-01-01T03:00:00Z" : $0.element
            }
        }
        let history = dir + "/history.csv"
        try ([records[0]] + earlier + records.dropFirst()).map {
            $0.map(ResultsFixture.quote).joined(separator: ",") + "\r\n"
        }.joined()
            .write(toFile: history, atomically: true, encoding: .utf8)
        let latest = try await CLI.run(["export", history, "--format", "bmf"])
        #expect(latest.status == 0 && latest.stderr.contains("hold 2 days; exporting 20"), "\(latest.stderr)")
        #expect(
            latest.stdout == (try await CLI.run(["export", one, "--format", "bmf"])).stdout, "the latest night alone")
        let named = try await CLI.run(["export", history, "--format", "bmf", "--night", "2020-01-01"])
        #expect(named.status == 0 && named.stderr.contains("exporting 2020-01-01"))
        let none = try await CLI.run(["export", history, "--format", "bmf", "--night", "2019-05-05"])
        #expect(
            none.status == 64 && none.stderr.contains("--night 2019-05-05: the results hold 2020-01-01…"),
            "\(none.stderr)")
    }

    /// Issue 58, item 2: a day with two runs of different revisions exports the last one, not
    /// both pooled into one point; `--run ID` exports one invocation.
    @Test func aNightWithTwoRunsExportsTheLast() async throws {
        let dir = CLI.makeFolder()
        let one = dir + "/one.csv"
        #expect(
            try await CLI.run(
                [
                    "run", "--strategy", "batch", "--rows", "100", "--repeat", "2", "--no-limit", "--out", one,
                    "--quiet",
                ],
                tmpdir: dir
            ).status == 0)
        let records = try CLI.parseCSV(String(contentsOfFile: one, encoding: .utf8))
        let header = records[0]
        let (id, started, rev, rate) = (
            header.firstIndex(of: "run_id")!, header.firstIndex(of: "started_at")!,
            header.firstIndex(of: "git_rev")!, header.firstIndex(of: "rows_per_s")!
        )
        // Earlier the same day, another revision, a hundred times slower.
        let morning = records.dropFirst().map { r in
            r.enumerated().map { i, cell in
                i == id
                    ? "morning" + cell
                    : i == started
                        ? String(cell.prefix(10)) + "T00:00:01Z"
                        : i == rev
                            ? "0ld0ld"
                            : i == rate ? String((Double(cell) ?? 1) / 100) : cell
            }
        }
        let history = dir + "/history.csv"
        try ([header] + morning + records.dropFirst()).map {
            $0.map(ResultsFixture.quote).joined(separator: ",") + "\r\n"
        }.joined()
            .write(toFile: history, atomically: true, encoding: .utf8)
        let last = try await CLI.run(["export", history, "--format", "bmf"])
        #expect(
            last.status == 0 && last.stderr.contains("holds runs of 2 revisions; exporting the last"), "\(last.stderr)")
        #expect(last.stdout == (try await CLI.run(["export", one, "--format", "bmf"])).stdout, "the last run alone")
        let morningID = "morning" + String(records[1][id].prefix { $0 != "-" })
        let chosen = try await CLI.run(["export", history, "--format", "bmf", "--run", morningID])
        #expect(chosen.status == 0 && chosen.stdout != last.stdout, "\(chosen.stderr)")
        let unknown = try await CLI.run(["export", history, "--format", "bmf", "--run", "nope"])
        #expect(
            unknown.status == 64 && unknown.stderr.contains("--run nope: no such run")
                && unknown.stderr.contains(morningID), "\(unknown.stderr)")
    }

    /// Nothing tracked to export (every repetition failed) is an error, and no file is written.
    @Test func anExportWithNothingInItFails() async throws {
        let dir = CLI.makeFolder()
        let ok = dir + "/ok.csv"
        let failed = dir + "/failed.csv"
        #expect(
            try await CLI.run(
                ["run", "--strategy", "batch", "--rows", "100", "--repeat", "1", "--no-limit", "--out", ok, "--quiet"],
                tmpdir: dir
            ).status == 0)
        let records = try CLI.parseCSV(String(contentsOfFile: ok, encoding: .utf8))
        let status = records[0].firstIndex(of: "status")!
        try
            ([records[0]]
            + records.dropFirst().map { r in r.enumerated().map { $0.offset == status ? "failed" : $0.element } })
            .map { $0.map(ResultsFixture.quote).joined(separator: ",") + "\r\n" }.joined().write(
                toFile: failed, atomically: true, encoding: .utf8)
        let r = try await CLI.run(["export", failed, "--format", "github-bigger-is-better", "--out", dir + "/out.json"])
        #expect(r.status == 65 && r.stderr.contains("nothing was written"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.json"))
    }
}
