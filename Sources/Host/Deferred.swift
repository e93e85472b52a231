import Foundation
import Synchronization

/// A value computed on a thread of its own while the caller does something else, then waited
/// for: `report` makes its summary (thousands of bootstrap resamples) while gnuplot draws the
/// charts, one job per core of a 2-core runner.
package final class Deferred<Value: Sendable>: Sendable {
    private let slot = Slot()
    private let thread: Handle

    /// Starts `body` on a new joinable thread named `name`.
    package init(name: String, _ body: @escaping @Sendable () -> Value) throws(ThreadStartError) {
        let slot = self.slot
        thread = Handle(
            raw: try BackgroundThread.create(name: name) {
                let value = body()
                slot.result.withLock { $0 = value }
            })
    }

    /// Waits for the thread to end and returns its value. Call once.
    package func value() -> Value {
        pthread_join(thread.raw, nil)
        return slot.result.withLock { $0! }
    }

    /// `@unchecked Sendable`: pthread_t is an integer on Linux and a pointer on Darwin; the
    /// handle is written once by `init` and only passed to `pthread_join`.
    private struct Handle: @unchecked Sendable {
        let raw: pthread_t
    }

    private final class Slot: Sendable {
        let result = Mutex<Value?>(nil)
    }
}
