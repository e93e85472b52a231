#if canImport(Glibc)
import CLinux
import Glibc
#endif
import Foundation
import Synchronization

/// Work a repetition did, counted exactly where the machine lets it be: allocation requests
/// (jemalloc) and instructions (a hardware counter). Unlike time, these repeat from run to run
/// for a single-writer strategy, which is what lets the nightly gate be strict about them.
package enum WorkCounters {
    /// Allocation requests and their bytes (rounded up to jemalloc's size classes) since some
    /// start, over every arena but the sampler's.
    package struct Allocations: Sendable, Equatable {
        package var count: UInt64
        package var bytes: UInt64

        package static func - (a: Allocations, b: Allocations) -> Allocations {
            Allocations(count: a.count &- b.count, bytes: a.bytes &- b.bytes)
        }
    }

    // MARK: Allocations (jemalloc)

    /// Requests so far, or nil without jemalloc. The calling thread's cache of small blocks is
    /// flushed first: jemalloc adds a thread cache's requests to the arena only when the cache
    /// fills or flushes, so an unflushed count would depend on where the cache happened to be.
    /// Threads that ended (producers) flushed theirs when they ended.
    package static func allocations() -> Allocations? {
        guard let reader = JemallocCounts.shared else { return nil }
        return reader.read()
    }

    /// Gives the calling thread an arena of its own, whose requests `allocations()` leaves out:
    /// for the sampler, whose work depends on time (one sample every 10 ms), not on the strategy.
    package static func excludeCallingThread() {
        JemallocCounts.shared?.bindExcludedArena()
    }

    // MARK: Instructions (perf_event_open)

    /// A running count of user-space instructions of this thread and the threads it starts.
    package struct InstructionCounter: Sendable {
        let fd: Int32

        /// Starts counting, or explains why this machine cannot (`ENOENT`: no hardware counter,
        /// as in most virtual machines).
        package static func start() -> Result<InstructionCounter, CounterUnavailable> {
            #if canImport(Glibc)
            let fd = loadgen_instruction_counter_open()
            guard fd >= 0 else { return .failure(CounterUnavailable(errno: -fd)) }
            guard loadgen_instruction_counter_start(fd) == 0 else {
                close(fd)
                return .failure(CounterUnavailable(errno: errno))
            }
            return .success(InstructionCounter(fd: fd))
            #else
            return .failure(CounterUnavailable(errno: ENOSYS))
            #endif
        }

        /// Stops and returns the count.
        package func stop() -> UInt64? {
            #if canImport(Glibc)
            defer { close(fd) }
            let value = loadgen_instruction_counter_stop(fd)
            return value >= 0 ? UInt64(value) : nil
            #else
            return nil
            #endif
        }
    }

    /// Why instructions cannot be counted here.
    package struct CounterUnavailable: Error, Sendable, CustomStringConvertible {
        package let errno: Int32
        package var description: String { "perf_event_open: " + String(cString: strerror(errno)) }
    }
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
