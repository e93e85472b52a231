import Foundation
import Testing

/// Issue 58, items 4 and 6: the main job keeps its rows, a team's model without `--strategy`
/// runs the idioms it can serve, and what a page or a run tells a reader to type next runs from
/// any folder, by whatever launched loadgen.
@Suite struct UsableAnywhereTests {
    static let woo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus/woocommerce-ios/Model 117.xcdatamodel").path

    /// Without `--out` the rows go to a new `results/run-<UTC>.csv` under the current folder,
    /// said last with the commands that read it; with `--out -` they stream and no file is
    /// made; a dry run makes none.
    @Test func aRunWithoutOutKeepsItsRowsAndSaysWhere() async throws {
        let dir = CLI.makeFolder()
        let here = ["LOADGEN_RESULTS": ""]
        let r = try await CLI.run(
            ["run", "--strategy", "batch", "--rows", "300", "--no-limit"], tmpdir: dir, cwd: dir, environment: here)
        #expect(r.status == 0, "\(r.stderr)")
        let made = try FileManager.default.contentsOfDirectory(atPath: dir + "/results")
        #expect(made.count == 1 && made[0].hasPrefix("run-") && made[0].hasSuffix("Z.csv"), "\(made)")
        let path = "results/" + made[0]
        #expect(try CLI.rows(dir + "/" + path).map { $0["strategy"] } == ["batch"])
        let tail = r.stdout.components(separatedBy: "\n").suffix(4).joined(separator: "\n")
        #expect(
            tail.contains("results: \(path)") && tail.contains("\(CLI.invocation) report \(path) --out review/")
                && tail.contains("\(CLI.invocation) plot \(path)"), "\(tail)")
        // A second run in the same folder takes a new file, never the first one's.
        #expect(
            try await CLI.run(
                ["run", "--strategy", "batch", "--rows", "300", "--no-limit"], tmpdir: dir, cwd: dir, environment: here
            ).status == 0)
        let both = try FileManager.default.contentsOfDirectory(atPath: dir + "/results")
        let firstRows = try CLI.rows(dir + "/" + path).count
        #expect(both.count == 2 && firstRows == 1, "\(both)")
        let streamed = try await CLI.run(
            ["run", "--strategy", "batch", "--rows", "300", "--no-limit", "--out", "-"], tmpdir: dir, cwd: dir,
            environment: here)
        #expect(streamed.stdout.hasPrefix("run_id,") && !streamed.stderr.contains("results: "), "\(streamed.stderr)")
        #expect(
            try await CLI.run(
                ["run", "--rows", "300", "--dry-run", "--no-estimate"], tmpdir: dir, cwd: dir, environment: here
            ).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/results").count == 2)
    }

    /// A run that records nothing (refused before its first repetition) leaves no file behind.
    @Test func aRunThatRecordsNothingLeavesNoFile() async throws {
        let dir = CLI.makeFolder()
        let r = try await CLI.run(
            ["run", "--rows", "300", "--max-rss", "nope"], tmpdir: dir, cwd: dir, environment: ["LOADGEN_RESULTS": ""])
        #expect(r.status == 64)
        #expect(!FileManager.default.fileExists(atPath: dir + "/results"))
    }

    /// `run --model M --entity E --key K` with no `--strategy`: on a key without a constraint the
    /// find-or-create idioms run, and the rest are named with `--add-constraint K`.
    @Test func aModelWithoutAStrategyRunsTheIdiomsItServes() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/m.csv"
        let r = try await CLI.run(
            [
                "run", "--model", Self.woo, "--entity", "Product", "--key", "productID", "--relationship", "none",
                "--rows", "300", "--no-limit", "--out", out,
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let ran = Set(try CLI.rows(out).compactMap { $0["strategy"] })
        #expect(ran == ["find-or-create", "find-or-create-cached", "find-or-create-per-row"], "\(ran)")
        // Product's five [Int64] Transformables are generated the size of their archive (decision
        // 0048), said in the notes and, from the rows, on the review page.
        let sized = r.stderr.firstMatch(of: /Product\.crossSellIDs (\d+) bytes/).flatMap { Int($0.1) }
        #expect((229...400).contains(sized ?? 0), "\(r.stderr)")
        #expect(try await CLI.run(["report", out, "--out", dir + "/review", "--no-charts"], tmpdir: dir).status == 0)
        let page = try String(contentsOfFile: dir + "/review/review.md", encoding: .utf8)
        #expect(page.contains("Product.variations \(sized ?? 0) bytes"), "\(page.prefix(2000))")
        #expect(
            r.stdout.contains("batch, batch-upsert, context-reset were not run")
                && r.stdout.contains("--add-constraint productID"),
            "\(r.stdout)")
        let constrained = try await CLI.run([
            "run", "--model", Self.woo, "--entity", "Product", "--key", "productID", "--relationship",
            "none", "--add-constraint", "productID", "--rows", "300", "--no-limit", "--dry-run",
            "--no-estimate",
        ])
        for idiom in ["batch", "batch-upsert", "context-reset", "find-or-create"] {
            #expect(constrained.stdout.contains(": \(idiom)\n"), "\(idiom): \(constrained.stdout)")
        }
    }

    /// A Reproduce block is run by what made the page: `loadgen` when the `loadgen` on the path
    /// is this binary, the checkout's `scripts/loadgen` by its full path when it launched it.
    @Test func theReproduceLineNamesWhatMadeThePage() async throws {
        let dir = CLI.makeFolder()
        let results = dir + "/r.csv"
        #expect(
            try await CLI.run(
                ["run", "--strategy", "batch", "--rows", "300", "--no-limit", "--out", results, "--quiet"], tmpdir: dir
            )
            .status == 0)
        let bin = dir + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/loadgen", withDestinationPath: CLI.binary)
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let installed = try await CLI.run(
            ["report", results, "--out", dir + "/a", "--no-charts"], environment: ["PATH": path])
        #expect(installed.status == 0, "\(installed.stderr)")
        let a = try String(contentsOfFile: dir + "/a/review.md", encoding: .utf8)
        #expect(
            a.contains("With `loadgen` on the path (installed)") && a.contains("\nloadgen run --strategy batch"), "\(a)"
        )
        let launched = try await CLI.run(
            ["report", results, "--out", dir + "/b", "--no-charts"],
            environment: ["LOADGEN_LAUNCHER": "/opt/checkout/scripts/loadgen"])
        let b = try String(contentsOfFile: dir + "/b/review.md", encoding: .utf8)
        #expect(launched.status == 0 && b.contains("\n/opt/checkout/scripts/loadgen run --strategy batch"), "\(b)")
    }
}
