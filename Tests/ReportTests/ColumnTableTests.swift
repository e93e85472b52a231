import Foundation
import Testing

@testable import Report

/// results/README.md's table of columns is the one `ResultRow.columns` makes (issue 31, item 1):
/// a column added, judged or tracked shows there; `scripts/golden` (LOADGEN_GOLDEN=write) rewrites it.
@Suite struct ColumnTableTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../results/README.md").standardizedFileURL.path

    @Test func theReadmesTableIsTheColumns() throws {
        let text = try String(contentsOfFile: Self.readme, encoding: .utf8)
        let begin = try #require(text.range(of: ColumnTable.begin))
        let end = try #require(text.range(of: ColumnTable.end))
        let table = ColumnTable.markdown()
        if ProcessInfo.processInfo.environment["LOADGEN_GOLDEN"] == "write" {
            let rewritten = String(text[..<begin.upperBound]) + "\n" + table + String(text[end.lowerBound...])
            try rewritten.write(toFile: Self.readme, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            String(text[begin.upperBound..<end.lowerBound]) == "\n" + table,
            "results/README.md's table of columns is not ResultRow.columns': scripts/golden rewrites it")
        #expect(ResultRow.columns.allSatisfy { table.contains("| `\($0.name)` |") })
    }

    /// Every key names one column of the table, in the table's order, and every column has its
    /// key: `ResultRow.index(of:)` cannot miss.
    @Test func everyKeyIsAColumnOfTheTable() {
        #expect(Column.declared.map(\.name) == ResultRow.columns.map(\.name))
        #expect(Set(Column.declared).count == Column.declared.count)
        #expect(Column.declared.allSatisfy { ResultRow.column($0).column == $0 })
    }
}

/// No results column is named by a string outside its declaration (issue 57, item 1): the
/// modules that read, write, judge, export or chart results name columns through `Column`, so a
/// rename is a compile error. A literal that equals a column's name but is something else (an
/// `--objective` value, a timeline field, a JSON key) says so on the line above:
/// `// not a results column: …`.
@Suite struct ColumnNameTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources").standardizedFileURL.path
    /// The modules whose strings could name a results column (the engine, the generator and
    /// the host know no results file).
    static let modules = ["Report", "Strategies", "LoadGen"]
    /// The declarations: the keys, and the rules table that gives each its rules.
    static let declarations = ["Report/Results/Column.swift", "Report/Results/ResultRow.swift"]

    @Test func noColumnNameIsWrittenAsAString() throws {
        let names = Set(Column.declared.map(\.name))
        var found: [String] = []
        for module in Self.modules {
            let folder = Self.sources + "/" + module
            for file in FileManager.default.enumerator(atPath: folder)?.compactMap({ $0 as? String }) ?? []
            where file.hasSuffix(".swift") && !Self.declarations.contains(module + "/" + file) {
                let lines = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                    .split(separator: "\n", omittingEmptySubsequences: false)
                for (i, line) in lines.enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : line
                    guard i == 0 || !lines[i - 1].contains("// not a results column") else { continue }
                    for literal in code.matches(of: /"([a-z0-9_]+)"/) where names.contains(String(literal.1)) {
                        found.append("\(module)/\(file):\(i + 1): \"\(literal.1)\"")
                    }
                }
            }
        }
        #expect(found.isEmpty, "name these columns through Column (Column.swift):\n\(found.joined(separator: "\n"))")
    }
}
