import Foundation

/// Starting a child process with `posix_spawn`, the same call on Linux and Darwin; only the C
/// types of its file actions and attributes differ (a struct on Linux, an opaque pointer on
/// Darwin), which `Host+Linux` and `Host+Darwin` make empty.
///
/// Foundation's `Process` is not used: it hung forever, deaf to Ctrl-C, when the system refused
/// it a thread (`ulimit -v 100000`); this fails with the error instead.
package enum Spawn {
    /// What happens to the child's file descriptors before it runs.
    package enum FileAction: Sendable {
        /// The child's `to` is the parent's `from` (a pipe's end as its standard output).
        case duplicate(Int32, to: Int32)
        case close(Int32)
        /// `descriptor` reads or writes `/dev/null`.
        case null(Int32)
    }

    /// Starts `executable` (searched on PATH when `searchPath`) with `arguments` (the first is
    /// its name) and `environment` ("NAME=value"; nil: this process's). With `defaultSignals`, the
    /// child gets SIGINT, SIGTERM and SIGPIPE's default actions and no blocked signal back: the
    /// parent ignores or blocks them, and both are inherited across exec. Returns the child's pid,
    /// or the error number.
    package static func start(
        _ executable: String, arguments: [String], environment: [String]? = nil,
        actions fileActions: [FileAction] = [], defaultSignals: Bool = false,
        searchPath: Bool = false
    ) -> Result<pid_t, SpawnError> {
        var actions = Host.emptySpawnActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for action in fileActions {
            switch action {
            case .duplicate(let from, let to): posix_spawn_file_actions_adddup2(&actions, from, to)
            case .close(let fd): posix_spawn_file_actions_addclose(&actions, fd)
            case .null(let fd):
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        var attributes = Host.emptySpawnAttributes()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if defaultSignals { resetSignals(&attributes) }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer { for e in envp ?? [] { free(e) } }
        var pid: pid_t = 0
        let rc =
            envp.map { envp in
                searchPath
                    ? posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
                    : posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            }
            ?? (searchPath
                ? posix_spawnp(&pid, executable, &actions, &attributes, argv, Host.environ)
                : posix_spawn(&pid, executable, &actions, &attributes, argv, Host.environ))
        return rc == 0 ? .success(pid) : .failure(SpawnError(code: rc))
    }

    /// Waits for `pid` to end (retrying on EINTR): its exit status, or 128 + the signal that
    /// ended it, as a shell says it.
    package static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Runs `executable` to its end, its standard error to /dev/null, and returns its exit status
    /// and standard output; the error number when it cannot start.
    package static func output(_ executable: String, arguments: [String], searchPath: Bool = false)
        -> Result<(status: Int32, output: [UInt8]), SpawnError>
    {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return .failure(SpawnError(code: errno)) }
        let started = start(
            executable, arguments: arguments, actions: [.duplicate(fds[1], to: 1), .close(fds[0]), .null(2)],
            searchPath: searchPath)
        close(fds[1])
        defer { close(fds[0]) }
        guard case .success(let pid) = started else {
            if case .failure(let error) = started { return .failure(error) }
            return .failure(SpawnError(code: EINVAL))
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n > 0 {
                output += buffer[0..<n]
                continue
            }
            if n < 0 && errno == EINTR { continue }
            break
        }
        return .success((wait(pid), output))
    }

    private static func resetSignals(_ attributes: inout Host.SpawnAttributes) {
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    }
}

/// Why a child could not be started: the error number `posix_spawn` gave.
package struct SpawnError: Error, Sendable {
    package let code: Int32
    package var description: String { String(cString: strerror(code)) }
}
