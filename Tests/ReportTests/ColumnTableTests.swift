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
}
