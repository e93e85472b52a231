import Foundation
import Testing

/// Issue 58, item 5: each shell's completion, driven as a user drives it — bash's function
/// called as bash calls it, zsh's file loaded from `$fpath` and a TAB typed into an interactive
/// zsh, fish's `complete -C`. Path flags offer files, closed flags their words (never help's
/// placeholders), comma lists continue, and results operands offer files.
@Suite(.serialized) struct CompletionsTests {
    /// The cases, with what must be offered and what must not; zsh shows a listing, or types the
    /// rest itself where one word or a common part fits (`shows`: what it prints after the line).
    static let cases: [(line: String, offers: [String], never: [String], shows: [String])] = [
        (
            "loadgen run --model ", ["Model 117.xcdatamodel", "results.csv"], ["PATH"],
            ["Model\\ 117.xcdatamodel", "results.csv"]
        ),
        ("loadgen run --out ", ["results.csv", "-"], ["PATH"], ["x.json", "results.csv"]),
        (
            "loadgen export x.csv --format ", ["bmf", "github-bigger-is-better", "terminal"], ["NAME"],
            ["bmf", "github-bigger-is-better", "terminal"]
        ),
        ("loadgen run --strategy batch,con", ["batch,context-reset", "batch,context-noreset"], [], ["text-"]),
        ("loadgen run --add-constraint ", ["none"], ["ATTRIBUTE[+ATTRIBUTE]"], ["none"]),
        ("loadgen compare resu", ["results.csv"], [], ["lts.csv"]),
    ]

    /// A folder with the files the cases complete.
    static func folder() throws -> String {
        let dir = CLI.makeFolder()
        for name in ["results.csv", "Model 117.xcdatamodel", "x.json"] {
            _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data())
        }
        return dir
    }

    /// Runs `program` with `arguments` in `dir` and returns what it printed.
    static func output(_ program: String, _ arguments: [String], in dir: String) async throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = await CLI.readToEnd(out)
        await CLI.exit(of: p)
        return String(decoding: data, as: UTF8.self)
    }

    static func completions(_ shell: String, in dir: String) async throws -> String {
        let r = try await CLI.run(["completions", shell])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    @Test func bashCompletesFilesWordsAndLists() async throws {
        let dir = try Self.folder()
        try await Self.completions("bash", in: dir).write(
            toFile: dir + "/loadgen.bash", atomically: true, encoding: .utf8)
        var script = "source ./loadgen.bash\n"
        for (line, _, _, _) in Self.cases {
            let words = line.split(separator: " ", omittingEmptySubsequences: false).map { "'\($0)'" }.joined(
                separator: " ")
            script += "COMP_WORDS=(\(words)); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _loadgen 2>/dev/null\n"
            script += "printf '%s|' '\(line)=>' \"${COMPREPLY[@]}\"; echo\n"
        }
        let out = try await Self.output("/bin/bash", ["-c", script], in: dir)
        Self.check(out, shell: "bash") { line in
            out.components(separatedBy: "\n").first { $0.hasPrefix(line + "=>") }?
                .split(separator: "|").dropFirst().map(String.init) ?? []
        }
    }

    @Test func fishCompletesFilesWordsAndLists() async throws {
        let dir = try Self.folder()
        try await Self.completions("fish", in: dir).write(
            toFile: dir + "/loadgen.fish", atomically: true, encoding: .utf8)
        var script = "source ./loadgen.fish\n"
        for (line, _, _, _) in Self.cases {
            script += "echo '\(line)=>'(complete -C'\(line)' | string split -f1 \\t | string join '|')\n"
        }
        let out = try await Self.output("/usr/bin/fish", ["-c", script], in: dir)
        Self.check(out, shell: "fish") { line in
            (out.components(separatedBy: "\n").first { $0.hasPrefix(line + "=>") }?.dropFirst(line.count + 2) ?? "")
                .split(separator: "|").map(String.init)
        }
    }

    /// zsh runs `_loadgen` from a folder of `$fpath` (the file is never sourced): a TAB is typed
    /// into an interactive zsh on a pseudo-terminal and the listing it prints is read back.
    @Test func zshCompletesFromFpath() async throws {
        let dir = try Self.folder()
        try FileManager.default.createDirectory(atPath: dir + "/functions", withIntermediateDirectories: true)
        try await Self.completions("zsh", in: dir).write(
            toFile: dir + "/functions/_loadgen", atomically: true, encoding: .utf8)
        var script = "zmodload zsh/zpty\nsetopt extendedglob\n"
        for (n, (line, _, _, shows)) in Self.cases.enumerated() {
            // Typed, then read until the last thing it must show shows (a slow machine takes
            // longer, never another answer); the bound, five minutes, only keeps a broken
            // completion from hanging the suite.
            script += """
                zpty z\(n) zsh -f -i
                zpty -w z\(n) 'fpath=(\(dir)/functions $fpath); autoload -U compinit; compinit -u -D; PS1="> "; setopt autolist; unsetopt beep'
                zpty -w -n z\(n) '\(line)'$'\\t'
                all=""; for i in {1..1500}; do while zpty -r -t z\(n) out 2>/dev/null; do all+="$out"; done; [[ $all == *\(Self.zshPattern(shows.last!))* ]] && break; sleep 0.2; done
                zpty -d z\(n)
                print -r -- '\(line)=>'"${all//$'\\e'\\[[0-9;?]#[A-Za-z]/}" | tr -d '\\r' | tr '\\n' '|'; echo

                """
        }
        let out = try await Self.output("/usr/bin/zsh", ["-f", "-c", script], in: dir)
        for (line, _, never, shows) in Self.cases {
            let seen = out.components(separatedBy: "\n").first { $0.hasPrefix(line + "=>") } ?? ""
            // What zsh printed after the line was typed: its listing, or the line completed.
            let after = seen.components(separatedBy: line.trimmingCharacters(in: .whitespaces)).dropFirst().joined(
                separator: " ")
            for text in shows { #expect(after.contains(text), "zsh: \(line)<TAB> shows \(after), not \(text)") }
            for word in never { #expect(!after.contains(word), "zsh: \(line)<TAB> offers the placeholder \(word)") }
        }
    }

    /// A word as a zsh glob matches it literally.
    static func zshPattern(_ word: String) -> String {
        word.replacingOccurrences(of: " ", with: "\\ ").replacingOccurrences(of: "-", with: "\\-")
            .replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "+", with: "\\+")
    }

    static func check(_ out: String, shell: String, offered: (String) -> [String]) {
        for (line, offers, never, _) in cases {
            let got = offered(line)
            for word in offers {
                #expect(got.contains(word), "\(shell): \(line)<TAB> offers \(got), not \(word)\n\(out)")
            }
            for word in never { #expect(!got.contains(word), "\(shell): \(line)<TAB> offers the placeholder \(word)") }
        }
    }
}
