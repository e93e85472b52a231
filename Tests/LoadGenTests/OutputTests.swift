import Foundation
import Testing

/// Output paths, stores and leftovers (issue 14): every output is checked before anything
/// runs, fails on its own, and nothing a run leaves behind outlives it.
@Suite(.serialized) struct OutputTests {
    func files(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { !$0.hasPrefix("loadgen.") }
            .sorted()
    }

    static let clashes: [([String], Int32, String)] = [
        (["--out", ""], 64, "--out"),
        (["--timeline", ""], 64, "--timeline"),
        (["--out", "x.csv", "--timeline", "x.csv"], 64, "same file"),
        (["--out", "x.sqlite", "--store", "x.sqlite"], 64, "same file"),
        (["--store", "./y.sqlite", "--timeline", "y.sqlite"], 64, "same file"),
        (["--out", "z.sqlite-wal", "--store", "z.sqlite"], 64, "same file"),
        (["--out", "folder"], 73, "--out: folder is a folder"),
        (["--timeline", "folder"], 73, "--timeline: folder is a folder"),
    ]

    /// Each refused in milliseconds, before the first repetition, with nothing created.
    @Test(arguments: clashes)
    func clashingOrEmptyPathsAreRefusedBeforeAnythingRuns(arguments: [String], status: Int32, mentions: String)
        async throws
    {
        let dir = CLI.makeFolder()
        try FileManager.default.createDirectory(atPath: dir + "/folder", withIntermediateDirectories: false)
        let r = try await CLI.run(["run", "--rows", "200000", "--progress", "none"] + arguments, tmpdir: dir, cwd: dir)
        #expect(r.status == status, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains(mentions), "\(r.stderr)")
        #expect(files(dir) == ["folder"], "\(arguments) left \(files(dir))")
    }

