import Foundation
import Testing

/// Results files and the runs that write them (issue 27): plot touches only what it wrote, rows
/// read twice are refused, a closed stdout does not kill a run, a conclusion names what stopped
/// it, and a failure of the machine is not the strategy's.
@Suite(.serialized) struct ResultsAndRunFailuresTests {
    static let results = ResultsFixture.make(
        [
            "--strategy", "batch,context-reset,context-noreset", "--rows", "1500",
            "--batch-size", "100,500", "--repeat", "2",
        ], name: "runs.csv")

    /// plot and report replace or remove only what they wrote in that folder (their manifest):
    /// a team's own memory.png or data file stops the command before it writes; an earlier
    /// plot's charts are replaced and the charts it drew that this one does not are removed
    /// (item 1). A full disk while the data is written leaves the earlier data whole (26).
    @Test func plotTouchesOnlyWhatItWrote() async throws {
        let fixture = try await Self.results.get()
        let out = fixture.dir + "/plots-mine"
        try FileManager.default.createDirectory(atPath: out + "/data", withIntermediateDirectories: true)
        try "mine".write(toFile: out + "/memory.png", atomically: true, encoding: .utf8)
        try "mine".write(toFile: out + "/data/throughput.dat", atomically: true, encoding: .utf8)
        for command in ["plot", "report"] {
            let r = try await CLI.run([command, fixture.path, "--out", out])
            #expect(
                r.status == 73 && r.stderr.contains("holds 2 files loadgen did not write there")
                    && r.stderr.contains("memory.png") && r.stderr.contains("data/throughput.dat"), "\(r.stderr)")
            #expect(try String(contentsOfFile: out + "/memory.png", encoding: .utf8) == "mine")
        }
        let fresh = fixture.dir + "/plots-ours"
        #expect(try await CLI.run(["plot", fixture.path, "--out", fresh]).status == 0)
        #expect(FileManager.default.fileExists(atPath: fresh + "/batchsize.png"))
        let before = try String(contentsOfFile: fresh + "/data/throughput.dat", encoding: .utf8)
        let narrow = try fixture.write("narrow.csv")
        let full = try await CLI.run(["plot", narrow, "--out", fresh, "--data-only"], limits: ["--fsize=100"])
        #expect(
            full.status == 74 && full.stderr.contains("is the disk full? (the earlier data is untouched)"),
            "\(full.stderr)")
        #expect(try String(contentsOfFile: fresh + "/data/throughput.dat", encoding: .utf8) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fresh + "/data").allSatisfy {
                !$0.contains(".partial-")
            })
        let again = try await CLI.run(["plot", fixture.path, "--out", fresh])
        #expect(again.status == 0, "an earlier plot's charts are replaced: \(again.stderr)")
    }

    /// Rows appended twice, or one file given twice, would count double: refused naming the
    /// line, as compare refuses them (item 7).
    @Test func rowsReadTwiceAreRefused() async throws {
        let fixture = try await Self.results.get()
        let text = try String(contentsOfFile: fixture.path, encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline)
        let doubled = fixture.dir + "/doubled.csv"
        try (text + lines.dropFirst().joined(separator: "\n") + "\n").write(
            toFile: doubled, atomically: true, encoding: .utf8)
        for command in ["plot", "report"] {
            let r = try await CLI.run([
                command, doubled, "--out", fixture.dir + "/doubled-\(command)",
                command == "plot" ? "--data-only" : "--no-charts",
            ])
            let twice = try await CLI.run([
                command, fixture.path, fixture.path, "--out", fixture.dir + "/twice-\(command)",
            ])
            #expect(
                r.status == 65 && r.stderr.contains("appears twice in this file: rows appended twice?"), "\(r.stderr)")
            #expect(
                twice.status == 65 && twice.stderr.contains("the same file or shard given twice?"), "\(twice.stderr)")
        }
    }

    /// A reader that stops early (`--out - | head -1`) no longer kills the run (item 14): the
    /// rows it can no longer take are an output failure (74) with its reason, the run finishes,
    /// --markdown and the --store are written, no hidden partial store is left.
    @Test func aClosedStdoutDoesNotKillTheRun() async throws {
        let dir = CLI.makeFolder()
        let markdown = dir + "/m.md"
        let store = dir + "/S.sqlite"
        let command =
            "'\(CLI.binary)' run --strategy context-reset --rows 5000 --repeat 3 --store '\(store)' --out - "
            + "--markdown '\(markdown)' 2>'\(dir)/err.txt' | head -1 >/dev/null; exit ${PIPESTATUS[0]}"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = dir + "/"
        p.environment = environment
        try p.run()
        await CLI.exit(of: p)
        let stderr = (try? String(contentsOfFile: dir + "/err.txt", encoding: .utf8)) ?? ""
        #expect(
            p.terminationStatus == 74 && stderr.contains("--out: the reader of stdout closed it"),
            "\(p.terminationStatus): \(stderr)")
        #expect(FileManager.default.fileExists(atPath: markdown) && FileManager.default.fileExists(atPath: store))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).allSatisfy { !$0.contains(".partial-") })
    }

    /// An older results file without a column that tells configurations apart: compare names the
    /// column (item 19). Every configuration over --max-rss: the recommendation says the limit
    /// stopped them, not that they broke their promises (item 20).
    @Test func conclusionsNameWhatStoppedThem() async throws {
        let fixture = try await Self.results.get()
        let records = try CLI.parseCSV(String(contentsOfFile: fixture.path, encoding: .utf8))
        let drop = try #require(records[0].firstIndex(of: "operation"))
        let older = fixture.dir + "/older.csv"
        try records.filter { $0 != [""] }.map { record in
            record.enumerated().filter { $0.offset != drop }.map { ResultsFixture.quote($0.element) }.joined(
                separator: ",")
        }.joined(separator: "\r\n").appending("\r\n").write(toFile: older, atomically: true, encoding: .utf8)
        let compare = try await CLI.run(["compare", older, fixture.path])
        #expect(
            compare.status == 2
                && compare.stderr.contains(
                    "the column operation (in \(older)) that tells configurations apart is missing"),
            "\(compare.stderr)")
        let report = try await CLI.run([
            "report", fixture.path, "--max-rss", "1M", "--no-charts", "--out", fixture.dir + "/rss-review",
        ])
        #expect(report.status == 0, "\(report.stderr)")
        let page = try String(contentsOfFile: fixture.dir + "/rss-review/review.md", encoding: .utf8)
        #expect(
            page.contains("and none stayed within --max-rss 1.0 MB") && !page.contains("kept its promises"), "\(page)")
    }

    /// A repetition the machine failed is the environment's, not the strategy's (item 24): a full
    /// disk exits 74, memory running out under ulimit -v exits 71, each with a line saying so.
    @Test func theEnvironmentsFailuresAreNotTheStrategys() async throws {
        let dir = CLI.makeFolder()
        let disk = try await CLI.run(
            ["run", "--strategy", "batch", "--rows", "20000", "--out", dir + "/disk.csv", "--quiet"],
            tmpdir: dir, limits: ["--fsize=300000"])
        #expect(
            disk.status == 74 && disk.stderr.contains("failed on the environment, not the strategy: the disk filled"),
            "\(disk.stderr)")
        let memory = try await CLI.run(
            [
                "run", "--strategy", "context-noreset", "--rows", "300000", "--no-limit", "--out", dir + "/memory.csv",
                "--quiet",
            ], tmpdir: dir, limits: ["--as=200000000"])
        #expect(
            memory.status == 71 && memory.stderr.contains("the child died under ulimit -v"),
            "\(memory.status) \(memory.stderr.suffix(300))")
    }
}
