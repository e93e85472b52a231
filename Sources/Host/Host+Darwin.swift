#if canImport(Darwin)
    import CDarwin
    /// The C library, for every target that imports Host (see Host+Linux.swift).
    @_exported import Darwin
    import Foundation

    // Written against Apple's documented APIs; built and tested on macOS by the workflow's macOS job,
    // not on a machine of ours (README).
    extension Host {
        static var selfForSpawning: String { resolvedExecutable ?? CommandLine.arguments[0] }

        static func resourceNumber(_ resource: Resource) -> Int32 {
            switch resource {
            case .openFiles: return RLIMIT_NOFILE
            case .addressSpace: return RLIMIT_AS
            }
        }

        /// dlsym's handle for a search of every loaded image: RTLD_DEFAULT, `(void *)-2` in Darwin's
        /// dlfcn.h (a null handle is refused there, which would hide jemalloc).
        static var everyLoadedImage: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: -2) }

        /// valgrind does not run on current macOS (nor at all on Apple silicon): `--instructions` is
        /// Linux's; here the process's own counter (`InstructionCounter+Darwin`) counts every run.
        package static let valgrindRuns = false

        // MARK: posix_spawn's types (opaque pointers here)

        typealias SpawnActions = posix_spawn_file_actions_t?
        typealias SpawnAttributes = posix_spawnattr_t?
        static func emptySpawnActions() -> SpawnActions { nil }
        static func emptySpawnAttributes() -> SpawnAttributes { nil }

        // MARK: Threads (pthread_t is an opaque pointer here)

        /// What pthread_create fills: nil until it does.
        typealias ThreadSlot = pthread_t?
        static func emptyThreadSlot() -> ThreadSlot { nil }
        static func thread(in slot: ThreadSlot) -> pthread_t { slot! }   // filled: pthread_create returned 0

        /// An identifier of the calling thread, cheap enough to compare on every access.
        @inlinable
        package static func currentThreadID() -> UInt { UInt(bitPattern: pthread_self()) }

        /// This process's environment, for a child that inherits it (`environ` is not Swift's here).
        static var environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { _NSGetEnviron()!.pointee! }

        /// This process's resource usage (getrusage).
        package static func processUsage() -> rusage {
            var usage = rusage()
            getrusage(RUSAGE_SELF, &usage)
            return usage
        }

        /// write(2), for a caller whose own type has a `write` (the C library's name is qualified).
        package static func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
            Darwin.write(fd, bytes, count)
        }

        /// open(2) and fsync(2), likewise qualified (`Posix` retries them).
        package static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
            Darwin.open(path, flags, mode)
        }

        package static func syncFile(_ fd: Int32) -> Int32 { Darwin.fsync(fd) }

        /// Sets a sigaction's handler (a union whose member's name differs between C libraries).
        static func setHandler(_ handler: @convention(c) (Int32) -> Void, of action: inout sigaction) {
            action.__sigaction_u.__sa_handler = handler
        }

        /// read(2), likewise qualified.
        package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
            Darwin.read(fd, buffer, count)
        }

        /// `_NSGetExecutablePath`, then symbolic links resolved.
        static var resolvedExecutable: String? {
            var size: UInt32 = 0
            _ = _NSGetExecutablePath(nil, &size)
            var buffer = [CChar](repeating: 0, count: Int(size) + 1)
            guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
            return URL(fileURLWithPath: String(cString: buffer)).resolvingSymlinksInPath().path
        }

        /// A process's start time in microseconds since the epoch (`proc_pidinfo`, PROC_PIDTBSDINFO),
        /// nil when it cannot be read (another user's process, or none).
        package static func startTime(of pid: Int32) -> UInt64? {
            var info = proc_bsdinfo()
            let size = Int32(MemoryLayout<proc_bsdinfo>.size)
            guard proc_pidinfo(pid, PROC_PIDTBSDINFO, 0, &info, size) == size else { return nil }
            return UInt64(info.pbi_start_tvsec) * 1_000_000 + UInt64(info.pbi_start_tvusec)
        }

        /// The one-minute load average (`getloadavg`).
        package static func loadAverage() -> Double? {
            var loads = [Double](repeating: 0, count: 3)
            return getloadavg(&loads, 3) > 0 ? loads[0] : nil
        }

        /// `machdep.cpu.brand_string` (Intel and Apple silicon both answer it).
        package static func cpuModel() -> String? {
            var size = 0
            guard sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0, size > 0 else { return nil }
            var buffer = [CChar](repeating: 0, count: size)
            guard sysctlbyname("machdep.cpu.brand_string", &buffer, &size, nil, 0) == 0 else { return nil }
            return String(cString: buffer)
        }

        // MARK: Files

        /// A `stat`'s modification and status-change times (`st_mtimespec`, `st_ctimespec` here).
        static func times(of s: stat) -> (modified: FileIdentity.Timestamp, changed: FileIdentity.Timestamp) {
            (
                .init(seconds: s.st_mtimespec.tv_sec, nanoseconds: s.st_mtimespec.tv_nsec),
                .init(seconds: s.st_ctimespec.tv_sec, nanoseconds: s.st_ctimespec.tv_nsec)
            )
        }
    }
#endif
