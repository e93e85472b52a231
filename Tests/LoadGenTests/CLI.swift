import Foundation
import Testing

/// Runs the `loadgen` binary built beside the test bundle, as a user would.
struct CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The binary beside the test bundle, or `LOADGEN_TEST_BINARY` (to check that a new test
    /// fails on an older build).
    static var binary: String {
        if let forced = ProcessInfo.processInfo.environment["LOADGEN_TEST_BINARY"], !forced.isEmpty { return forced }
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("loadgen").path
    }

    /// `run` without `--repeat` runs `--repeat auto` (at least three rounds, until the order is
    /// clear): the command-line tests pin one repetition unless they give `--repeat` (the tests of
    /// auto give `--repeat auto`), so that the suite stays fast; `RepeatAutoTests` and the
    /// statistics' own tests cover the default.
    static func pinningRepetitions(_ arguments: [String]) -> [String] {
        guard arguments.first == "run", !arguments.contains("--repeat"), !arguments.contains("--suite"),
            !arguments.contains("--help")
        else { return arguments }
        return arguments + ["--repeat", "1"]
    }

    /// How a page or a run's last lines name this binary when neither the path nor
    /// `scripts/loadgen` leads to it: its full path, links resolved.
    static var invocation: String { URL(fileURLWithPath: binary).resolvingSymlinksInPath().path }

    /// A fresh folder for one test, used as TMPDIR and for its files.
    static func makeFolder() -> String {
        let path = NSTemporaryDirectory() + "loadgen-cli-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `limits`: prlimit(1) options (`--fsize=1000000`, `--nofile=20`) the process runs under,
    /// for the full-disk and resource-limit cases.
    static func process(
        _ arguments: [String], tmpdir: String? = nil, cwd: String? = nil,
        environment: [String: String] = [:], limits: [String] = []
    ) -> (Process, Pipe, Pipe) {
        let arguments = pinningRepetitions(arguments)
        let p = Process()
        if limits.isEmpty {
            p.executableURL = URL(fileURLWithPath: binary)
            p.arguments = arguments
        } else {
            // SIGXFSZ ignored (inherited through exec by loadgen, its children and gnuplot): a
            // write past the size limit then fails with EFBIG, as one on a full disk fails with
            // ENOSPC, instead of killing the writer.
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments =
                ["-c", "trap '' XFSZ; exec /usr/bin/prlimit \"$@\"", "sh"] + limits + ["--", binary] + arguments
        }
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        var env = ProcessInfo.processInfo.environment
        if let tmpdir { env["TMPDIR"] = tmpdir + "/" }
        env["LOADGEN_GIT_REV"] = "test"
        // A run without --out keeps its rows in results/ under the current folder (the checkout,
        // for most tests): each process gets a fresh folder instead.
        env["LOADGEN_RESULTS"] = makeFolder() + "/results"
        env.merge(environment) { _, new in new }
        p.environment = env
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        return (p, out, err)
    }

    /// Runs loadgen to its end. The wait happens on a thread of its own, so that a test waiting
    /// for a child (some run for minutes on a loaded machine) holds none of Swift's cooperative
    /// threads, which the other tests' tasks need (issue 45).
    @discardableResult
    static func run(
        _ arguments: [String], tmpdir: String? = nil, cwd: String? = nil,
        environment: [String: String] = [:], limits: [String] = []
    ) async throws -> Result {
        try await offPool {
            try runBlocking(arguments, tmpdir: tmpdir, cwd: cwd, environment: environment, limits: limits)
        }
    }

    private static func runBlocking(
        _ arguments: [String], tmpdir: String?, cwd: String?,
        environment: [String: String], limits: [String]
    ) throws -> Result {
        let (p, out, err) = process(arguments, tmpdir: tmpdir, cwd: cwd, environment: environment, limits: limits)
        try p.run()
        // Read both pipes before waiting, so a chatty child cannot fill a pipe and stall.
        let errData = Locked<Data>()
        let errReader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        errReader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while errData.isUnset { usleep(1_000) }
        return Result(
            status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.value ?? Data(), as: UTF8.self))
    }

    /// Runs blocking work (waiting for a process, reading a pipe to its end) on a thread of its
    /// own and suspends until it is done: no cooperative thread is held meanwhile.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Swift.Result { try body() }) }
        }
    }

    /// Suspends until `p` has ended, holding no cooperative thread.
    static func exit(of p: Process) async {
        let box = Unchecked(p)
        _ = try? await offPool { box.value.waitUntilExit() }
    }

    /// What `pipe` holds until its writers close it, read holding no cooperative thread.
    static func readToEnd(_ pipe: Pipe) async -> Data {
        let box = Unchecked(pipe)
        return (try? await offPool { box.value.fileHandleForReading.readDataToEndOfFile() }) ?? Data()
    }

    /// Parses a results CSV into dictionaries keyed by header.
    static func rows(_ path: String) throws -> [[String: String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let records = try parseCSV(text)
        guard let header = records.first else { return [] }
        return records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// The first row of `strategy` in a results file (an empty row when there is none).
    static func row(of strategy: String, in path: String) throws -> [String: String] {
        try rows(path).first { $0["strategy"] == strategy } ?? [:]
    }

    /// An independent RFC 4180 reader (the tests do not trust loadgen's own).
    static func parseCSV(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var i = text.unicodeScalars.startIndex
        let s = text.unicodeScalars
        while i < s.endIndex {
            let c = s[i]
            if quoted {
                if c == "\"" {
                    let n = s.index(after: i)
                    if n < s.endIndex && s[n] == "\"" {
                        field.unicodeScalars.append("\"")
                        i = n
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                record.append(field)
                field = ""
            } else if c == "\r" {
            } else if c == "\n" {
                record.append(field)
                records.append(record)
                record = []
                field = ""
            } else {
                field.unicodeScalars.append(c)
            }
            i = s.index(after: i)
        }
        if quoted { throw CocoaError(.fileReadCorruptFile) }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }

    /// Waits (polling, suspended between polls) until `condition` holds; false after `seconds`.
    /// Not a timing assertion: the deadline only stops a broken test from hanging.
    static func waitUntil(seconds: Double = 120, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// True while `pid` runs (a zombie waiting to be reaped has ended).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }

    /// The child processes of `pid`.
    static func children(of pid: Int32) -> [Int32] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { Int32($0) }
    }
}

/// A value set once from another thread.
final class Locked<T: Sendable>: @unchecked Sendable {
    // Guarded by `lock`.
    private var stored: T?
    private let lock = NSLock()
    init() {}
    func set(_ v: T) {
        lock.lock()
        stored = v
        lock.unlock()
    }
    var value: T? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    var isUnset: Bool { value == nil }
}

/// A process or pipe handed to the thread that waits for it. Neither is `Sendable`; the test
/// suspends while that thread uses it and reads it only after.
struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// Something a suite makes once by running loadgen (a results file, a sweep), with what went
/// wrong making it: each test that uses it fails with that reason, instead of testing a fixture
/// that silently does not exist. It is made in a task of its own the first time a test asks for
/// it, so that no test blocks a thread while it is made.
final class Fixture<Value: Sendable>: Sendable {
    private let task: Task<Value, any Error>

    /// `make` runs `loadgen` and passes each result to `check`, which throws for one that did
    /// not exit 0.
    init(_ make: @escaping @Sendable (_ check: @Sendable (CLI.Result) throws -> Void) async throws -> Value) {
        task = Task {
            try await make { r in
                if r.status != 0 { throw FixtureProblem(description: "exit \(r.status): \(r.stderr)") }
            }
        }
    }

    /// The fixture, or the test fails with the reason it could not be made.
    func get() async throws -> Value {
        do { return try await task.value } catch {
            try #require(Bool(false), "the fixture could not be made: \(error)")
            throw error
        }
    }
}

/// Why a fixture could not be made.
struct FixtureProblem: Error, CustomStringConvertible {
    let description: String
}

/// A real results file made once by `loadgen run`, and edited copies of it: the synthetic inputs
/// of the compare and hostile-input tests.
struct ResultsFixture: Sendable {
    let dir: String
    let path: String
    let header: [String]
    let rows: [[String]]

    /// Runs `loadgen run` with `arguments` (plus `--out` and `--quiet`) into a new folder.
    static func make(_ arguments: [String], name: String) -> Fixture<ResultsFixture> {
        Fixture { check in
            let dir = CLI.makeFolder()
            let path = dir + "/" + name
            try check(try await CLI.run(["run"] + arguments + ["--out", path, "--quiet"], tmpdir: dir))
            let records = try CLI.parseCSV(String(contentsOfFile: path, encoding: .utf8))
            return ResultsFixture(dir: dir, path: path, header: records[0], rows: Array(records.dropFirst()))
        }
    }

    /// Writes the rows (each edited by `edit`) as a results file `name` beside the original.
    /// Their run ids are the original's prefixed by the name, as rows of a new run have ids
    /// of their own (compare refuses new results that hold only the baseline's runs).
    func write(_ name: String, edit: (inout [String: String]) -> Void = { _ in }) throws -> String {
        var text = header.joined(separator: ",") + "\r\n"
        let prefix = String(name.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
        for record in rows {
            var row = Dictionary(uniqueKeysWithValues: zip(header, record))
            row["run_id"] = prefix + (row["run_id"] ?? "")
            edit(&row)
            text += header.map { Self.quote(row[$0] ?? "") }.joined(separator: ",") + "\r\n"
        }
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func quote(_ field: String) -> String {
        field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}
