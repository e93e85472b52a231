import Foundation
import Testing

/// The files and folders the docs name exist: two sessions in a row found docs the code had
/// outgrown (DESIGN.md's five claims, ENGINE.md's four), and a path is the one kind of claim a test
/// can read. ENGINE.md's "Where" column, and every backticked path in the README, DESIGN.md,
/// ENGINE.md and the docs by task, must name a file or folder of the checkout.
@Suite struct DocsPathTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL.path

    /// Every file of the checkout under the folders docs name, relative to the root.
    static let files: [String] = ["Sources", "Tests", "docs", "scripts", "bench"].flatMap { top in
        (FileManager.default.enumerator(atPath: root + "/" + top)?.compactMap { $0 as? String } ?? []).map {
            top + "/" + $0
        }
    }

    /// Whether `path` names a file or folder: from the root, from `Sources/` or a module's folder
    /// (ENGINE.md's "Where" column is relative to the engine's), or a bare file name anywhere.
    static func exists(_ path: String) -> Bool {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        if FileManager.default.fileExists(atPath: root + "/" + trimmed) { return true }
        if !trimmed.contains("/") { return files.contains { $0.hasSuffix("/" + trimmed) } }
        return files.contains { file in
            file == "Sources/" + trimmed || file.hasPrefix("Sources/" + trimmed + "/")
                || file.contains("/" + trimmed + "/")
                || file.hasSuffix("/" + trimmed)
        }
    }

    /// A backticked word that is a path of the checkout, not a pattern (`<Name>Strategy.swift`,
    /// `RunPlan*.swift`), a shorthand (`+Merge.swift`) or a file a run writes (`results/…`).
    static func isCheckoutPath(_ word: String) -> Bool {
        guard !word.contains(" "), !word.contains("<"), !word.contains("*"), !word.hasPrefix("+"),
            !word.hasPrefix("results/"),
            !word.hasPrefix("/"), !word.hasPrefix("."), !word.contains("$")
        else { return false }
        return word.hasSuffix(".swift") || word.hasSuffix(".gnuplot")
            || (word.contains("/") && word.hasSuffix("/") && word.first!.isUppercase)
    }

    static func text(_ file: String) throws -> String { try String(contentsOfFile: root + "/" + file, encoding: .utf8) }

    /// The docs that name the code's files, so the check must find paths in each.
    static let guides = ["README.md", "docs/DESIGN.md", "docs/ENGINE.md"]
    /// The docs by task that the README's body moved into (issue 57): each path they name exists,
    /// but some name none.
    static let taskDocs = [
        "docs/STRATEGIES.md", "docs/YOUR-MODEL.md", "docs/COMMANDS.md", "docs/READING-RESULTS.md", "docs/GATES.md",
    ]

    @Test(arguments: guides + taskDocs)
    func backtickedPathsExist(_ doc: String) throws {
        let words = try Self.text(doc).split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        let paths = words.filter(Self.isCheckoutPath)
        #expect(!paths.isEmpty || Self.taskDocs.contains(doc), "\(doc): no path was read")
        for path in paths { #expect(Self.exists(path), "\(doc) names \(path), which is not in the checkout") }
    }

    /// Issue 57, 5: the README stays a first screen and a map (the rest lives in docs/ by task).
    @Test func theReadmeIsAtMost150Lines() throws {
        let count = try Self.text("README.md").filter { $0 == "\n" }.count   // as `wc -l` counts
        #expect(count <= 150, "README.md has \(count) lines")
    }

    /// The decisions index names every decision file in its folder (0038 was once left out).
    @Test func theDecisionsIndexNamesEveryDecision() throws {
        let folder = Self.root + "/docs/decisions"
        let records = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.hasSuffix(".md") && $0.first?.isNumber == true
        }
        let index = try Self.text("docs/decisions/README.md")
        #expect(records.count >= 45)
        for record in records {
            #expect(index.contains("(\(record))"), "docs/decisions/README.md does not name \(record)")
        }
    }

    /// The check itself: a path that is not there is found out.
    @Test func aMissingPathIsFoundOut() {
        #expect(Self.exists("Store/RowCache.swift") && Self.exists("Report/Charts/") && Self.exists("plots.gnuplot"))
        #expect(!Self.exists("Store/RowCach.swift") && !Self.exists("Report/Chart/") && !Self.exists("Nowhere.swift"))
        #expect(Self.isCheckoutPath("Report/Charts/") && !Self.isCheckoutPath("Strategies/<Name>Strategy.swift"))
    }

    @Test func enginesWhereColumnNamesFilesThatExist() throws {
        let rows = try Self.text("docs/ENGINE.md").split(separator: "\n").filter {
            $0.hasPrefix("| ") && $0.hasSuffix(" |")
        }
        var checked = 0
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let last = cells.last else { continue }
            for place in last.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
            where place.hasSuffix(".swift") || (place.hasSuffix("/") && !place.contains(" ")) {
                #expect(
                    Self.exists("ObjectGraph/" + place) || Self.exists(place),
                    "ENGINE.md's Where names \(place), which is not in Sources")
                checked += 1
            }
        }
        #expect(checked > 30, "the Where column was read (\(checked) places)")
    }
}
