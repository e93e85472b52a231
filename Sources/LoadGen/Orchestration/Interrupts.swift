import Dispatch
import Foundation
import Host
import Synchronization

/// Ctrl-C and SIGTERM handling for the parent process.
///
/// The parent ignores the signals themselves (a dispatch source sees them instead), forwards
/// them to the running child, and then unwinds: no partial row is written and the temporary
/// store is removed. Children get default signal handling back when they are spawned.
final class Interrupts: Sendable {
    static let shared = Interrupts()

    private let interrupted = Atomic<Bool>(false)
    /// The first signal that arrived (0: none), for the exit status: 128 + its number.
    private let signalNumber = Atomic<Int32>(0)
    private let child = Atomic<Int32>(0)
    private let sources: Mutex<[DispatchSourceSignal]> = Mutex([])

    /// Starts watching SIGINT and SIGTERM. Call once, before the first child is spawned.
    func install() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            // A parent may have started us with these signals blocked (test runners do); then
            // they would never arrive. Unblock them on this (the main) thread, which receives them.
            Posix.unblock([SIGINT, SIGTERM, SIGHUP])
            // A reader that stops early (`loadgen run … | head -1`) must not kill the run between
            // a repetition and its cleanup: writes to the closed pipe fail (EPIPE, and the
            // summary is lost), the run finishes, its results and its --store are kept.
            Posix.ignore(SIGPIPE)
            // SIGHUP too: a closed terminal stops a run or a generate as Ctrl-C does, cleaning up.
            for sig in [SIGINT, SIGTERM, SIGHUP] {
                Posix.ignore(sig)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                source.setEventHandler { [self] in
                    _ = signalNumber.compareExchange(expected: 0, desired: sig, ordering: .sequentiallyConsistent)
                    interrupted.store(true, ordering: .sequentiallyConsistent)
                    let pid = child.load(ordering: .sequentiallyConsistent)
                    if pid > 0 { Posix.send(SIGINT, to: pid) }
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// For a process that works on its main thread and polls `wasInterrupted` (`generate`):
    /// handlers of its own for SIGINT, SIGTERM and SIGHUP, which note the signal. A dispatch
    /// source may never see a signal its parent left ignored (a background job's SIGINT), since
    /// an ignored signal is discarded where it arrives; a handler replaces the disposition.
    func installHandlers() {
        Posix.handle([SIGINT, SIGTERM, SIGHUP]) { caught in
            _ = caughtSignal.compareExchange(expected: 0, desired: caught, ordering: .sequentiallyConsistent)
        }
        Posix.unblock([SIGINT, SIGTERM, SIGHUP])
    }

    /// True once Ctrl-C or SIGTERM has arrived.
    var wasInterrupted: Bool {
        interrupted.load(ordering: .sequentiallyConsistent) || caughtSignal.load(ordering: .sequentiallyConsistent) != 0
    }

    /// The exit status a shell expects of a process stopped by the signal: 130 for Ctrl-C, 143
    /// for SIGTERM.
    var exitStatus: Int32 {
        let caught = caughtSignal.load(ordering: .sequentiallyConsistent)
        let number = caught != 0 ? caught : signalNumber.load(ordering: .sequentiallyConsistent)
        return 128 + (number == 0 ? SIGINT : number)
    }

    /// The signal's name ("SIGTERM"), for reports.
    var signalName: String {
        let caught = caughtSignal.load(ordering: .sequentiallyConsistent)
        let number = caught != 0 ? caught : signalNumber.load(ordering: .sequentiallyConsistent)
        return number == SIGTERM ? "SIGTERM" : number == SIGHUP ? "SIGHUP" : "SIGINT (Ctrl-C)"
    }

    /// The child to forward a signal to (0 for none).
    func setChild(_ pid: Int32) {
        child.store(pid, ordering: .sequentiallyConsistent)
        // A signal that arrived between spawn and now would otherwise be lost.
        if pid > 0 && wasInterrupted { Posix.send(SIGINT, to: pid) }
    }
}

/// The signal `Interrupts.installHandlers`' handlers caught (0: none): an atomic, which a signal
/// handler may store to.
private let caughtSignal = Atomic<Int32>(0)

/// Thrown when the run was stopped by a signal.
struct Interrupted: Error {}
