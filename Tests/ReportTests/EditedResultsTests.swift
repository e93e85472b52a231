import Foundation
import Testing

@testable import Report

/// A results file is read as loadgen wrote it or refused: a row whose figures the verifier would
/// have failed, marked ok by hand, must not be recommended (issue 55, item 13).
@Suite struct EditedResultsTests {
    /// The header and one ok row per cell map, written to a file of its own.
    func file(_ rows: [[String: String]]) throws -> String {
        let path = NSTemporaryDirectory() + "loadgen-edited-\(UUID().uuidString).csv"
        var text = CSV.line(ResultRow.header)
        for (i, cells) in rows.enumerated() {
            var row = ComparisonTests.row("batch", "a1-\(i + 1)")
            row.identity.command = "loadgen run --strategy batch --rows 1000"
            row.parameters = ParameterValues(
                Dictionary(uniqueKeysWithValues: ResultRow.parameterColumns.map { ($0.name, "") })
                    .merging([
                        "strategy": "batch", "rows": "1000", "unique_keys": "1000", "dup_rate": "0",
                        "operation": "import",
                    ]) { $1 })
            var fields = Dictionary(uniqueKeysWithValues: zip(ResultRow.header, row.fields))
            fields.merge(cells) { $1 }
            text += CSV.line(ResultRow.header.map { fields[$0] ?? "" })
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func refusal(_ rows: [[String: String]]) throws -> String? {
        let path = try file(rows)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try ResultsReader.rows(path)
            return nil
        } catch {
            guard case .malformed(_, let line, let message) = error else { return "not malformed: \(error)" }
            return "\(line): \(message)"
        }
    }

    @Test func anUneditedFileReads() throws {
        #expect(try refusal([[:], [:]]) == nil)
    }

    @Test(arguments: [
        (["leaked_connections": "2"], "2: status ok with leaked_connections 2"),
        (["unexpected_rows": "17"], "2: status ok with unexpected_rows 17"),
        (["duplicates": "40"], "2: status ok with duplicates 40 and dup_rate 0"),
        (["store_rows": "900"], "2: status ok with store_rows 900 below unique_keys 1000"),
    ])
    func aRowTheVerifierWouldHaveFailedIsRefused(cells: [String: String], refusal expected: String) throws {
        let found = try refusal([cells])
        #expect(found?.hasPrefix(expected) == true, "\(found ?? "read")")
    }

    /// The same figures are what they are when the run failed, or when records did repeat.
    @Test func theSameFiguresReadWhereTheyCanBeTrue() throws {
        #expect(try refusal([["leaked_connections": "2", "status": "failed"]]) == nil)
        #expect(try refusal([["duplicates": "40", "dup_rate": "0.1", "store_rows": "1040"]]) == nil)
        #expect(try refusal([["store_rows": "900", "operation": "delete"]]) == nil)
    }

    /// One run id, two command lines: rows of two runs joined under one id (its conclusion was
    /// "Nothing to compare", twice).
    @Test func oneRunWithTwoCommandLinesIsRefused() throws {
        let found = try refusal([[:], ["command": "loadgen run --strategy batch --rows 2000"]])
        #expect(found?.hasPrefix("3: run a1 has two command lines (line 2 and this one)") == true, "\(found ?? "read")")
    }
}
