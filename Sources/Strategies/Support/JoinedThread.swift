import Foundation
import Host
import Report

/// A thread that can be joined: `join()` returns once the thread has ended and let go of
/// everything its body captured.
///
/// Foundation's `Thread` cannot be joined, and a `DispatchGroup` left from inside the body
/// returns to the waiter while the thread still holds the closure — and through it contexts,
/// coordinators and their SQLite connections. A strategy that returned then could still have
/// connections open for a moment: the leak `leaked_connections` caught with many writers.
final class JoinedThread: @unchecked Sendable {
    // `thread` is written once by `init` and read by `join`, both on the creating thread.
    private let thread: pthread_t
    private var joined = false

    /// Starts `body` on a new thread named `name`. A thread the system refuses stops the child
    /// with the reason (the repetition is recorded as crashed, the message on stderr).
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        do { thread = try BackgroundThread.create(name: name, body) } catch { preconditionFailure("\(error)") }
    }

    /// Waits until the thread has ended. Call once, from the thread that created it.
    func join() {
        precondition(!joined, "JoinedThread joined twice")
        joined = true
        pthread_join(thread, nil)
    }
}
