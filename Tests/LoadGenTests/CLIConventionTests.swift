import Foundation
import Testing

/// Issue 47, 6: the command line follows Swift's conventions — `-h`, `help COMMAND`, shell
/// completions and a man page made from the same help, the exit statuses in one table.
@Suite struct CLIConventionTests {
    static let commands = [
        "run", "list", "generate", "compare", "ab", "plot", "report", "export", "verdict", "completions", "man",
    ]

    /// The doc whose exit-status table the man page's is (the README's, before issue 57 moved it).
    static let exitTableDoc = "docs/COMMANDS.md"

    @Test(arguments: commands)
    func dashHAndHelpCommandAreTheCommandsHelp(command: String) async throws {
        let help = try await CLI.run([command, "--help"])
        #expect(help.status == 0 && help.stdout.contains("Usage: loadgen \(command)"), "\(help.stdout)")
        for words in [[command, "-h"], ["help", command]] {
            let other = try await CLI.run(words)
            #expect(other.status == 0 && other.stdout == help.stdout, "\(words): \(other.stderr)")
        }
    }

    @Test func helpOfAnUnknownCommandSaysWhatThereIs() async throws {
        let r = try await CLI.run(["help", "runn"])
        #expect(r.status == 64 && r.stderr.contains("unknown command 'runn'; expected run, list"), "\(r.stderr)")
    }

    /// bash's completion function, sourced and asked as bash asks: commands, a command's options,
    /// a closed set of values (strategies), `help`'s topics. zsh loads the same through
    /// bashcompinit; fish's lines each complete loadgen.
    @Test func completionsCompleteCommandsOptionsAndValues() async throws {
        let dir = CLI.makeFolder()
        let bash = try await CLI.run(["completions", "bash"])
        #expect(bash.status == 0)
        try bash.stdout.write(toFile: dir + "/c.bash", atomically: true, encoding: .utf8)
        let script = """
            source "$1"
            ask() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _loadgen; echo "${COMPREPLY[*]}"; }
            ask loadgen co; ask loadgen run --str; ask loadgen run --strategy find-or; ask loadgen help ex
            ask loadgen compare --wo; ask loadgen run --operation u
            """
        let asked = try await NightlyGateTests().run("/bin/bash", ["-c", script, "bash", dir + "/c.bash"])
        let lines = asked.output.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "compare completions", "--strategy --string-length",
                "find-or-create find-or-create-per-row find-or-create-cached find-or-create-writers", "export",
                "--work-only", "update",
            ], "\(asked.output)")
        let zsh = try await CLI.run(["completions", "zsh"])
        #expect(
            zsh.stdout.hasPrefix("#compdef loadgen\n") && zsh.stdout.contains("bashcompinit")
                && zsh.stdout.contains("complete -F __loadgen_bash loadgen"))
        let fish = try await CLI.run(["completions", "fish"])
        // Every line a `complete` but the comma-list helper's function (CompletionsTests drives it).
        let helper = fish.stdout.components(separatedBy: "\nend\n").dropFirst().joined()
        let fishLines = helper.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(
            fish.stdout.contains("function __loadgen_list") && !fishLines.isEmpty
                && fishLines.allSatisfy { $0.hasPrefix("complete -c loadgen ") },
            "\(fishLines.first { !$0.hasPrefix("complete") } ?? "")")
        #expect(
            fish.stdout.contains("-l max-rss") && fish.stdout.contains("-a 'rate rss latency'"),
            "\(fish.stdout.prefix(400))")
        let none = try await CLI.run(["completions", "tcsh"])
        #expect(none.status == 64 && none.stderr.contains("bash, zsh or fish"))
    }

    /// Issue 47, 7: `LOADGEN_SQL_DEBUG=1` speaks Core Data's `-com.apple.CoreData.SQLDebug 1`:
    /// `CoreData: sql:` with the statement as prepared (parameters as `?`, never a value), a fetch
    /// followed by its two annotations, the second counting the rows.
    @Test func theSQLLogIsInCoreDatasShape() async throws {
        let dir = CLI.makeFolder()
        let r = try await CLI.run(
            [
                "run", "--strategy", "prefetch", "--rows", "40", "--repeat", "1", "--no-limit", "--quiet",
                "--out", dir + "/r.csv",
            ], tmpdir: dir, environment: ["LOADGEN_SQL_DEBUG": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("CoreData: ") }
        #expect(
            lines.allSatisfy { $0.hasPrefix("CoreData: sql: ") || $0.hasPrefix("CoreData: annotation: ") },
            "\(lines.prefix(5))")
        let insert = try #require(lines.first { $0.hasPrefix("CoreData: sql: INSERT INTO ZEXPENSE(") })
        #expect(insert.hasSuffix("?)") && !insert.contains("'"), "\(insert)")
        let fetch = try #require(
            lines.firstIndex { $0.hasPrefix("CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZCATEGORY t0") })
        #expect(
            lines[fetch + 1].hasPrefix("CoreData: annotation: sql connection fetch time: ")
                && lines[fetch + 1].hasSuffix("s."))
        #expect(
            lines[fetch + 2].range(
                of: #"^CoreData: annotation: total fetch execution time: \d+\.\d{4}s for \d+ rows\.$"#,
                options: .regularExpression) != nil, "\(lines[fetch + 2])")
    }

    /// The man page names every command and every option `--help` lists, renders without a
    /// warning where groff is installed, and its exit statuses are the docs' table (`exitTableDoc`).
    @Test func theManPageIsTheHelpAndTheExitTableIsTheReadmes() async throws {
        let man = try await CLI.run(["man"])
        #expect(man.status == 0 && man.stdout.hasPrefix(".TH LOADGEN 1"))
        for command in Self.commands { #expect(man.stdout.contains(".B \(command)\n"), "\(command)") }
        let runHelp = try await CLI.run(["run", "--help"])
        let options = runHelp.stdout.split(separator: "\n").compactMap { line -> String? in
            let word = line.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
            return word.hasPrefix("--") && word != "--help" ? word : nil
        }
        #expect(
            options.count > 30
                && options.allSatisfy { man.stdout.contains(".B \($0.replacingOccurrences(of: "-", with: "\\-"))") })
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") {
            let dir = CLI.makeFolder()
            try man.stdout.write(toFile: dir + "/loadgen.1", atomically: true, encoding: .utf8)
            let rendered = try await NightlyGateTests().run(
                "/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", dir + "/loadgen.1"])
            #expect(rendered.status == 0 && rendered.output.isEmpty, "\(rendered.output)")
        }
        // The EXIT STATUS section as table rows, against the docs'.
        let section = man.stdout.components(separatedBy: ".SH EXIT STATUS\n")[1].components(separatedBy: ".SH")[0]
        let statuses = section.components(separatedBy: ".TP\n.B ").dropFirst().map { entry -> String in
            let parts = entry.split(separator: "\n", maxSplits: 1).map(String.init)
            let text = parts[1].trimmingCharacters(in: .newlines).replacingOccurrences(of: "\\-", with: "-")
            let name = text.components(separatedBy: ": ")[0]
            return "| \(parts[0]) | \(name) | \(text.dropFirst(name.count + 2)) |"
        }
        let doc = try String(contentsOfFile: NightlyGateTests.checkout + "/" + Self.exitTableDoc, encoding: .utf8)
        #expect(statuses.count == 12 && statuses.allSatisfy { doc.contains($0 + "\n") }, "\(statuses)")
    }
}
