import Foundation
import Testing

/// `loadgen plot` and `loadgen report` (issue 11), on a small sweep made once: every chart the
/// data allows is written as a real image, and every bad input exits as documented with nothing
/// written.
@Suite(.serialized) struct PlotTests {
    typealias Sweep = (dir: String, results: String, timeline: String)
    static let fixture = Fixture<Sweep> { check in
        let dir = CLI.makeFolder()
        let results = dir + "/sweep.csv"
        let timeline = dir + "/timeline.csv"
        let runs: [[String]] = [
            [
                "--strategy", "context-reset,context-noreset,prefetch,n-plus-one", "--rows", "2000,4000",
                "--batch-size", "200,400",
                "--repeat", "2", "--timeline", timeline,
            ],
            ["--strategy", "many-writers,many-writers-constrained,one-writer", "--rows", "2000", "--writers", "1,3"],
            ["--strategy", "one-writer", "--rows", "2000", "--rate", "20000,40000"],
            ["--operation", "read", "--strategy", "read-faulting,read-dictionaries", "--rows", "1000,2000"],
        ]
        for run in runs { try check(try await CLI.run(["run"] + run + ["--out", results, "--quiet"], tmpdir: dir)) }
        return (dir, results, timeline)
    }
    static var sweep: Sweep { get async throws { try await fixture.get() } }

    static let charts = [
        "throughput", "throughput_read", "scaling", "batchsize", "memory", "writers", "sqlperrow", "latency", "reads",
    ]