    /// The timeline cannot be appended (its temporary file's name is taken by a folder): the
    /// --out row is still written, the summary printed, and the exit status is the timeline's.
    @Test func aFailingTimelineLosesNeitherTheRowNorTheSummary() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let timeline = dir + "/timeline.csv"
        let (p, stdout, stderr) = CLI.process(
            [
                "run", "--strategy", "context-reset", "--rows", "100000", "--out", out,
                "--timeline", timeline, "--progress", "none",
            ], tmpdir: dir)
        try p.run()
        // The parent appends the timeline after the repetition, long after this.
        try FileManager.default.createDirectory(
            atPath: timeline + ".tmp-\(p.processIdentifier)", withIntermediateDirectories: false)
        let text = String(decoding: await CLI.readToEnd(stdout), as: UTF8.self)
        let errors = String(decoding: await CLI.readToEnd(stderr), as: UTF8.self)
        await CLI.exit(of: p)
        #expect(p.terminationStatus == 74, "\(errors)")
        #expect(errors.contains("--timeline") && errors.contains("the run goes on"))
        #expect(text.contains("context-reset") && text.contains("Rate:"))
        #expect(
            try CLI.rows(out).map { "\($0["strategy"]!) \($0["status"]!)" } == ["raw-sqlite ok", "context-reset ok"])
    }

    /// Ctrl-C during a run with --store PATH leaves the previous complete store at PATH.
    @Test func anInterruptedRunKeepsThePreviousStore() async throws {
        let dir = CLI.makeFolder()
        let store = dir + "/kept.sqlite"
        let first = try await CLI.run(
            ["run", "--strategy", "batch", "--rows", "1000", "--store", store, "--quiet"], tmpdir: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let (p, _, _) = CLI.process(
            [
                "run", "--strategy", "raw-sqlite", "--rows", "50000000", "--store", store,
                "--progress", "none",
            ], tmpdir: dir)
        try p.run()
        // The child is writing its partial store: interrupt it there.
        #expect(await CLI.waitUntil { files(dir).contains { $0.hasPrefix(".kept.sqlite.partial-") } })
        p.interrupt()
        await CLI.exit(of: p)
        #expect(p.terminationStatus == 130)
        #expect(files(dir) == ["kept.sqlite"])
        await #expect(try rowCount(store) == 1000)
    }

    /// A finished run replaces the store at PATH with its own.
    @Test func aFinishedRunReplacesTheKeptStore() async throws {
        let dir = CLI.makeFolder()
        let store = dir + "/kept.sqlite"
        for rows in ["1000", "300"] {
            let r = try await CLI.run(
                ["run", "--strategy", "context-reset", "--rows", rows, "--store", store, "--quiet"], tmpdir: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        await #expect(try rowCount(store) == 300)
        #expect(files(dir) == ["kept.sqlite"])
    }

    func rowCount(_ store: String) async throws -> Int {
        let r = Process()
        r.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        r.arguments = [
            "python3", "-c",
            "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from ZEXPENSE').fetchone()[0])",
            store,
        ]
        let pipe = Pipe()
        r.standardOutput = pipe
        try r.run()
        let text = String(decoding: await CLI.readToEnd(pipe), as: UTF8.self)
        await CLI.exit(of: r)
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// kill -9 of the parent: the child notices, removes its store and exits.
    @Test func anOrphanedChildRemovesItsStore() async throws {
        let dir = CLI.makeFolder()
        let (p, _, _) = CLI.process(
            ["run", "--strategy", "raw-sqlite", "--rows", "50000000", "--progress", "none"], tmpdir: dir)
        try p.run()
        var folders: [String] = []
        #expect(
            await CLI.waitUntil {
                folders = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter {
                    $0.hasPrefix("loadgen.")
                }
                return folders.contains { FileManager.default.fileExists(atPath: dir + "/" + $0 + "/store.sqlite") }
            })
        let children = CLI.children(of: p.processIdentifier)
        #expect(!children.isEmpty)
        kill(p.processIdentifier, SIGKILL)
        await CLI.exit(of: p)
        // The child notices, removes what it made, then exits: wait for it to end (the deadline
        // is a safety net, not a measure), then look.
        #expect(await CLI.waitUntil { !children.contains(where: CLI.isRunning) })
        #expect(!folders.contains { FileManager.default.fileExists(atPath: dir + "/" + $0) })
    }

    /// A run removes temporary folders whose owner is gone, and only those.
    @Test func staleFoldersAreSweptByOwnerNotByAge() async throws {
        let dir = CLI.makeFolder()
        let fm = FileManager.default
        for name in ["loadgen.dead", "loadgen.mine", "loadgen.unowned"] {
            try fm.createDirectory(atPath: dir + "/" + name, withIntermediateDirectories: false)
        }
        // A pid that cannot be running (above pid_max), this test process with a wrong start
        // time (a reused pid), and this test process as it is.
        _ = fm.createFile(atPath: dir + "/loadgen.dead/owner", contents: Data("99999999 1\n".utf8))
        let me = getpid()
        let stat = try String(contentsOfFile: "/proc/\(me)/stat", encoding: .utf8)
        let started = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")[19]
        try fm.createDirectory(atPath: dir + "/loadgen.reused", withIntermediateDirectories: false)
        _ = fm.createFile(atPath: dir + "/loadgen.reused/owner", contents: Data("\(me) 1\n".utf8))
        _ = fm.createFile(atPath: dir + "/loadgen.mine/owner", contents: Data("\(me) \(started)\n".utf8))
        let r = try await CLI.run(["run", "--rows", "10", "--quiet"], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let left = (try fm.contentsOfDirectory(atPath: dir)).filter { $0.hasPrefix("loadgen.") }.sorted()
        #expect(left == ["loadgen.mine", "loadgen.unowned"])
    }

    /// `generate --out` replaces only an import file loadgen wrote, unless told to.
    @Test func generateRefusesToOverwriteWhatIsNotAnImportFile() async throws {
        let dir = CLI.makeFolder()
        let results = dir + "/runs.csv"
        let r = try await CLI.run(["run", "--rows", "10", "--quiet", "--out", results], tmpdir: dir)
        #expect(r.status == 0)
        let before = try String(contentsOfFile: results, encoding: .utf8)
        let refused = try await CLI.run(["generate", "--rows", "10", "--out", results], tmpdir: dir)
        #expect(refused.status == 73 && refused.stderr.contains("--force"))
        #expect(try String(contentsOfFile: results, encoding: .utf8) == before)
        let data = dir + "/data.json"
        #expect(try await CLI.run(["generate", "--rows", "10", "--out", data, "--quiet"]).status == 0)
        // its own file: fine
        #expect(try await CLI.run(["generate", "--rows", "20", "--out", data, "--quiet"]).status == 0)
        #expect(try await CLI.run(["generate", "--rows", "10", "--out", results, "--quiet", "--force"]).status == 0)
        #expect(try String(contentsOfFile: results, encoding: .utf8).hasPrefix("{\"expenses\""))
    }

    /// Two processes appending to one results file at once: every row of both, whole.
    @Test func twoProcessesAppendingToOneFileKeepEveryRow() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/shared.csv"
        let runs = (0..<2).map { _ in
            CLI.process(
                ["run", "--strategy", "raw-sqlite", "--rows", "200", "--repeat", "25", "--out", out, "--quiet"],
                tmpdir: dir)
        }
        for (p, _, _) in runs { try p.run() }
        for (p, _, _) in runs {
            await CLI.exit(of: p)
            #expect(p.terminationStatus == 0)
        }
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let records = try CLI.parseCSV(text)
        #expect(records.count == 1 + 50)
        #expect(records.allSatisfy { $0.count == records[0].count })
        let rows = try CLI.rows(out)
        #expect(Set(rows.map { $0["run_id"] ?? "" }).count == 50)
        #expect(rows.filter { $0["repeat"] == "25" }.count == 2)
    }
}
