import Foundation
import Testing

@testable import Host

/// Issue 48, 1: the figures Host gives on the system the tests run on. Test binaries run on the
/// system's malloc (the thread sanitizer needs it), so these also pin what a build without
/// jemalloc reports: the allocator named, the request counts absent rather than zero.
@Suite struct SystemFiguresTests {
    @Test func withoutJemallocTheSystemAllocatorIsNamedAndRequestCountsAreAbsent() {
        #if os(Linux)
            #expect(Heap.allocatorName == "glibc")
        #else
            #expect(Heap.allocatorName == "darwin")
        #endif
        #expect(JemallocCounts.shared == nil)
    }

    /// Counts, or says which call failed and why (most virtual machines have no hardware counter);
    /// never a count of zero.
    @Test func theInstructionCounterCountsOrSaysWhy() {
        switch Host.InstructionCounter.start() {
        case .success(let counter):
            var sum = 0
            for i in 0..<100_000 { sum &+= i &* i }
            let count = counter.stop()
            #if os(Linux)
                #expect(sum != 1 && (count ?? 0) > 0)
                #expect(counter.countedBy == "perf")
            #else
                // The process's total may be brought up to date only at a context switch, so over so
                // short a loop the count need not grow; a later reading never falls below it.
                let later = counter.stop()
                #expect(sum != 1 && count != nil && later != nil && later! >= count!)
                #expect(counter.countedBy == "rusage")
            #endif
        case .failure(let reason):
            #if os(Linux)
                #expect(reason.description.hasPrefix("perf_event_open: "))
            #else
                #expect(reason.description.hasPrefix("proc_pid_rusage: "))
            #endif
        }
    }

    /// A background thread runs its body, under its own identifier.
    @Test func aBackgroundThreadRunsWithItsOwnIdentifier() async throws {
        let mine = Host.currentThreadID()
        let seen = try await withCheckedThrowingContinuation { (done: CheckedContinuation<UInt, any Error>) in
            do {
                try BackgroundThread.start(name: "host-test") { done.resume(returning: Host.currentThreadID()) }
            } catch {
                done.resume(throwing: error)
            }
        }
        #expect(seen != mine && seen != 0)
    }

    /// getrusage answers (its peak resident size, in either system's unit, is never 0 for a
    /// running process), and so does the current resident size.
    @Test func theProcessUsageAndMemoryAreRead() {
        let usage = Host.processUsage()
        #expect(usage.ru_maxrss > 0)
        #expect(ProcessMemory.residentBytes() > 0)
    }
}
