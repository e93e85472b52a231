import Synchronization

/// Records processed so far, shared between the strategy's threads and the sampler.
///
/// Strategies add in chunks (per batch, or every few hundred rows), not per row, so the atomic
/// is off the hot path; the sampler reads it every 10 ms for the timeline and the progress bar.
public final class ProgressCounter: Sendable {
    private let done = Atomic<Int>(0)

    public init() {}

    /// Adds `n` processed records.
    @inline(__always)
    public func add(_ n: Int) { done.wrappingAdd(n, ordering: .relaxed) }

    /// Records processed so far.
    public var value: Int { done.load(ordering: .relaxed) }
}
