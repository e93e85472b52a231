import Foundation
import Host
import Synchronization

/// The run-time queue check, like Core Data's `-com.apple.CoreData.ConcurrencyDebug 1`.
///
/// When enabled, every access to a context or one of its objects checks that it happens inside
/// one of the context's `perform` blocks, and traps with a message naming the context otherwise:
/// the wrong-queue bug shows on the first run instead of corrupting state one time in a thousand.
/// On by default in tests; set `LOADGEN_CONCURRENCY_DEBUG=1` to turn it on in a run.
package enum ConcurrencyDebug {
    private static let flag = Atomic<Bool>(ProcessInfo.processInfo.environment["LOADGEN_CONCURRENCY_DEBUG"] == "1")

    package static var isEnabled: Bool {
        get { flag.load(ordering: .relaxed) }
        set { flag.store(newValue, ordering: .relaxed) }
    }

    /// An identifier of the calling thread, cheap enough to compare on every access.
    @inline(__always)
    static func currentThread() -> UInt {
        Host.currentThreadID()
    }
}
