import Foundation
import Testing

/// `loadgen plot` and `loadgen report` (issue 11), on a small sweep made once: every chart the
/// data allows is written as a real image, and every bad input exits as documented with nothing
/// written.
@Suite(.serialized) struct PlotTests {
    typealias Sweep = (dir: String, results: String, timeline: String)
    static let fixture = Fixture<Sweep>({ check in
        let dir = CLI.makeFolder()
        let results = dir + "/sweep.csv", timeline = dir + "/timeline.csv"
        let runs: [[String]] = [
            ["--strategy", "context-reset,context-noreset,prefetch,n-plus-one", "--rows", "2000,4000", "--batch-size", "200,400",
             "--repeat", "2", "--timeline", timeline],
            ["--strategy", "many-writers,many-writers-constrained,one-writer", "--rows", "2000", "--writers", "1,3"],
            ["--strategy", "one-writer", "--rows", "2000", "--rate", "20000,40000"],
        ]
        for run in runs { check(try CLI.run(["run"] + run + ["--out", results, "--quiet"], tmpdir: dir)) }
        return (dir, results, timeline)
    }, placeholder: ("", "", ""))
    static var sweep: Sweep { get throws { try fixture.get() } }

    static let charts = ["throughput", "scaling", "batchsize", "memory", "writers", "sqlperrow", "latency"]

    func header(_ path: String, _ count: Int) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: count)) ?? Data())
    }

    @Test func plotWritesEveryChartAsPNGAndSVG() throws {
        let out = try Self.sweep.dir + "/plots"
        let r = try CLI.run(["plot", Self.sweep.results, "--timeline", Self.sweep.timeline, "--out", out, "--format", "both"])
        #expect(r.status == 0, "\(r.stderr)")
        for chart in Self.charts {
            let png = "\(out)/\(chart).png", svg = "\(out)/\(chart).svg"
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
    @Test func aRunWithoutALimitDrawsNone() throws {
        let dir = CLI.makeFolder()
        let results = dir + "/nolimit.csv", out = dir + "/plots"
        let run = try CLI.run(["run", "--strategy", "batch", "--rows", "1000", "--no-limit", "--out", results, "--quiet"], tmpdir: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let r = try CLI.run(["plot", results, "--out", out])
        #expect(r.status == 0 && !r.stderr.contains("warning"), "\(r.stderr)")
        #expect(header(out + "/throughput.png", 4) == [0x89, 0x50, 0x4E, 0x47])
        let vars = try String(contentsOfFile: out + "/data/vars.gp", encoding: .utf8)
        #expect(vars.contains("array throughput_series[1]") && !vars.contains("limit (raw-sqlite)"))
        let withLimit = try CLI.run(["plot", Self.sweep.results, "--out", dir + "/limited", "--data-only"])
        #expect(withLimit.status == 0, "\(withLimit.stderr)")
        let limited = try String(contentsOfFile: dir + "/limited/data/vars.gp", encoding: .utf8)
        #expect(limited.contains("throughput_series[2] = \"limit (raw-sqlite)\""))
    }

    @Test func theTrendComesFromAHistory() throws {
        let out = try Self.sweep.dir + "/trend"
        let r = try CLI.run(["plot", Self.sweep.results, "--history", Self.sweep.results, "--baseline", Self.sweep.results,
                             "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(header(out + "/trend.png", 4) == [0x89, 0x50, 0x4E, 0x47])
        #expect(r.stderr.contains("skipped memory"))
    }

    @Test func reportWritesAReviewPage() throws {
        let out = try Self.sweep.dir + "/review"
        let r = try CLI.run(["report", Self.sweep.results, "--timeline", Self.sweep.timeline, "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let page = try String(contentsOfFile: out + "/review.md", encoding: .utf8)
        for part in ["# Design review:", "### Reproduce", "loadgen run --strategy", "## Summary", "| strategy |", "## Ranking",
                     "## Charts", "![Throughput](throughput.png)", "## What the verifier found", "| one-writer |"] {
            #expect(page.contains(part), "review.md lacks \(part)")
        }
        #expect(header(out + "/throughput.png", 4) == [0x89, 0x50, 0x4E, 0x47])
    }

    @Test func withoutGnuplotPlotExits69() throws {
        let dir = CLI.makeFolder()
        let r = try CLI.run(["plot", Self.sweep.results, "--out", dir + "/p"], environment: ["PATH": "/nonexistent"])
        #expect(r.status == 69 && r.stderr.contains("gnuplot is not installed") && r.stderr.contains("scripts/setup"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/p"))
    }

    @Test func badCSVsExit65NamingFileAndLineAndWriteNothing() throws {
        let dir = CLI.makeFolder()
        let empty = dir + "/empty.csv", foreign = dir + "/foreign.csv", cut = dir + "/cut.csv"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        try "name,value\r\nx,1\r\n".write(toFile: foreign, atomically: true, encoding: .utf8)
        let lines = try String(contentsOfFile: Self.sweep.results, encoding: .utf8).split(separator: "\r\n")
        try (lines.prefix(3).joined(separator: "\r\n") + "\r\n" + lines[3].prefix(30) + "\r\n")
            .write(toFile: cut, atomically: true, encoding: .utf8)
        for (file, mentions) in [(empty, "\(empty):1: the file is empty"), (foreign, "\(foreign):1: not a loadgen results file"),
                                 (cut, "\(cut):4: the row has")] {
            for command in ["plot", "report"] {
                let out = dir + "/out-\(command)"
                let r = try CLI.run([command, file, "--out", out])
                #expect(r.status == 65, "\(command) \(file): \(r.stderr)")
                #expect(r.stderr.contains(mentions), "\(r.stderr)")
                #expect(!FileManager.default.fileExists(atPath: out))
            }
        }
        let badTimeline = try CLI.run(["plot", Self.sweep.results, "--timeline", foreign, "--out", dir + "/t"])
        #expect(badTimeline.status == 65 && badTimeline.stderr.contains("not a loadgen timeline"))
        #expect(try CLI.run(["plot", "--out", dir + "/x"]).status == 64)
        #expect(try CLI.run(["plot", Self.sweep.results, "--format", "gif"]).status == 64)
    }

    /// plots.gnuplot run directly on a results file derives its data through loadgen.
    @Test func gnuplotRunsTheScriptDirectly() throws {
        let out = try Self.sweep.dir + "/direct/"
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("plots.gnuplot").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let results = try Self.sweep.results
        p.arguments = ["gnuplot", "-e", "csv='\(results)'; out='\(out)'; loadgen='\(CLI.binary)'", script]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(header(out + "throughput.png", 4) == [0x89, 0x50, 0x4E, 0x47])
        #expect(header(out + "batchsize.png", 4) == [0x89, 0x50, 0x4E, 0x47])
    }
}
