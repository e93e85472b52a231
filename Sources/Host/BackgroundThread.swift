import Foundation

/// Starts loadgen's own threads (the sampler and the parent watch, detached; the strategies'
/// producers, joined through `JoinedThread`) as pthreads that report when they cannot start.
///
/// Foundation's `Thread.start()` returns normally when the system refuses a thread (a memory
/// limit, `ulimit -v`, too low for its stack), and whoever then waits for the thread to say it
/// runs waits forever: a `run` under `ulimit -v 100000` hung that way. This throws instead.
package enum BackgroundThread {
    /// Runs `body` on a new detached thread named `name` (15 bytes at most on Linux).
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
        pthread_detach(try create(name: name, body))
    }

    /// Runs `body` on a new joinable thread named `name`; the caller joins it. The closure (and
    /// what it captured) is released before the thread ends.
    package static func create(name: String, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError)
        -> pthread_t
    {
        let box = Unmanaged.passRetained(Body(name: String(name.utf8.prefix(15))!, run: body)).toOpaque()
        var thread = Host.emptyThreadSlot()
        // The argument is optional in glibc's declaration and not in Darwin's: `run` takes either.
        let rc = pthread_create(&thread, nil, { BackgroundThread.run($0) }, box)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw ThreadStartError(name: name, code: rc)
        }
        return Host.thread(in: thread)
    }

    /// The new thread's start: takes back the body `create` retained, names the thread, runs it.
    private static func run(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let argument else { return nil }
        let body = Unmanaged<Body>.fromOpaque(argument).takeRetainedValue()
        Thread.current.name = body.name
        body.run()
        return nil
    }

    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}

/// The system refused a thread.
package struct ThreadStartError: Error, CustomStringConvertible {
    package let name: String
    package let code: Int32

    /// What the description adds when the system had no memory for the thread, and what tells
    /// a repetition that failed this way as failed on the environment (`EnvironmentFailure`).
    package static let memoryHint = " (is a memory limit, ulimit -v, too low?)"

    package var description: String {
        "cannot start the \(name) thread: \(String(cString: strerror(code)))"
            + (code == EAGAIN || code == ENOMEM ? Self.memoryHint : "")
    }
}