    func header(_ path: String, _ count: Int) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: count)) ?? Data())
    }

    @Test func plotWritesEveryChartAsPNGAndSVG() async throws {
        let out = try await Self.sweep.dir + "/plots"
        let r = try await CLI.run([
            "plot", Self.sweep.results, "--timeline", Self.sweep.timeline, "--out", out, "--format", "both",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        for chart in Self.charts {
            let png = "\(out)/\(chart).png"
            let svg = "\(out)/\(chart).svg"
            #expect(header(png, 8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(chart).png")
            #expect(String(decoding: header(svg, 400), as: UTF8.self).contains("<svg"), "\(chart).svg")
            #expect(r.stdout.contains(png) && r.stdout.contains(svg))
        }
        #expect(!r.stderr.contains("warning"), "gnuplot complained: \(r.stderr)")
        // No history given: the trend is skipped, with one line saying why.
        #expect(r.stderr.contains("skipped trend (Nightly trend): no --history file was given"))
        #expect(!FileManager.default.fileExists(atPath: out + "/trend.png"))
    }

    /// A --no-limit run has no limit to draw: the throughput chart names none, and gnuplot is
    /// not handed an empty series (it warned, and the legend promised a black bar).
    @Test func aRunWithoutALimitDrawsNone() async throws {
        let dir = CLI.makeFolder()
        let results = dir + "/nolimit.csv"
        let out = dir + "/plots"
        let run = try await CLI.run(
            ["run", "--strategy", "batch", "--rows", "1000", "--no-limit", "--out", results, "--quiet"], tmpdir: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let r = try await CLI.run(["plot", results, "--out", out])
        #expect(r.status == 0 && !r.stderr.contains("warning"), "\(r.stderr)")
        #expect(header(out + "/throughput.png", 4) == [0x89, 0x50, 0x4E, 0x47])
        let vars = try String(contentsOfFile: out + "/data/vars.gp", encoding: .utf8)
        #expect(vars.contains("throughput_limits = \"0\""), "no limit line is drawn: \(vars)")
        let withLimit = try await CLI.run(["plot", Self.sweep.results, "--out", dir + "/limited", "--data-only"])
        #expect(withLimit.status == 0, "\(withLimit.stderr)")
        let limited = try String(contentsOfFile: dir + "/limited/data/vars.gp", encoding: .utf8)
        #expect(
            limited.contains("throughput_titlelimit = \"limit (raw-sqlite, its measured median)\"")
                && !limited.contains("throughput_limits = \"0\""), "\(limited)")
    }

    @Test func theTrendComesFromAHistory() async throws {
        let out = try await Self.sweep.dir + "/trend"
        let r = try await CLI.run([
            "plot", Self.sweep.results, "--history", Self.sweep.results, "--baseline", Self.sweep.results,
            "--out", out,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(header(out + "/trend.png", 4) == [0x89, 0x50, 0x4E, 0x47])
        #expect(r.stderr.contains("skipped memory"))
    }

    @Test func reportWritesAReviewPage() async throws {
        let out = try await Self.sweep.dir + "/review"
        let r = try await CLI.run(["report", Self.sweep.results, "--timeline", Self.sweep.timeline, "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let page = try String(contentsOfFile: out + "/review.md", encoding: .utf8)
        for part in [
            "# Design review:", "### Reproduce", "loadgen run --strategy", "## Summary", "| strategy |",
            "## Conclusion",
            "## Charts", "![Throughput (import)](throughput.png)", "## What the verifier found", "| one-writer |",
            "## Reads", "| read-dictionaries |", "| 2,000 | 50 |", "![Reads against rows](reads.png)",
        ] {
            #expect(page.contains(part), "review.md lacks \(part)")
        }
        #expect(header(out + "/throughput.png", 4) == [0x89, 0x50, 0x4E, 0x47])
        // What was not drawn is said once, and not for the quiet ones (an operation's chart beside
        // the one drawn): "batch size" was listed three times, once per operation not swept.
        let notDrawn = page.split(separator: "\n").first { $0.hasPrefix("Charts not drawn:") } ?? ""
        #expect(!notDrawn.contains("throughput (update)"), "\(notDrawn)")
        let batchSizeMentions = notDrawn.components(separatedBy: "batch size (").count - 1
        #expect(batchSizeMentions == 0 || batchSizeMentions == 1, "\(notDrawn)")
    }

    @Test func withoutGnuplotPlotExits69() async throws {
        let dir = CLI.makeFolder()
        let r = try await CLI.run(
            ["plot", Self.sweep.results, "--out", dir + "/p"], environment: ["PATH": "/nonexistent"])
        #expect(r.status == 69 && r.stderr.contains("gnuplot is not installed") && r.stderr.contains("scripts/setup"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/p"))
    }

    @Test func badCSVsExit65NamingFileAndLineAndWriteNothing() async throws {
        let dir = CLI.makeFolder()
        let empty = dir + "/empty.csv"
        let foreign = dir + "/foreign.csv"
        let cut = dir + "/cut.csv"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        try "name,value\r\nx,1\r\n".write(toFile: foreign, atomically: true, encoding: .utf8)
        let lines = try await String(contentsOfFile: Self.sweep.results, encoding: .utf8).split(separator: "\r\n")
        try (lines.prefix(3).joined(separator: "\r\n") + "\r\n" + lines[3].prefix(30) + "\r\n")
            .write(toFile: cut, atomically: true, encoding: .utf8)
        for (file, mentions) in [
            (empty, "\(empty):1: the file is empty"), (foreign, "\(foreign):1: not a loadgen results file"),
            (cut, "\(cut):4: the row has"),
        ] {
            for command in ["plot", "report"] {
                let out = dir + "/out-\(command)"
                let r = try await CLI.run([command, file, "--out", out])
                #expect(r.status == 65, "\(command) \(file): \(r.stderr)")
                #expect(r.stderr.contains(mentions), "\(r.stderr)")
                #expect(!FileManager.default.fileExists(atPath: out))
            }
        }
        let badTimeline = try await CLI.run(["plot", Self.sweep.results, "--timeline", foreign, "--out", dir + "/t"])
        #expect(badTimeline.status == 65 && badTimeline.stderr.contains("not a loadgen timeline"))
        #expect(try await CLI.run(["plot", "--out", dir + "/x"]).status == 64)
        #expect(try await CLI.run(["plot", Self.sweep.results, "--format", "gif"]).status == 64)
    }

    /// Issue 55, item 4: a results bundle may carry its own plots.gnuplot (a downloaded CI
    /// artifact) whose system(…) lines would run: plot and report draw with the script compiled
    /// into loadgen, never the current folder's.
    @Test func aScriptInTheCurrentFolderIsNeverRun() async throws {
        let dir = CLI.makeFolder()
        try #"system("touch pwned")"#.write(toFile: dir + "/plots.gnuplot", atomically: true, encoding: .utf8)
        let results = try await Self.sweep.results
        let r = try await CLI.run(["plot", results, "--out", dir + "/charts"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/pwned"))
        #expect(header(dir + "/charts/throughput.png", 4) == [0x89, 0x50, 0x4E, 0x47])
        let folder = try await CLI.run(["plot", results, "--out", dir + "/x", "--script", dir])
        #expect(folder.status == 66 && folder.stderr.contains("is a folder"), "\(folder.stderr)")
    }

    /// Issue 55, item 9: under `ulimit -v 100000` gnuplot cannot start its threads; plot and report
    /// start it through posix_spawn (Foundation's Process crashed there) and name the limit (71).
    /// report made its summary on a second thread, whose first allocation crashed jemalloc there
    /// (a segfault, 139): under a limit it uses one thread.
    @Test(arguments: ["plot", "report"])
    func plotSaysAMemoryLimitInsteadOfCrashing(command: String) async throws {
        let dir = CLI.makeFolder()
        let results = try await Self.sweep.results
        let r = try await CLI.run([command, results, "--out", dir + "/charts"], limits: ["--as=102400000"])
        #expect(r.status == 71 || r.status == 0, "\(r.status) \(r.stderr)")
        if r.status == 71 { #expect(r.stderr.contains("ulimit -v"), "\(r.stderr)") }
    }

    /// plots.gnuplot run directly on a results file derives its data through loadgen.
    @Test func gnuplotRunsTheScriptDirectly() async throws {
        let out = try await Self.sweep.dir + "/direct/"
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("plots.gnuplot").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let results = try await Self.sweep.results
        p.arguments = ["gnuplot", "-e", "csv='\(results)'; out='\(out)'; loadgen='\(CLI.binary)'", script]
        try p.run()
        await CLI.exit(of: p)
        #expect(p.terminationStatus == 0)
        #expect(header(out + "throughput.png", 4) == [0x89, 0x50, 0x4E, 0x47])
        #expect(header(out + "batchsize.png", 4) == [0x89, 0x50, 0x4E, 0x47])
    }

    /// Each chart's data says what its title promises (issue 18): one bar per configuration with
    /// the unit of its operation and the run's settings, a scale that shows differences under
    /// 2×, the writers' spread, and a plot that replaces the charts it drew before.
    @Test func chartDataMatchesWhatTheChartsPromise() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/plots"
        let sweep = try await Self.sweep
        #expect(try await CLI.run(["plot", sweep.results, "--out", out]).status == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/latency.png"))
        let r = try await CLI.run(["plot", sweep.results, "--out", out, "--data-only"])
        #expect(r.status == 0, "\(r.stderr)")
        // The bars are the first block; the limit's lines (one per workload) the second.
        let throughput = try String(contentsOfFile: out + "/data/throughput.dat", encoding: .utf8)
        let bars = throughput.components(separatedBy: "\n\n\n")[0].split(separator: "\n").dropFirst()
        let parameters = [
            "strategy", "rows", "batch_size", "writers", "rate", "coordinators", "producer_latency_us", "history",
            "view_context", "dup_rate", "operation",
        ]
        // The imports' chart: the reads have one of their own (throughput_read).
        let configurations = Set(
            try CLI.rows(sweep.results).filter { ($0["instructions_by"] ?? "").isEmpty && $0["operation"] != "read" }
                .map { row in parameters.map { row[$0] ?? "" } })
        #expect(bars.count == configurations.count, "one bar per configuration")
        let vars = try String(contentsOfFile: out + "/data/vars.gp", encoding: .utf8)
        // The scale follows the rates (linear unless they span ten times: ChartDataTests); an
        // open-loop run at 20,000 rows/s beside the limit may or may not, depending on the machine.
        #expect(
            vars.contains("throughput_unit = \"records imported per second\"")
                && (vars.contains("throughput_log = \"0\"") || vars.contains("throughput_log = \"1\"")), "\(vars)")
        #expect(vars.contains("throughput_settings = \"expenses"))
        // The reads in read words: heap per row and rows read per second, a line per read strategy.
        let reads = try String(contentsOfFile: out + "/data/reads.dat", encoding: .utf8)
        #expect(
            reads.hasPrefix("# rows peak_heap_bytes_per_row_median rows_per_s_median")
                && reads.contains("# read-faulting") && reads.contains("# read-dictionaries"), "\(reads)")
        #expect(vars.contains("reads_headline = \"peak heap per row at 2,000 rows: "), "\(vars)")
        let writers = try String(contentsOfFile: out + "/data/writers.dat", encoding: .utf8)
        #expect(writers.hasPrefix("# writers duplicates_median duplicates_min duplicates_max conflicts_median"))
        // --data-only drew nothing, and the stale chart of an earlier plot is gone.
        #expect(!FileManager.default.fileExists(atPath: out + "/latency.png"))
        // An operation's chart counts its own unit and says why it has no limit.
        let ops = dir + "/ops.csv"
        #expect(
            try await CLI.run(["run", "--operation", "delete", "--rows", "1000", "--out", ops, "--quiet"], tmpdir: dir)
                .status == 0)
        #expect(try await CLI.run(["plot", ops, "--out", dir + "/ops", "--data-only"]).status == 0)
        let opsVars = try String(contentsOfFile: dir + "/ops/data/vars.gp", encoding: .utf8)
        #expect(
            opsVars.contains("throughput_delete_unit = \"records deleted per second\"")
                && opsVars.contains("operations on a filled store have no limit"), "\(opsVars)")
    }

    /// The trend compares each night with the baseline's same configurations and marks the
    /// nights below the band.
    @Test func theTrendIsRelativeToTheBaselineWithMarks() async throws {
        let sweep = try await Self.sweep
        let dir = CLI.makeFolder()
        // A history of two nights: the sweep, and the sweep with one strategy halved.
        let rows = try CLI.parseCSV(String(contentsOfFile: sweep.results, encoding: .utf8))
        let header = rows[0]
        let (id, vs, strategy) = (
            header.firstIndex(of: "run_id")!, header.firstIndex(of: "vs_limit")!, header.firstIndex(of: "strategy")!
        )
        var text = header.joined(separator: ",") + "\r\n"
        for night in ["a", "b"] {
            for var row in rows.dropFirst() {
                row[id] = night + row[id]
                if night == "b" && row[strategy] == "prefetch", let v = Double(row[vs]) {
                    row[vs] = String(format: "%.4f", v / 2)
                }
                text += row.map(ResultsFixture.quote).joined(separator: ",") + "\r\n"
            }
        }
        let history = dir + "/history.csv"
        try text.write(toFile: history, atomically: true, encoding: .utf8)
        let r = try await CLI.run([
            "plot", sweep.results, "--history", history, "--baseline", sweep.results, "--out", dir + "/p",
            "--data-only",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let data = try String(contentsOfFile: dir + "/p/data/trend.dat", encoding: .utf8)
        #expect(data.contains("# prefetch") && data.contains("\"prefetch\""), "the halved night is marked: \(data)")
        #expect(!data.contains("\"context-reset\""), "an unchanged strategy is not marked")
    }

    /// Issue 26, 6: no two series share a colour among the first sixteen, and the next sixteen
    /// never repeat one of those with its dash pattern.
    @Test func noTwoSeriesShareColourAndDash() async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("plots.gnuplot").path
        let lines = try String(contentsOfFile: script, encoding: .utf8).split(separator: "\n").filter {
            $0.hasPrefix("set linetype ")
        }
        var styles: [Int: (colour: String, dash: String)] = [:]
        for line in lines {
            let words = line.split(separator: " ").map(String.init)
            guard words.count > 8, let n = Int(words[2]), let rgb = words.firstIndex(of: "rgb"),
                let dt = words.firstIndex(of: "dt")
            else { continue }
            styles[n] = (words[rgb + 1], words[dt + 1])
        }
        #expect(styles.count == 32, "\(styles.keys.sorted())")
        #expect(Set((1...16).compactMap { styles[$0]?.colour }).count == 16)
        let pairs = (1...32).compactMap { styles[$0].map { "\($0.colour) \($0.dash)" } }
        #expect(Set(pairs).count == 32, "\(pairs)")
    }

    /// Issue 44, item 2: the charts judge configurations as the run asked: with `--require
    /// objects`, read-dictionaries (values, not objects) is drawn as one that may not be
    /// recommended, saying why; without it, it may be.
    @Test func theChartsHonourWhatTheRunRequired() async throws {
        let dir = CLI.makeFolder()
        for (name, extra) in [("required", ["--require", "objects"]), ("plain", [])] {
            let out = dir + "/\(name).csv"
            let run = try await CLI.run(
                [
                    "run", "--operation", "read", "--strategy", "read-properties,read-dictionaries", "--rows", "1000",
                    "--repeat", "1", "--out", out, "--quiet",
                ] + extra, tmpdir: dir)
            #expect(run.status == 0, "\(run.stderr)")
            let plot = try await CLI.run(["plot", out, "--out", dir + "/\(name)", "--data-only"], tmpdir: dir)
            #expect(plot.status == 0, "\(plot.stderr)")
        }
        let line = { (name: String) in
            ((try? String(contentsOfFile: dir + "/\(name)/data/throughput_read.dat", encoding: .utf8)) ?? "")
                .split(separator: "\n").first { $0.contains("read-dictionaries") }.map(String.init) ?? ""
        }
        #expect(
            line("required").contains("— short: objects") && line("required").hasSuffix(" 1"), "\(line("required"))")
        #expect(!line("plain").contains("short") && line("plain").hasSuffix(" 0"), "\(line("plain"))")
    }

    /// Issue 44, item 3: a latency chart at a single offered rate gets an x range around it
    /// (gnuplot said "empty x range" on stderr) and tells p50, p99 and max apart by their points.
    @Test func aLatencyChartAtOneRateDrawsCleanly() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/open.csv"
        let run = try await CLI.run(
            [
                "run", "--strategy", "context-reset", "--rate", "2000", "--rows", "1000", "--no-limit",
                "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let plot = try await CLI.run(["plot", out, "--out", dir + "/charts"], tmpdir: dir)
        #expect(plot.status == 0 && !plot.stderr.contains("empty x range"), "\(plot.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/charts/latency.png"))
        let vars = (try? String(contentsOfFile: dir + "/charts/data/vars.gp", encoding: .utf8)) ?? ""
        #expect(vars.contains("latency_single_rate = \"2000\""), "\(vars)")
    }

    /// Issue 44, item 2: for the memory question the review shows the memory chart first, with
    /// the run's --max-rss drawn across it.
    @Test func theMemoryQuestionsChartComesFirstWithItsCap() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/m.csv"
        let timeline = dir + "/t.csv"
        let run = try await CLI.run(
            [
                "run", "--strategy", "context-reset,batch", "--rows", "2000", "--no-limit", "--objective", "rss",
                "--max-rss", "40M", "--timeline", timeline, "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try await CLI.run(["report", out, "--timeline", timeline, "--out", dir + "/review"], tmpdir: dir)
        #expect(report.status == 0, "\(report.stderr)")
        let page = (try? String(contentsOfFile: dir + "/review/review.md", encoding: .utf8)) ?? ""
        let charts = page.split(separator: "\n").filter { $0.hasPrefix("![") }
        #expect(charts.first?.contains("memory.png") == true, "\(charts)")
        let vars = (try? String(contentsOfFile: dir + "/review/data/vars.gp", encoding: .utf8)) ?? ""
        #expect(vars.contains("memory_cap = \"40\""), "\(vars)")
    }
}
