#if os(Linux)
    import Foundation
    /// The C library, for every target that imports Host: the one place that names glibc, so the
    /// rest of loadgen writes `write`, `errno` or `pow` once for both systems (issue 48).
    @_exported import Glibc

    extension Host {
        static var selfForSpawning: String { "/proc/self/exe" }

        static func resourceNumber(_ resource: Resource) -> Int32 {
            switch resource {
            case .openFiles: return Int32(RLIMIT_NOFILE.rawValue)
            case .addressSpace: return Int32(RLIMIT_AS.rawValue)
            }
        }

        /// dlsym's handle for a search of every loaded image: RTLD_DEFAULT, 0 in glibc's dlfcn.h
        /// (Swift imports it as unavailable: "use nil").
        static var everyLoadedImage: UnsafeMutableRawPointer? { nil }

        /// valgrind runs here, so `--instructions` can count under callgrind.
        package static let valgrindRuns = true

        // MARK: posix_spawn's types (structs here)

        typealias SpawnActions = posix_spawn_file_actions_t
        typealias SpawnAttributes = posix_spawnattr_t
        static func emptySpawnActions() -> SpawnActions { posix_spawn_file_actions_t() }
        static func emptySpawnAttributes() -> SpawnAttributes { posix_spawnattr_t() }

        // MARK: Threads (pthread_t is an integer here)

        /// What pthread_create fills.
        typealias ThreadSlot = pthread_t
        static func emptyThreadSlot() -> ThreadSlot { pthread_t() }
        static func thread(in slot: ThreadSlot) -> pthread_t { slot }

        /// An identifier of the calling thread, cheap enough to compare on every access.
        @inlinable
        package static func currentThreadID() -> UInt { UInt(pthread_self()) }

        /// This process's environment, for a child that inherits it.
        static var environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { Glibc.environ }

        /// This process's resource usage (getrusage, whose `who` glibc types as an enum).
        package static func processUsage() -> rusage {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return usage
        }

        /// write(2), for a caller whose own type has a `write` (the C library's name is qualified).
        package static func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
            Glibc.write(fd, bytes, count)
        }

        /// open(2) and fsync(2), likewise qualified (`Posix` retries them).
        package static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
            Glibc.open(path, flags, mode)
        }

        package static func syncFile(_ fd: Int32) -> Int32 { Glibc.fsync(fd) }

        /// Sets a sigaction's handler (a union whose member's name differs between C libraries).
        static func setHandler(_ handler: @convention(c) (Int32) -> Void, of action: inout sigaction) {
            action.__sigaction_handler.sa_handler = handler
        }

        /// read(2), likewise qualified.
        package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
            Glibc.read(fd, buffer, count)
        }

        static var resolvedExecutable: String? {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        }

        /// A process's start time in clock ticks since boot (field 22 of `/proc/<pid>/stat`), nil
        /// when it cannot be read.
        package static func startTime(of pid: Int32) -> UInt64? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm)" come fields 3, 4, …: the start time is the 20th of them.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 19 ? UInt64(fields[19]) : nil
        }

        /// The one-minute load average (`/proc/loadavg`).
        package static func loadAverage() -> Double? {
            guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
            return text.split(separator: " ").first.flatMap { Double($0) }
        }

        /// The CPU's model name (`/proc/cpuinfo`), nil when the system does not say.
        package static func cpuModel() -> String? {
            guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
            for line in text.split(separator: "\n") where line.hasPrefix("model name") {
                if let colon = line.firstIndex(of: ":") {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }

        // MARK: Files

        /// A `stat`'s modification and status-change times (`st_mtim`, `st_ctim` here).
        static func times(of s: stat) -> (modified: FileIdentity.Timestamp, changed: FileIdentity.Timestamp) {
            (
                .init(seconds: s.st_mtim.tv_sec, nanoseconds: s.st_mtim.tv_nsec),
                .init(seconds: s.st_ctim.tv_sec, nanoseconds: s.st_ctim.tv_nsec)
            )
        }
    }
#endif
