import Foundation

/// A thread that can be joined: `join()` returns once the thread has ended and let go of
/// everything its body captured.
///
/// Foundation's `Thread` cannot be joined, and a `DispatchGroup` left from inside the body
/// returns to the waiter while the thread still holds the closure — and through it contexts,
/// coordinators and their SQLite connections. A strategy that returned then could still have
/// connections open for a moment: the leak `leaked_connections` caught with many writers.
final class JoinedThread: @unchecked Sendable {
    // `thread` is written once by `init` and read by `join`, both on the creating thread.
    private var thread = pthread_t()
    private var joined = false

    /// Starts `body` on a new thread named `name`.
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        let rc = pthread_create(&thread, nil, { argument in
            // The box (and the closure's captures) is released before the thread ends.
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            Thread.current.name = body.name
            body.run()
            return nil
        }, box)
        precondition(rc == 0, "cannot start thread \(name): \(String(cString: strerror(rc)))")
    }

    /// Waits until the thread has ended. Call once, from the thread that created it.
    func join() {
        precondition(!joined, "JoinedThread joined twice")
        joined = true
        pthread_join(thread, nil)
    }

    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = String(name.utf8.prefix(15))!   // Linux thread names hold 15 bytes
            self.run = run
        }
    }
}
