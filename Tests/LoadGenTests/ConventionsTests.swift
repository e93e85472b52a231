import Foundation
import Testing

/// Issue 58, item 5: what scripts read is typed (`list --json`; numbers as numbers in compare's
/// JSON, the text a reader sees beside them), and every variable loadgen reads is in the manual
/// and `--help`.
@Suite struct ConventionsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every `LOADGEN_` name the sources mention (the build's, the runtime's) is in the manual's
    /// ENVIRONMENT section and in `loadgen --help`.
    @Test func everyVariableIsDocumented() async throws {
        var names: Set<String> = []
        let files =
            FileManager.default.enumerator(atPath: Self.root.path + "/Sources")!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") } + ["../Package.swift"]
        // A variable is read by its quoted name; a build condition (`.define("LOADGEN_JEMALLOC")`) is none.
        let pattern = try NSRegularExpression(pattern: "(?<!define\\()\"LOADGEN_[A-Z_]+[A-Z]\"")
        for file in files {
            let text = try String(contentsOfFile: Self.root.path + "/Sources/" + file, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert(
                    String(text[Range(match.range, in: text)!]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                )
            }
        }
        #expect(names.count >= 6, "\(names)")
        let man = try await CLI.run(["man"])
        let help = try await CLI.run(["--help"])
        let environment =
            man.stdout.components(separatedBy: ".SH ENVIRONMENT").dropFirst().first?.components(separatedBy: ".SH ")
            .first ?? ""
        for name in names.sorted() {
            #expect(
                environment.contains(".B " + name.replacingOccurrences(of: "_", with: "_")),
                "\(name) is not in the manual's ENVIRONMENT")
            #expect(help.stdout.contains("\n  " + name + " "), "\(name) is not in loadgen --help")
        }
    }

    /// `list --json`: every strategy, typed.
    @Test func theCatalogueAsJSON() async throws {
        let r = try await CLI.run(["list", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let strategies = try #require(object["strategies"] as? [[String: Any]])
        let text = try await CLI.run(["list"]).stdout
        for s in strategies { #expect(text.contains("  " + (s["name"] as? String ?? "?") + " ")) }
        let batch = try #require(strategies.first { $0["name"] as? String == "batch" })
        #expect(
            batch["default_batch_size"] as? Int == 5000 && batch["operation"] as? String == "import"
                && batch["limit"] as? Bool == false)
        #expect((object["datasets"] as? [[String: Any]])?.map { $0["name"] as? String } == ["expenses", "photos"])
    }

    /// compare's JSON: a figure that moved is a number, its change a fraction; the text beside.
    @Test func compareWritesNumbersAsNumbers() async throws {
        let dir = CLI.makeFolder()
        let inputs = Self.root.path + "/Tests/Golden/inputs"
        let base = try String(contentsOfFile: inputs + "/baseline.csv", encoding: .utf8)
        // Written as RFC 4180 says, lines end in CRLF (one Character to Swift).
        var lines = base.components(separatedBy: "\r\n")
        let header = lines[0].components(separatedBy: ",")
        let id = header.firstIndex(of: "run_id")!
        let sql = header.firstIndex(of: "sql_statements")!
        for i in lines.indices.dropFirst() where !lines[i].isEmpty {
            var cells = lines[i].components(separatedBy: ",")
            cells[id] = "x" + cells[id]
            if let n = Int(cells[sql]) { cells[sql] = String(n * 2) }
            lines[i] = cells.joined(separator: ",")
        }
        try lines.joined(separator: "\r\n").write(toFile: dir + "/now.csv", atomically: true, encoding: .utf8)
        let r = try await CLI.run([
            "compare", inputs + "/baseline.csv", dir + "/now.csv", "--json", dir + "/work.json", "--cross-machine",
        ])
        #expect(r.status == 1, "\(r.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/work.json")))
                as? [String: Any])
        let regressions = try #require(object["regressions"] as? [[String: Any]])
        let moved = try #require(regressions.first { $0["figure"] as? String == "sql_statements" })
        let (before, now) = (try #require(moved["baseline"] as? Double), try #require(moved["now"] as? Double))
        #expect(now == before * 2 && moved["change"] as? Double == 1, "\(moved)")
        #expect(
            (moved["baseline_text"] as? String)?.isEmpty == false
                && (moved["change_text"] as? String)?.hasPrefix("+") == true, "\(moved)")
    }

    /// A copy of the golden baseline as another night (run ids of its own), with `edit` applied
    /// to each row's cells by column name.
    static func night(_ edit: (inout [String], [String: Int]) -> Void, in dir: String, name: String) throws -> String {
        let base = try String(contentsOfFile: root.path + "/Tests/Golden/inputs/baseline.csv", encoding: .utf8)
        var lines = base.components(separatedBy: "\r\n")
        let header = Dictionary(
            uniqueKeysWithValues: lines[0].components(separatedBy: ",").enumerated().map { ($1, $0) })
        for i in lines.indices.dropFirst() where !lines[i].isEmpty {
            var cells = lines[i].components(separatedBy: ",")
            cells[header["run_id"]!] = "x" + cells[header["run_id"]!]
            edit(&cells, header)
            lines[i] = cells.joined(separator: ",")
        }
        let path = dir + "/" + name
        try lines.joined(separator: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Issue 58, item 1: the gate's work part never says "compared exactly" of figures it did
    /// not judge. Another CPU (or SQLite) cannot be judged exactly: exit 2, saying why. Another
    /// Swift on one machine is part of the change: judged, and said.
    @Test func theWorkPartJudgesOneMachineOrNothing() async throws {
        let dir = CLI.makeFolder()
        let base = Self.root.path + "/Tests/Golden/inputs/baseline.csv"
        let cpu = try Self.night({ cells, h in cells[h["cpu_model"]!] = "Other CPU" }, in: dir, name: "cpu.csv")
        let r = try await CLI.run(["compare", base, cpu, "--work-only", "--json", dir + "/w.json"])
        #expect(r.status == 2 && r.stderr.contains("repeat exactly only on one machine"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/w.json"))
        let swift = try Self.night(
            { cells, h in
                cells[h["swift_version"]!] = "9.9"
                if let n = Int(cells[h["sql_statements"]!]) { cells[h["sql_statements"]!] = String(n + 100) }
            }, in: dir, name: "swift.csv")
        let s = try await CLI.run(["compare", base, swift, "--work-only"])
        #expect(
            s.status == 1 && s.stdout.contains("Another Swift on one machine") && s.stdout.contains("sql_statements"),
            "\(s.stdout)")
    }
}
