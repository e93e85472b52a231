import Synchronization

/// Records processed so far, shared between the strategy's threads and the sampler.
///
/// Strategies add in chunks (per batch, or every few hundred rows), not per row, so the atomic
/// is off the hot path; the sampler reads it every 10 ms for the timeline and the progress bar.
package final class ProgressCounter: Sendable {
    private let done = Atomic<Int>(0)

    package init() {}

    /// Adds `n` processed records.
    @inline(__always)
    package func add(_ n: Int) { done.wrappingAdd(n, ordering: .relaxed) }

    /// Records processed so far.
    package var value: Int { done.load(ordering: .relaxed) }
}
