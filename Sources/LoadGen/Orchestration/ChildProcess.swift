import Foundation
import Host
import Report
import Synchronization

/// Runs one repetition in a new process (loadgen re-executes itself), so that peak RSS is the
/// repetition's own and a crash is recorded instead of ending the run.
enum ChildProcess {
    /// How a child ended.
    enum Outcome {
        case finished(RunMeasurement)
        case crashed(String)
        /// Stopped at its deadline (`--repeat auto`'s cap): after this many seconds.
        case capped(Double)
    }

    /// `deadline`: seconds after which the child is stopped (SIGKILL: its store is not judged)
    /// and the outcome is `.capped`.
    static func run(_ task: ChildTask, callgrindOutput: String? = nil, deadline: Double? = nil) throws -> Outcome {
        let json = String(decoding: try JSONEncoder().encode(task), as: UTF8.self)
        var fds: [Int32] = [0, 0]
        guard Posix.pipe(&fds) == 0 else {
            throw CommandError(message: "cannot create a pipe", exitCode: ExitCode.ioError)
        }
        let pid: pid_t
        if let callgrindOutput {
            guard Host.valgrindRuns else {
                throw CommandError(
                    message: "run: --instructions counts under valgrind, which does not run on this system; "
                        + "leave it out: each repetition's instructions come from the process's own counter",
                    exitCode: ExitCode.unavailable)
            }
            guard let valgrind = Callgrind.executable else {
                throw CommandError(
                    message: "run: --instructions needs valgrind; install it (scripts/setup does)",
                    exitCode: ExitCode.unavailable)
            }
            let exe = Host.executablePath
            pid = try spawn(
                valgrind,
                arguments: ["valgrind"] + Callgrind.options(output: callgrindOutput)
                    + [exe, ChildCommand.name, json], stdoutFD: fds[1], closeFD: fds[0])
        } else {
            pid = try spawn(
                Host.spawnableSelf, arguments: ["loadgen", ChildCommand.name, json], stdoutFD: fds[1], closeFD: fds[0])
        }
        Posix.close(fds[1])
        Interrupts.shared.setChild(pid)
        let watchdog = try deadline.map { try Watchdog(pid: pid, after: $0) }
        let output = readAll(fds[0])
        Posix.close(fds[0])
        watchdog?.cancel()
        let status = wait(pid)
        Interrupts.shared.setChild(0)
        if Interrupts.shared.wasInterrupted { throw Interrupted() }
        if let watchdog, watchdog.fired, !(status.exited && status.code == 0) { return .capped(watchdog.seconds) }
        if status.exited, status.code == 0,
            var measurement = try? JSONDecoder().decode(RunMeasurement.self, from: Data(output))
        {
            if let callgrindOutput {
                measurement.instructions = Callgrind.windowInstructions(output: callgrindOutput)
                measurement.instructionsCountedBy = measurement.instructions == nil ? nil : "callgrind"
                measurement.instructionsUnavailable = nil
                Callgrind.keep(output: callgrindOutput, label: task.label)
            }
            return .finished(measurement)
        }
        if status.exited { return .crashed("child exited with status \(status.code)") }
        let name = strsignal(status.code).map { String(cString: $0) } ?? "signal"
        return .crashed("child killed by signal \(status.code) (\(name))")
    }

    /// Starts a child with its standard output on `stdoutFD`, `closeFD` closed, this process's
    /// chosen environment, and the signals the parent ignores or blocks given back their defaults.
    private static func spawn(_ executable: String, arguments: [String], stdoutFD: Int32, closeFD: Int32) throws
        -> pid_t
    {
        switch Spawn.start(
            executable, arguments: arguments, environment: childEnvironment,
            actions: [.duplicate(stdoutFD, to: 1), .close(closeFD)], defaultSignals: true)
        {
        case .success(let pid): return pid
        case .failure(let error):
            throw CommandError(
                message: "cannot start a child process: \(error.description)", exitCode: ExitCode.software)
        }
    }

