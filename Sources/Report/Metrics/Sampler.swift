import Foundation
import Host
import Synchronization

/// Samples memory and progress every 10 ms on its own thread while a strategy runs.
///
/// It feeds the timeline (`--timeline`), the progress display, and the peak heap (jemalloc has
/// no peak of its own, so the peak is the largest sample, taken at 10 ms resolution, and the
/// final reading). One `read` of /proc and one `mallctl` per sample keep its cost far below the
/// 2% measurement budget.
package final class Sampler: Sendable {
    /// What the sampler saw.
    package struct Summary: Sendable {
        package var peakHeapBytes: Int
        package var samples: Int
    }

    private let interval: UInt32
    private let progress: ProgressCounter
    private let timeline: TimelineWriter?
    private let display: ProgressDisplay?
    private let stopping = Atomic<Bool>(false)
    private let peakHeap = Atomic<Int>(0)
    private let sampleCount = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)
    private let running = DispatchSemaphore(value: 0)
    private let startedAt: UInt64

    /// - Parameters:
    ///   - intervalMilliseconds: time between samples.
    ///   - timeline: where samples go, when `--timeline` asked for them.
    ///   - display: the progress bar or lines on stderr, when shown.
    package init(
        intervalMilliseconds: UInt32 = 10, progress: ProgressCounter, timeline: TimelineWriter?,
        display: ProgressDisplay?, startedAt: UInt64
    ) {
        self.interval = intervalMilliseconds * 1000
        self.progress = progress
        self.timeline = timeline
        self.display = display
        self.startedAt = startedAt
    }

    /// Starts sampling on a new thread, and returns once it runs on an arena of its own: its
    /// allocations depend on time, not on the strategy, and must not count as the strategy's.
    /// Throws when the system refuses the thread.
    package func start() throws(ThreadStartError) {
        try BackgroundThread.start(name: "loadgen.sampler") { [self] in
            WorkCounters.excludeCallingThread()
            running.signal()
            while !stopping.load(ordering: .acquiring) {
                sample()
                Posix.sleep(microseconds: interval)
            }
            sample()
            finished.signal()
        }
        running.wait()
    }

    /// Stops sampling, takes a last sample, and waits for the thread to finish.
    package func stop() -> Summary {
        stopping.store(true, ordering: .releasing)
        finished.wait()
        display?.finish(rows: progress.value, elapsedNanoseconds: Clock.nanoseconds() &- startedAt)
        return Summary(peakHeapBytes: peakHeap.load(ordering: .relaxed), samples: sampleCount.load(ordering: .relaxed))
    }

    private func sample() {
        let heap = Heap.allocatedBytes()
        let rows = progress.value
        let elapsed = Clock.nanoseconds() &- startedAt
        if heap > peakHeap.load(ordering: .relaxed) { peakHeap.store(heap, ordering: .relaxed) }
        sampleCount.wrappingAdd(1, ordering: .relaxed)
        timeline?.append(milliseconds: elapsed / 1_000_000, rows: rows, rss: ProcessMemory.residentBytes(), heap: heap)
        display?.update(rows: rows, elapsedNanoseconds: elapsed)
    }
}
