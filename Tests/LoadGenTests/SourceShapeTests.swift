import Foundation
import Testing

/// The shape of the code the next person lives in (issue 31, item 6): no function, initializer
/// or computed property in Sources longer than `limit` lines, each named for what it does.
@Suite struct SourceShapeTests {
    /// 50 lines before the tree was formatted at 120 columns (decision 0045): the formatter
    /// wraps what ran to 150 columns and puts a call's closing parenthesis on a line of its own,
    /// so the same function reads 10 to 20 % longer; 60 formatted lines hold what 50 did.
    static let limit = 60

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources").standardizedFileURL.path

    /// Each declaration's length from its first line to its closing brace (braces in strings
    /// and comments ignored).
    static func longDeclarations(limit: Int) throws -> [String] {
        var found: [String] = []
        let files =
            FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String }.filter {
                $0.hasSuffix(".swift")
            } ?? []
        let declaration = try Regex(
            #"^\s*(?:@[\w()_]+\s+)*(?:(?:package|private|fileprivate|internal|public|static|override|mutating|final|nonisolated)\s+)*(?:func\s+[\w`]+|init[?!]?\s*[(<]|subscript\s*\()"#
        )
        for file in files {
            let lines = try String(contentsOfFile: sources + "/" + file, encoding: .utf8).components(separatedBy: "\n")
            var i = 0
            while i < lines.count {
                guard lines[i].firstMatch(of: declaration) != nil, let end = closingLine(lines, from: i) else {
                    i += 1
                    continue
                }
                if end - i + 1 > limit { found.append("\(file):\(i + 1): \(end - i + 1) lines") }
                i += 1
            }
        }
        return found.sorted()
    }

    /// The line where the body opened at or after `start` closes; nil for a declaration without one.
    static func closingLine(_ lines: [String], from start: Int) -> Int? {
        var depth = 0
        var opened = false
        for j in start..<min(lines.count, start + 2_000) {
            var inString = false
            var previous: Character = " "
            for ch in lines[j] {
                if ch == "\"" && previous != "\\" { inString.toggle() }
                if !inString && ch == "/" && previous == "/" { break }
                if !inString && ch == "{" {
                    depth += 1
                    opened = true
                }
                if !inString && ch == "}" { depth -= 1 }
                previous = ch
            }
            if opened && depth <= 0 { return j }
            if !opened && j > start + 8 { return nil }
        }
        return nil
    }

    /// Issue 48: what only Linux has — `/proc`, the `Glibc` module, `perf_event_open` — is named
    /// only in `+Linux` files (the Host target's and the C shims beside it), so a Darwin build
    /// finds every such call behind a `+Darwin` twin. Comments may name them.
    @Test func linuxOnlyCallsLiveInLinuxFiles() throws {
        let files =
            FileManager.default.enumerator(atPath: Self.sources)?.compactMap { $0 as? String }
            .filter { [".swift", ".h", ".c", ".modulemap"].contains(where: $0.hasSuffix) && !$0.contains("+Linux") }
            ?? []
        #expect(files.contains("Host/Host.swift"), "the walk found no sources under \(Self.sources)")
        var found: [String] = []
        for file in files {
            let lines = try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8).components(
                separatedBy: "\n")
            for (n, line) in lines.enumerated() where Self.linuxOnly.contains(where: { Self.names(line, $0) }) {
                if !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    found.append("\(file):\(n + 1): \(line)")
                }
            }
        }
        #expect(found.isEmpty, "ask Host (Sources/Host, +Linux and +Darwin) instead:\n\(found.joined(separator: "\n"))")
    }

    private static let linuxOnly = ["/proc", "Glibc", "perf_event_open"]

    /// Host owns every system call (issue 57, item 3, swift-nio's `Posix`): no other file handles
    /// `EINTR` itself or calls the C library's file, process, signal or limit functions bare.
    /// `stat()` with nothing inside is the struct, not the call; `read` and `write` are left out
    /// of the list since many types have methods of those names (their calls use `Posix` too).
    @Test func systemCallsGoThroughHostAlone() throws {
        let files =
            FileManager.default.enumerator(atPath: Self.sources)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("Host/") } ?? []
        #expect(files.count > 100, "the walk found \(files.count) files under \(Self.sources)")
        var found: [String] = []
        for file in files {
            let lines = try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8).components(
                separatedBy: "\n")
            for (n, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                if Self.names(line, "EINTR") || Self.callsTheSystem(line) {
                    found.append("\(file):\(n + 1): \(line)")
                }
            }
        }
        #expect(found.isEmpty, "use Posix (Sources/Host/Posix.swift):\n\(found.joined(separator: "\n"))")
    }

    /// A C library call outside Host: one with arguments (`stat()` alone builds the struct), or one
    /// of the process's ids.
    private static func callsTheSystem(_ line: String) -> Bool {
        let files =
            /(^|[^.\w])(open|fsync|close|unlink|rename|mkdir|rmdir|mkdtemp|access|stat|lstat|fstat|fchmod)\((?!\))/
        let descriptors = /(^|[^.\w])(fcntl|flock|pipe|isatty|clock_gettime|usleep)\((?!\))/
        let processes = /(^|[^.\w])(waitpid|kill|signal|sigaction|pthread_sigmask|getrlimit|setrlimit|_exit)\((?!\))/
        let ids = /(^|[^.\w])(getpid|getppid|getuid|getgid)\(\)/
        return line.contains(files) || line.contains(descriptors) || line.contains(processes) || line.contains(ids)
    }

    /// `line` names `word` as a whole: `/proc` and `/proc/self`, not Darwin's `sys/proc_info.h`.
    private static func names(_ line: String, _ word: String) -> Bool {
        var rest = line[...]
        while let found = rest.range(of: word) {
            let next = rest[found.upperBound...].first
            if next.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }

    /// Strategies reach the engine through its protocols alone (issue 57, item 2, decision 0047):
    /// no strategy or Support file names one of the engine's classes, so a second conformance
    /// (Apple's Core Data) runs them unchanged. `Engine.swift` is the one place that picks it.
    @Test func strategiesNameOnlyTheEnginesProtocols() throws {
        let folder = Self.sources + "/Strategies"
        let files =
            FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && $0 != "Engine.swift" } ?? []
        #expect(files.count > 50, "the walk found \(files.count) files under \(folder)")
        let classes = [
            "PersistentContainer", "ManagedObjectContext", "ManagedObject", "FetchedResultsController",
            "PersistentStoreCoordinator",
        ]
        var found: [String] = []
        for file in files {
            let lines = try String(contentsOfFile: folder + "/" + file, encoding: .utf8).components(separatedBy: "\n")
            for (n, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let code = line.components(separatedBy: "//")[0]
                for name in classes where Self.names(code, name) {
                    found.append("\(file):\(n + 1): \(line)")
                }
            }
        }
        #expect(found.isEmpty, "use ObjectStore, ObjectContext, StoredObject:\n\(found.joined(separator: "\n"))")
    }

    @Test func noFunctionIsLongerThanSixtyLines() throws {
        let long = try Self.longDeclarations(limit: Self.limit)
        #expect(
            long.isEmpty, "split these into functions named for what each part does:\n\(long.joined(separator: "\n"))")
    }
}
