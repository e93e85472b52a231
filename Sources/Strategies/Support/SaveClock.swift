import ObjectGraph
import Report

/// Times saves and tracks how many objects a context held at most: the figures every context
/// strategy reports.
struct SaveClock {
    var durations = LatencyHistogram()
    var peakRegistered = 0

    /// Saves `context`, timing it; notes how many objects it held just before.
    mutating func save(_ context: some ObjectContext) throws {
        peakRegistered = max(peakRegistered, context.registeredObjectCount)
        guard context.hasChanges else { return }
        let start = Clock.nanoseconds()
        try context.save()
        durations.record(nanoseconds: Clock.nanoseconds() &- start)
    }

    /// The counters for a run whose contexts and stores (each with its coordinator) are given.
    func counters<Store: ObjectStore>(contexts: [Store.Context], stores: [Store]) -> StrategyCounters {
        var c = StrategyCounters()
        c.setSaves(durations)
        c.saves = contexts.reduce(0) { total, context in total + context.performAndWait { context.saveCount } }
        c.conflicts = contexts.reduce(0) { total, context in total + context.performAndWait { context.conflictCount } }
        c.saveRetries = contexts.reduce(0) { total, context in
            total + context.performAndWait { context.failedSaveAttempts }
        }
        c.busyRetries = stores.reduce(0) { $0 + $1.busyRetries }
        c.peakRegisteredObjects = peakRegistered
        return c
    }

    /// Combines the clocks of several writers.
    mutating func merge(_ other: SaveClock) {
        durations.merge(other.durations)
        peakRegistered = max(peakRegistered, other.peakRegistered)
    }
}
