import Foundation
import Testing

/// What a user reads, pinned (issue 31, item 4): every command's `--help`, the terminal summary,
/// the Markdown and dashboard exports, the review page and a compare report, from the fixed
/// results under `Tests/Golden/inputs`, checked against the files beside them. A change to any of
/// them shows as a diff in review: `scripts/golden` rewrites the files from the current build.
@Suite struct GoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Golden").standardizedFileURL.path
    static let inputs = folder + "/inputs"

    /// Compares `actual` with `Tests/Golden/<name>`, or writes it there under `LOADGEN_GOLDEN=write`.
    func check(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = Self.folder + "/" + name
        if ProcessInfo.processInfo.environment["LOADGEN_GOLDEN"] == "write" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("Tests/Golden/\(name) is missing: scripts/golden writes it", sourceLocation: sourceLocation)
            return
        }
        guard expected != actual else { return }
        let a = expected.components(separatedBy: "\n")
        let b = actual.components(separatedBy: "\n")
        let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        Issue.record(
            """
            \(name) differs from Tests/Golden/\(name) at line \(line + 1) (scripts/golden rewrites it if the change is meant):
              expected: \(line < a.count ? a[line] : "<end>")
              actual:   \(line < b.count ? b[line] : "<end>")
            """, sourceLocation: sourceLocation)
    }

    /// Runs loadgen in the inputs folder (so paths in outputs are the files' names alone).
    func output(_ arguments: [String], status: Int32 = 0) async throws -> String {
        // As if the checkout's scripts/loadgen at a fixed path launched it: a page names what
        // launched it, and the test binary's own path differs from machine to machine.
        let r = try await CLI.run(
            arguments, cwd: Self.inputs, environment: ["LOADGEN_LAUNCHER": "/checkout/scripts/loadgen"])
        #expect(r.status == status, "loadgen \(arguments.joined(separator: " ")): \(r.stderr)")
        return r.stdout
    }

    /// Every command the binary's `--help` lists has its `--help` pinned: a new command gets a
    /// golden file (scripts/golden writes it), none is left out by a list kept here.
    @Test func helpOfEveryCommand() async throws {
        let help = try await output(["--help"])
        try check("help/loadgen.txt", help)
        let commands = Self.commands(help)
        #expect(commands.count >= 10 && commands.contains("run") && commands.contains("man"), "\(commands)")
        for command in commands { try check("help/\(command).txt", try await output([command, "--help"])) }
    }

    /// Every format `export --help` offers has its output pinned, read from the binary likewise.
    @Test func exports() async throws {
        let formats = Self.formats(try await output(["export", "--help"]))
        #expect(formats.count >= 7 && formats.contains("bmf"), "\(formats)")
        for format in formats {
            try check("export/\(format).txt", try await output(["export", "results.csv", "--format", format]))
        }
    }

    /// The names under `Commands:` in `loadgen --help`.
    static func commands(_ help: String) -> [String] {
        let lines = help.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "Commands:") else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
    }

    /// The values of `--format NAME  one of: a, b, c` in a command's `--help`.
    static func formats(_ help: String) -> [String] {
        guard
            let line = help.components(separatedBy: "\n").first(where: {
                $0.contains("--format NAME") && $0.contains("one of: ")
            }),
            let list = line.components(separatedBy: "one of: ").last
        else { return [] }
        return list.components(separatedBy: ", ").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Issue 47, 1: what a pull request shows — the comment and the annotations — rendered from
    /// fixed verdicts (a work part with two regressions, a time part with a slowdown and a
    /// configuration one side lacks), and the clean case from compare's own JSON of the inputs.
    @Test func thePullRequestsCommentAndAnnotations() async throws {
        let verdicts = ["--work", "verdict-work.json", "--time", "verdict-ab.json"]
        try await check(
            "verdict/comment.md", try output(["verdict"] + verdicts + ["--link", "https://example.invalid/runs/1"]))
        try await check("verdict/annotations.txt", try output(["verdict"] + verdicts + ["--format", "annotations"]))
        let dir = CLI.makeFolder()
        _ = try await output(["compare", "baseline.csv", "results.csv", "--json", dir + "/work.json"])
        try await check("verdict/clean.md", try output(["verdict", "--work", dir + "/work.json"]))
    }

    @Test func comparisonReport() async throws {
        try await check("compare.md", try output(["compare", "baseline.csv", "results.csv"]))
    }

    @Test func reviewPage() async throws {
        let dir = CLI.makeFolder()
        _ = try await output(["report", "results.csv", "--no-charts", "--out", dir])
        try check("review.md", try String(contentsOfFile: dir + "/review.md", encoding: .utf8))
    }

    /// `export` without a format, with one it does not know, or without a file: a usage error
    /// naming the accepted formats; a file it cannot read: 66.
    @Test func exportRefusesWhatItCannotDo() async throws {
        for (arguments, status, mentions) in [
            (["results.csv"], 64, "--format is required: give one of terminal, markdown"),
            (["results.csv", "--format", "csv"], 64, "--format 'csv' is not a format"),
            (["--format", "bmf"], 64, "expects one or more results CSV files"),
            (["missing.csv", "--format", "bmf"], 66, "missing.csv"),
            (
                ["results.csv", "--format", "bmf", "--out", "./results.csv"], 64,
                "is one of the results files it reads"
            ),
        ] as [([String], Int32, String)] {
            let r = try await CLI.run(["export"] + arguments, cwd: Self.inputs)
            #expect(r.status == status && r.stderr.contains(mentions), "\(arguments): \(r.stderr)")
        }
    }
}
