import Foundation
import Host
import Synchronization

/// Ctrl-C, SIGTERM and SIGHUP handling for the parent process.
///
/// Handlers of its own note the signal and forward it to the running child, and the process then
/// unwinds: no partial row is written and the temporary store is removed. Children get default
/// signal handling back when they are spawned (a handler does not survive exec).
///
/// Handlers, not dispatch sources: a signal source needs libdispatch's manager thread, and where
/// the system refuses a thread (`ulimit -v 100000`) libdispatch waits for one forever, so `run`
/// hung before its first line (found by issue 55's item 9 test for `ab`). A handler also replaces
/// a disposition the parent left ignored (a background job's SIGINT), which a source never sees.
final class Interrupts: Sendable {
    static let shared = Interrupts()

    private let installed = Mutex(false)

    /// Starts watching SIGINT, SIGTERM and SIGHUP. Call once, before the first child is spawned.
    func install() {
        installed.withLock { installed in
            guard !installed else { return }
            installed = true
            // A reader that stops early (`loadgen run … | head -1`) must not kill the run between
            // a repetition and its cleanup: writes to the closed pipe fail (EPIPE, and the
            // summary is lost), the run finishes, its results and its --store are kept.
            Posix.ignore(SIGPIPE)
            // The handler reads these globals: touched here first, so that their one-time
            // initialisation never runs inside a signal handler.
            _ = caughtSignal.load(ordering: .sequentiallyConsistent)
            _ = runningChild.load(ordering: .sequentiallyConsistent)
            // Restarting: a call the signal interrupts carries on (Foundation's reads and waits
            // do not all retry EINTR); the run notices the flag between steps.
            Posix.handle([SIGINT, SIGTERM, SIGHUP], restarting: true) { caught in
                _ = caughtSignal.compareExchange(expected: 0, desired: caught, ordering: .sequentiallyConsistent)
                let pid = runningChild.load(ordering: .sequentiallyConsistent)
                if pid > 0 { _ = Posix.send(SIGINT, to: pid) }
            }
            // A parent may have started us with these signals blocked (test runners do); then
            // they would never arrive.
            Posix.unblock([SIGINT, SIGTERM, SIGHUP])
        }
    }

    /// True once Ctrl-C or SIGTERM has arrived.
    var wasInterrupted: Bool { caughtSignal.load(ordering: .sequentiallyConsistent) != 0 }

    /// The exit status a shell expects of a process stopped by the signal: 130 for Ctrl-C, 143
    /// for SIGTERM.
    var exitStatus: Int32 {
        let number = caughtSignal.load(ordering: .sequentiallyConsistent)
        return 128 + (number == 0 ? SIGINT : number)
    }

    /// The signal's name ("SIGTERM"), for reports.
    var signalName: String {
        let number = caughtSignal.load(ordering: .sequentiallyConsistent)
        return number == SIGTERM ? "SIGTERM" : number == SIGHUP ? "SIGHUP" : "SIGINT (Ctrl-C)"
    }

    /// The child to forward a signal to (0 for none).
    func setChild(_ pid: Int32) {
        runningChild.store(pid, ordering: .sequentiallyConsistent)
        // A signal that arrived between spawn and now would otherwise be lost.
        if pid > 0 && wasInterrupted { Posix.send(SIGINT, to: pid) }
    }
}

/// The first signal `Interrupts.install`'s handler caught (0: none): an atomic, which a signal
/// handler may store to.
private let caughtSignal = Atomic<Int32>(0)

/// The child the handler forwards a signal to (0: none).
private let runningChild = Atomic<Int32>(0)

/// Thrown when the run was stopped by a signal.
struct Interrupted: Error {}