    /// The child's environment: the few variables it uses, the same on every machine, with
    /// Swift's hashing made deterministic.
    ///
    /// Swift seeds its hash function per process, so dictionary and set layouts, and with them the
    /// instructions and allocations of a repetition, differed from run to run: context-save-per-
    /// row at 5,000 rows under callgrind counted 876.6–880.5 M instructions in three runs (0.44 %),
    /// 883,991,689–883,994,743 (0.0003 %) with the seed fixed. The cost of hashing is the same;
    /// only which buckets collide is fixed, so the gate can judge instructions tightly.
    ///
    /// The rest of the parent's environment stays out: Foundation copies every variable when
    /// anything asks for one, so a CI job's forty variables against a shell's twenty moved
    /// allocation counts (count: 1,704 → 1,737 requests from one shell to another).
    static let childEnvironment: [String] = {
        let parent = ProcessInfo.processInfo.environment
        var environment = parent.filter { key, _ in
            ["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "TZ"].contains(key) || key.hasPrefix("LOADGEN_")
                || key.hasPrefix("VALGRIND_")
        }
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        return environment.map { "\($0.key)=\($0.value)" }.sorted()
    }()

    private static func readAll(_ fd: Int32) -> [UInt8] {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n =
                (try? buffer.withUnsafeMutableBytes { b throws(Posix.Failure) in
                    try Posix.read(fd, into: b.baseAddress!, count: b.count)
                }) ?? 0
            guard n > 0 else { return output }
            output.append(contentsOf: buffer[0..<n])
        }
    }

    private static func wait(_ pid: pid_t) -> (exited: Bool, code: Int32) {
        // A child that cannot be waited for (ECHILD: already reaped) reads as exited 0, as before.
        Posix.ending((try? Posix.wait(pid)) ?? 0)
    }
}

/// Stops a child that runs past its deadline: a thread waits on a semaphore until then, and
/// kills the child unless the parent cancelled the wait first (the child's output ended).
private final class Watchdog: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let firedFlag = Atomic<Bool>(false)
    let seconds: Double

    init(pid: pid_t, after seconds: Double) throws {
        self.seconds = seconds
        try BackgroundThread.start(name: "loadgen.cap") { [self] in
            if done.wait(timeout: .now() + seconds) == .timedOut {
                firedFlag.store(true, ordering: .sequentiallyConsistent)
                // The child is not reaped yet (the parent waits for it after this), so its pid
                // cannot name another process.
                Posix.send(SIGKILL, to: pid)
            }
        }
    }

    var fired: Bool { firedFlag.load(ordering: .sequentiallyConsistent) }
    func cancel() { done.signal() }
}

/// Counting a repetition's instructions under valgrind's callgrind, where the machine has no
/// hardware counter: the child runs inside valgrind (spawned as valgrind's client, since a
/// process already under valgrind cannot start `/proc/self/exe`), costs are zeroed when the
/// measured window opens and dumped when it closes, and the dump's summary is the count.
enum Callgrind {
    /// valgrind on PATH, or nil.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/valgrind" }.first { Posix.access($0, X_OK) == 0 }
    }()

    static func options(output: String) -> [String] {
        [
            "--tool=callgrind", "-q", "--callgrind-out-file=\(output)",
            "--zero-before=*loadgenWindowOpen*", "--dump-before=*loadgenWindowClose*",
        ]
    }

    /// With `LOADGEN_KEEP_CALLGRIND=DIR`, each repetition's window profile is copied to DIR
    /// (`callgrind_annotate` reads it): where a change in instructions went.
    static func keep(output: String, label: String) {
        guard let folder = ProcessInfo.processInfo.environment["LOADGEN_KEEP_CALLGRIND"], !folder.isEmpty else {
            return
        }
        let name = label.map { $0.isLetter || $0.isNumber ? $0 : "-" }.reduce(into: "") { $0.append($1) }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: folder + "/callgrind." + name)
        try? FileManager.default.copyItem(atPath: output + ".1", toPath: folder + "/callgrind." + name)
    }

    /// The instructions (`summary:` of part 1, the dump taken as the window closed).
    static func windowInstructions(output: String) -> UInt64? {
        guard let text = try? String(contentsOfFile: output + ".1", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("summary:") {
            return UInt64(line.dropFirst("summary:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
