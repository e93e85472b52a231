import Host

/// A value guarded by a pthread mutex.
///
/// Used instead of `Synchronization.Mutex` because the thread sanitizer understands pthread
/// locks (it intercepts them) but not Mutex's futex, and the engine's tests must run clean
/// under `--sanitize=thread`.
package final class Protected<Value> {
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

/// Shareable between threads when its value may cross them: the value is only reached through
/// `withLock`, under the mutex. A box of non-Sendable values (managed objects) stays on its thread.
extension Protected: @unchecked Sendable where Value: Sendable {}
