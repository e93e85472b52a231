import Foundation
import Testing

/// The shape of the tests themselves (issue 45): green on a loaded 2-core machine. A limit that
/// load can trip fails a correct test; a test that waits for a child process on one of Swift's
/// cooperative threads (two here) starves every suspended test of a thread to resume on.
@Suite struct TestShapeTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("..").standardizedFileURL.path

    /// `file:line: text` of every test source line containing one of `patterns`, outside `except`.
    static func lines(containing patterns: [String], except: Set<String> = []) throws -> [String] {
        let files =
            FileManager.default.enumerator(atPath: tests)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !except.contains(($0 as NSString).lastPathComponent) } ?? []
        var found: [String] = []
        for file in files where file != "LoadGenTests/TestShapeTests.swift" {
            let text = try String(contentsOfFile: tests + "/" + file, encoding: .utf8)
            for (n, line) in text.components(separatedBy: "\n").enumerated()
            where patterns.contains(where: line.contains) {
                found.append("\(file):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found.sorted()
    }

    @Test func noTestHasATimeLimit() throws {
        let found = try Self.lines(containing: [".timeLimit("])
        #expect(found.isEmpty, "remove these limits; a hang is CI's to stop:\n\(found.joined(separator: "\n"))")
    }

    /// Waiting for a process or reading its pipe to the end goes through `CLI.exit(of:)`,
    /// `CLI.readToEnd` and `CLI.run`, which wait on a thread of their own.
    @Test func noTestWaitsForAProcessOnACooperativeThread() throws {
        let found = try Self.lines(containing: [".waitUntilExit()", ".readDataToEndOfFile()"], except: ["CLI.swift"])
        #expect(found.isEmpty, "use CLI.exit(of:) or CLI.readToEnd(_:):\n\(found.joined(separator: "\n"))")
    }
}
