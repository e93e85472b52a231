import Foundation
import Host
import Report

/// A recorded `loadgen run` command line made into one a reader can paste: run by what made the
/// page (`invocation`: `loadgen` on the path, or the checkout's `scripts/loadgen` by its full
/// path, so it runs from any folder), and every file the run wrote (`--out`, `--timeline`, `--markdown`,
/// `--summary-csv`, a kept `--store`) moved into a fresh folder, so that a rerun never appends to
/// the rows it reproduces nor replaces their store.
enum Rerun {
    /// The options whose value is a file the run writes.
    static let outputs: Set<String> = ["--out", "--timeline", "--markdown", "--summary-csv", "--store"]

    /// How a reader runs this loadgen again, from any folder: the checkout's `scripts/loadgen`
    /// when it launched this one (it says so in `LOADGEN_LAUNCHER`, by full path: it builds what
    /// is missing), else `loadgen` when the `loadgen` on the path is this binary (an install),
    /// else this binary's full path. A page that said `scripts/loadgen` exited 127 outside the
    /// checkout (issue 58, item 4).
    static var invocation: String {
        let environment = ProcessInfo.processInfo.environment
        if let launcher = environment[launcherVariable], launcher.hasPrefix("/") { return Runner.shellQuoted(launcher) }
        let me = URL(fileURLWithPath: Host.executablePath).resolvingSymlinksInPath().path
        for folder in (environment["PATH"] ?? "").split(separator: ":") where folder.hasPrefix("/") {
            let candidate = URL(fileURLWithPath: String(folder) + "/loadgen").resolvingSymlinksInPath().path
            if candidate == me { return "loadgen" }
        }
        return Runner.shellQuoted(me)
    }

    /// Set by `scripts/loadgen` to its own full path.
    static let launcherVariable = "LOADGEN_LAUNCHER"

    /// What `invocation` is, for the sentence above a Reproduce block.
    static var invocationSaid: String {
        let command = invocation
        if command == "loadgen" { return "With `loadgen` on the path (installed)" }
        if ProcessInfo.processInfo.environment[launcherVariable] != nil {
            return "With the checkout's `\(command)` (it builds what is missing)"
        }
        return "With the binary that wrote this page, `\(command)`"
    }

    /// The folder a rerun writes into: a new one each time the line runs.
    static let folder = "rerun-$(date +%Y%m%d-%H%M%S)"

    /// The pasteable lines for `command` ("loadgen run …"), or nil when it is not one whose options
    /// parse (a hand-edited cell is never pasted into a shell block).
    static func lines(_ command: String) -> String? {
        guard var words = shellWords(command), words.count >= 2, words[0] == "loadgen", words[1] == "run",
            (try? Arguments(command: "run", arguments: Array(words.dropFirst(2)), specs: RunPlan.specs + Suite.specs))
                != nil
        else { return nil }
        words[0] = invocation
        var wrote = false
        var i = 1
        while i < words.count {
            var word = words[i]
            var value: String?
            if let eq = word.firstIndex(of: "="), outputs.contains(String(word[..<eq])) {
                value = String(word[word.index(after: eq)...])
                word = String(word[..<eq])
                words[i] = word
                words.insert(value!, at: i + 1)
            } else if outputs.contains(word), i + 1 < words.count {
                value = words[i + 1]
            }
            if let value, value != "-", value != "memory", !value.hasPrefix("/dev/") {
                let name = URL(fileURLWithPath: value).lastPathComponent
                words[i + 1] = "\"$out\"/" + Runner.shellQuoted(name)
                wrote = true
                i += 2
                continue
            }
            // A file of the checkout (a suite, a model) is named from the checkout, where the line runs.
            if let root = Checkout.root, words[i].hasPrefix(root + "/") {
                words[i] = String(words[i].dropFirst(root.count + 1))
            }
            words[i] = Runner.shellQuoted(words[i])
            i += 1
        }
        // Every word is now as the shell must read it.
        let line = words.joined(separator: " ")
        return wrote ? "out=\(folder); mkdir -p \"$out\"\n\(line)" : line
    }

    /// The words of a line as a POSIX shell splits it, for the quoting `Runner.shellQuoted`
    /// writes (single quotes, `'\''` inside them); nil for anything else.
    static func shellWords(_ line: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quoted = false
        var escaped = false
        for ch in line {
            if escaped {
                word.append(ch)
                escaped = false
            } else if quoted {
                if ch == "'" { quoted = false } else { word.append(ch) }
            } else if ch == "'" {
                quoted = true
                inWord = true
            } else if ch == "\\" {
                escaped = true
                inWord = true
            } else if ch == " " {
                if inWord {
                    words.append(word)
                    word = ""
                    inWord = false
                }
            } else {
                word.append(ch)
                inWord = true
            }
        }
        guard !quoted, !escaped else { return nil }
        if inWord { words.append(word) }
        return words
    }
}
