import Foundation
import Testing

/// Child processes, signals and atomic appends: what happens when runs are killed.
@Suite(.serialized) struct ProcessLifecycleTests {
    /// Temporary stores loadgen left in `dir`.
    func leftovers(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasPrefix("loadgen.") }
    }

    func isZombie(_ pid: Int32) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? "").contains("State:\tZ")
    }

    @Test func ctrlCStopsTheChildWritesNoRowAndRemovesTheStore() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let (p, _, _) = CLI.process(
            ["run", "--strategy", "raw-sqlite", "--rows", "50000000", "--out", out, "--progress", "none"],
            tmpdir: dir)
        try p.run()
        // Wait for the child to be writing its store.
        #expect(
            await CLI.waitUntil {
                leftovers(dir).contains { FileManager.default.fileExists(atPath: dir + "/" + $0 + "/store.sqlite") }
            })
        p.interrupt()
        await CLI.exit(of: p)
        #expect(p.terminationReason == .exit && p.terminationStatus == 130)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(leftovers(dir).isEmpty)
    }

    /// Issue 55, item 22: Ctrl-C, SIGTERM or SIGHUP during generate remove its partial file
    /// (130 to 200 MB were left as OUT.tmp-PID) and exit 128 + the signal.
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aStoppedGenerateLeavesNoPartialFile(signal: Int32) async throws {
        let dir = CLI.makeFolder()
        let (p, _, _) = CLI.process(["generate", "--rows", "50000000", "--out", dir + "/big.json", "--quiet"])
        try p.run()
        let partial = {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).contains {
                $0.hasPrefix("big.json.tmp-")
            }
        }
        #expect(await CLI.waitUntil { partial() })
        kill(p.processIdentifier, signal)
        await CLI.exit(of: p)
        #expect(p.terminationReason == .exit && p.terminationStatus == 128 + signal)
        #expect((try FileManager.default.contentsOfDirectory(atPath: dir)).isEmpty)
    }

    /// Issue 55, item 12: an `--input` file replaced between repetitions (3,000 records counted,
    /// 500 read by repetition 3, status ok): the repetitions after the change fail, saying so.
    @Test func anInputFileReplacedDuringTheRunFailsTheRepetitionsThatReadIt() async throws {
        let dir = CLI.makeFolder()
        let feed = dir + "/feed.json"
        let smaller = dir + "/smaller.json"
        let out = dir + "/runs.csv"
        #expect(try await CLI.run(["generate", "--rows", "3000", "--out", feed, "--quiet"]).status == 0)
        #expect(try await CLI.run(["generate", "--rows", "500", "--out", smaller, "--quiet"]).status == 0)
        let (run, _, _) = CLI.process(
            [
                "run", "--strategy", "context-reset", "--input", feed, "--repeat", "10", "--no-limit",
                "--out", out, "--progress", "none",
            ], tmpdir: dir)
        try run.run()
        // A second child means the first repetition is over: replace the file under the rest.
        var first: [Int32] = []
        #expect(
            await CLI.waitUntil {
                first = CLI.children(of: run.processIdentifier)
                return !first.isEmpty
            })
        #expect(
            await CLI.waitUntil {
                let c = CLI.children(of: run.processIdentifier)
                return !c.isEmpty && c != first
            })
        #expect(rename(smaller, feed) == 0)
        await CLI.exit(of: run)
        #expect(run.terminationStatus == 1)
        let rows = try CLI.rows(out)
        #expect(rows.first?["status"] == "ok", "\(rows.first ?? [:])")
        #expect(
            rows.last?["status"] == "failed"
                && rows.last?["error"]?.contains("--input \(feed) changed during the run") == true,
            "\(rows.last ?? [:])")
    }

    @Test func aCrashedChildIsRecordedAndTheRunGoesOn() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let (run, _, _) = CLI.process(
            [
                "run", "--strategy", "raw-sqlite", "--rows", "5000000", "--repeat", "2",
                "--out", out, "--progress", "none",
            ], tmpdir: dir)
        try run.run()
        var first: [Int32] = []
        #expect(
            await CLI.waitUntil {
                first = CLI.children(of: run.processIdentifier)
                return !first.isEmpty
            })
        kill(first[0], SIGKILL)
        // The second repetition starts in a new child; stop it too, so the test stays short.
        #expect(
            await CLI.waitUntil {
                let c = CLI.children(of: run.processIdentifier)
                return !c.isEmpty && c != first
            })
        for c in CLI.children(of: run.processIdentifier) { kill(c, SIGKILL) }
        await CLI.exit(of: run)
        #expect(run.terminationStatus == 1)
        let rows = try CLI.rows(out)
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0["status"] == "crashed" })
        #expect(rows[0]["error"]?.contains("signal 9") == true)
        #expect(rows[1]["error"]?.contains("signal 9") == true)
        #expect(leftovers(dir).isEmpty)
    }

    @Test func killingTheWriterNeverLeavesHalfARow() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let (p, _, _) = CLI.process(
            [
                "run", "--strategy", "raw-sqlite", "--rows", "300", "--repeat", "1000",
                "--out", out, "--progress", "none",
            ], tmpdir: dir)
        try p.run()
        #expect(await CLI.waitUntil { ((try? CLI.rows(out)) ?? []).count >= 3 })
        var child: [Int32] = []
        #expect(
            await CLI.waitUntil {
                child = CLI.children(of: p.processIdentifier)
                return !child.isEmpty
            })
        kill(p.processIdentifier, SIGKILL)
        await CLI.exit(of: p)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let records = try CLI.parseCSV(text)
        #expect(records.count >= 4)
        #expect(records.allSatisfy { $0.count == records[0].count })
        #expect(text.hasSuffix("\r\n"))
        // The orphaned child notices its parent is gone and exits on its own.
        #expect(
            await CLI.waitUntil(seconds: 30) {
                !FileManager.default.fileExists(atPath: "/proc/\(child[0])/status") || isZombie(child[0])
            })
    }
}
