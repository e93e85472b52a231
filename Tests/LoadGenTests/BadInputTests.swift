import Foundation
import Testing

/// Every bad input: one clear line naming the flag, the right exit status, no file created or changed.
@Suite struct BadInputTests {
    static let usageCases: [([String], String)] = [
        (["frobnicate"], "unknown command"),
        (["run", "--strategy", "nope"], "--strategy"),
        (["run", "--strategy", "raw-sqlite,"], "--strategy"),
        (["run", "--rowz", "10"], "--rowz"),
        (["run", "--rows"], "--rows"),
        (["run", "--rows", "abc"], "--rows"),
        (["run", "--rows", "0"], "--rows"),
        (["run", "--rows", "-5"], "--rows"),
        (["run", "--rows", "5000000000"], "--rows"),
        (["run", "--dup-rate", "1"], "--dup-rate"),
        (["run", "--dup-rate", "-0.1"], "--dup-rate"),
        (["run", "--dup-rate", "x"], "--dup-rate"),
        (["run", "--journal", "truncate"], "--journal"),
        (["run", "--synchronous", "extra"], "--synchronous"),
        (["run", "--progress", "fancy"], "--progress"),
        (["run", "--repeat", "0"], "--repeat"),
        (["run", "--rows", "10", "--rows", "20"], "--rows"),
        (["run", "--quiet=yes"], "--quiet"),
        (["run", "extra"], "extra"),
        (["list", "--verbose"], "--verbose"),
    ]

    @Test(arguments: usageCases)
    func usageErrorsExit64(arguments: [String], mentions: String) async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try await CLI.run(arguments + ["--out", out], tmpdir: dir)
        #expect(r.status == 64, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains(mentions), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func outInMissingFolderExits73() async throws {
        let dir = CLI.makeFolder()
        let r = try await CLI.run(["run", "--rows", "10", "--out", dir + "/missing/runs.csv"], tmpdir: dir)
        #expect(r.status == 73 && r.stderr.contains("--out") && r.stderr.contains("does not exist"))
    }

    @Test func unwritableOutExits73() async throws {
        // /proc accepts no new files, even from root (whom permission bits do not stop).
        let r = try await CLI.run(["run", "--rows", "10", "--out", "/proc/loadgen-runs.csv"])
        #expect(r.status == 73 && r.stderr.contains("--out") && r.stderr.contains("not writable"), "\(r.stderr)")
    }

    @Test func foreignResultsFileIsRefusedAndUntouched() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/other.csv"
        let original = "date,amount\r\n2026-01-01,3\r\n"
        try original.write(toFile: out, atomically: true, encoding: .utf8)
        let r = try await CLI.run(["run", "--rows", "10", "--out", out], tmpdir: dir)
        #expect(r.status == 73 && r.stderr.contains("not a loadgen results file"), "\(r.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == original)
    }

    @Test func unwritableStoreExits73() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            ["run", "--rows", "10", "--store", "/proc/loadgen.sqlite", "--out", out], tmpdir: dir)
        #expect(r.status == 73 && r.stderr.contains("--store"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func storeOverSomeoneElsesFileIsRefused() async throws {
        let dir = CLI.makeFolder()
        let precious = dir + "/notes.txt"
        try "keep me".write(toFile: precious, atomically: true, encoding: .utf8)
        let r = try await CLI.run(["run", "--rows", "10", "--store", precious], tmpdir: dir)
        #expect(r.status == 73 && r.stderr.contains("not a store loadgen wrote"), "\(r.stderr)")
        #expect(try String(contentsOfFile: precious, encoding: .utf8) == "keep me")
    }

    /// Issue 44, item 6: `--store PATH` keeps one store; a run of several configurations would
    /// keep the last one's whatever the question was (the writers question kept many-writers'
    /// broken store), so it is refused before anything runs, naming the configurations. One
    /// configuration (with the limit added) keeps its store.
    @Test func storeWithSeveralConfigurationsIsRefused() async throws {
        let dir = CLI.makeFolder()
        let kept = dir + "/kept.sqlite"
        let r = try await CLI.run(
            [
                "run", "--strategy", "one-writer,many-writers", "--writers", "8", "--rows", "200",
                "--store", kept,
            ], tmpdir: dir)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "--store \(kept) keeps one store, and this run has 2 configurations (one-writer, many-writers)")
                && r.stderr.contains("run one configuration with --store"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: kept))
        let one = try await CLI.run(
            ["run", "--strategy", "context-reset", "--rows", "300", "--store", kept, "--quiet"], tmpdir: dir)
        #expect(one.status == 0 && FileManager.default.fileExists(atPath: kept), "\(one.stderr)")
    }

    /// Issue 54, item 2: the screen is part of the question, the same for both delete idioms:
    /// the batch request asks for IDs because the screen merges them, and says so; without a
    /// screen neither side has one.
    @Test func aScreenForDeletesIsInFrontOfBothIdioms() async throws {
        let dir = CLI.makeFolder()
        let r = try await CLI.run(
            [
                "run", "--operation", "delete", "--strategy", "batch-delete,fetch-delete", "--view-context",
                "controller:100",
                "--rows", "500", "--out", dir + "/r.csv",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.contains("batch-delete asked for object IDs (beyond --result): the screen merges them"),
            "\(r.stdout)")
        let rows = try CLI.rows(dir + "/r.csv")
        #expect(
            rows.count == 2
                && rows.allSatisfy { $0["view_context"] == "controller:100" && !($0["view_objects"] ?? "").isEmpty },
            "\(rows)")
        let none = try await CLI.run(
            [
                "run", "--operation", "delete", "--strategy", "batch-delete,fetch-delete", "--rows", "500",
                "--out", dir + "/none.csv", "--quiet",
            ], tmpdir: dir)
        let plain = try CLI.rows(dir + "/none.csv")
        #expect(
            none.status == 0 && plain.allSatisfy { ($0["view_objects"] ?? "").isEmpty && $0["result"] != "ids" },
            "\(plain)")
    }
}
