import Foundation

// MARK: - Processes, signals, limits and sleeping

extension Posix {
    /// This process's id.
    package static var processID: pid_t { getpid() }

    /// The parent's id (1, or a subreaper's, once the parent has gone).
    package static var parentProcessID: pid_t { getppid() }

    /// The real user and group (getuid, getgid): whose a file loadgen replaces must stay.
    package static var userID: uid_t { getuid() }
    package static var groupID: gid_t { getgid() }

    /// _exit(2): ends the process at once, running no atexit handler and flushing nothing (a
    /// watcher thread whose parent has gone: the rest of the process may be mid-write).
    package static func exitImmediately(_ status: Int32) -> Never { _exit(status) }

    /// kill(2): sends `signal` to `pid`.
    @discardableResult
    package static func send(_ signal: Int32, to pid: pid_t) -> Int32 { systemKill(pid, signal) }

    /// Sets `signal`'s disposition to "ignore" (SIGPIPE: a closed reader fails a write with EPIPE
    /// instead of killing the process; SIGXFSZ: a file-size limit fails it with EFBIG).
    package static func ignore(_ signal: Int32) { systemIgnore(signal) }

    /// Unblocks `signals` on the calling thread (a parent may have started us with them blocked).
    package static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Installs `handler` for each of `signals` (sigaction(2)). Without `restarting` an
    /// interrupted call returns EINTR, which `Posix` retries; with it (SA_RESTART) the kernel
    /// restarts most calls itself, including those made outside Host (Foundation's). The handler
    /// may only do what a signal handler may: atomics and async-signal-safe calls (kill).
    package static func handle(
        _ signals: [Int32], restarting: Bool = false, with handler: @convention(c) (Int32) -> Void
    ) {
        for signal in signals {
            var action = sigaction()
            Host.setHandler(handler, of: &action)
            sigemptyset(&action.sa_mask)
            if restarting { action.sa_flags = SA_RESTART }
            sigaction(signal, &action, nil)
        }
    }

    /// The soft and hard limits of `resource` (getrlimit(2)), nil when it cannot be read.
    package static func limit(of resource: Host.Resource) -> rlimit? {
        var limit = rlimit()
        return getrlimit(Host.number(of: resource), &limit) == 0 ? limit : nil
    }

    /// setrlimit(2).
    @discardableResult
    package static func setLimit(of resource: Host.Resource, to limit: rlimit) -> Int32 {
        var limit = limit
        return setrlimit(Host.number(of: resource), &limit)
    }

    /// Sleeps for `microseconds` (usleep's unit; a signal may end it early, which every caller,
    /// a polling loop or a backoff, tolerates).
    package static func sleep(microseconds: UInt32) { _ = usleep(microseconds) }

    /// CLOCK_MONOTONIC in nanoseconds: never steps back when the wall clock is set. Inlinable:
    /// the engine reads it around every statement it times.
    @inlinable
    package static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

private func systemKill(_ pid: pid_t, _ signal: Int32) -> Int32 { kill(pid, signal) }
private func systemIgnore(_ number: Int32) { _ = signal(number, SIG_IGN) }
