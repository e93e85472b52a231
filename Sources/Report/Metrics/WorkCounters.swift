import Host
import Synchronization

/// Work a repetition did, counted exactly where the machine lets it be: allocation requests
/// (jemalloc) and instructions (a hardware counter). Unlike time, these repeat from run to run
/// for a single-writer strategy, which is what lets the nightly gate be strict about them.
package enum WorkCounters {
    /// Allocation requests and their bytes (rounded up to jemalloc's size classes) since some
    /// start, over every arena but the sampler's.
    package typealias Allocations = AllocationRequests

    // MARK: Allocations (jemalloc)

    /// Requests so far, or nil without jemalloc (`JemallocCounts.read` says how the calling
    /// thread's cache is counted). Threads that ended (producers) flushed theirs when they ended.
    package static func allocations() -> Allocations? {
        guard let reader = JemallocCounts.shared else { return nil }
        return reader.read()
    }

    /// Gives the calling thread an arena of its own, whose requests `allocations()` leaves out:
    /// for the sampler, whose work depends on time (one sample every 10 ms), not on the strategy.
    package static func excludeCallingThread() {
        JemallocCounts.shared?.bindExcludedArena()
    }

    // MARK: Instructions (Host's counter)

    /// A running count of instructions (perf_event_open on Linux, proc_pid_rusage on Darwin).
    package typealias InstructionCounter = Host.InstructionCounter
    /// Why instructions cannot be counted here.
    package typealias CounterUnavailable = Host.CounterUnavailable
}

// MARK: - Marking the measured window for callgrind

/// Called as the measured window opens. Under `valgrind --tool=callgrind
/// --zero-before='*loadgenWindowOpen*' --dump-before='*loadgenWindowClose*'` the first dump holds
/// the instructions of every thread between the two calls (callgrind zeroes and dumps all
/// threads; its collection toggles would be per thread). Swift calls the mangled symbol, hence
/// the patterns; `@inline(never)` keeps a call for callgrind to see.
@inline(never)
package func loadgenWindowOpen() { windowMarks.wrappingAdd(1, ordering: .relaxed) }

/// Called as the measured window closes (see `loadgenWindowOpen`).
@inline(never)
package func loadgenWindowClose() { windowMarks.wrappingAdd(1, ordering: .relaxed) }

/// Something observable for the markers to do, so the optimizer keeps them as calls.
private let windowMarks = Atomic<Int>(0)
