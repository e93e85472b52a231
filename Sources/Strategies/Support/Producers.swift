import Foundation
import Host
import SQLiteKit
import Workload

/// K producer threads that "download" records: each waits a simulated fetch latency (seeded
/// jitter, mean `--producer-latency`) per record, then hands the record on. They never touch a
/// context themselves unless the strategy's idiom says so.
struct Producers {
    let count: Int
    let latencyMicroseconds: Int
    let seed: UInt64
    let scenario: WriterScenario
    private let shared: RecordStream?
    private let shape: RecordShape
    private let job: StrategyJob

    init(job: StrategyJob) throws {
        self.job = job
        count = job.writers
        latencyMicroseconds = job.producerLatencyMicroseconds
        seed = job.workload.seed
        scenario = job.writerScenario
        let shape = try job.shape()
        self.shape = shape
        shared = scenario == .split ? try job.makeStream(shape) : nil
    }

    /// Where producer `p` takes its records: the one shared stream, each record once; or, in
    /// the race scenario, a whole stream of its own.
    func records(for p: Int) throws -> Feed {
        if let shared { return Feed(stream: shared, shared: true) }
        return Feed(stream: try job.makeStream(shape), shared: false)
    }

    /// One producer's view of its stream.
    struct Feed {
        let stream: RecordStream
        let shared: Bool
        func next(into record: inout Record) throws -> Bool {
            shared ? try stream.nextShared(into: &record) : try stream.next(into: &record)
        }
    }

    /// Sleeps as long as fetching record `i` takes: latency × (0.5 … 1.5), the same for the
    /// same seed on every run.
    func simulateFetch(_ i: Int) {
        guard latencyMicroseconds > 0 else { return }
        let jitter = 0.5 + Mixing.unit(Mixing.hash(seed ^ 0x1A7E_0C1, UInt64(i)))
        Posix.sleep(microseconds: UInt32(Double(latencyMicroseconds) * jitter))
    }

    /// Runs `body(p)` on K threads at once and joins all of them, so nothing they captured
    /// outlives the call; the first error thrown is rethrown.
    func run(_ body: @escaping @Sendable (Int) throws -> Void) throws {
        let failure = Protected<Error?>(nil)
        let threads = (0..<count).map { p in
            JoinedThread(name: "producer-\(p)") {
                do { try body(p) } catch { failure.withLock { $0 = $0 ?? error } }
            }
        }
        for thread in threads { thread.join() }
        if let error = failure.withLock({ $0 }) { throw error }
    }
}

/// A bounded queue from producers to one consumer: producers block when it is full, so a
/// slow writer slows the producers instead of growing memory.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // Guarded by `condition`.
    private var items: [Element] = []
    private var head = 0
    private var openProducers: Int
    private var cancelled = false
    private let capacity: Int
    private let condition = NSCondition()

    init(capacity: Int, producers: Int) {
        self.capacity = capacity
        self.openProducers = producers
        items.reserveCapacity(capacity)
    }

    /// Adds `element`, waiting while the queue is full. Returns false (dropping it) once the
    /// consumer has cancelled: a producer must stop then instead of waiting forever.
    @discardableResult
    func put(_ element: Element) -> Bool {
        condition.lock()
        while items.count - head >= capacity && !cancelled { condition.wait() }
        if cancelled {
            condition.unlock()
            return false
        }
        if head > 0 && items.count == items.capacity {
            items.removeFirst(head)
            head = 0
        }
        items.append(element)
        condition.broadcast()
        condition.unlock()
        return true
    }

    /// The consumer gives up (it failed): waiting producers are released and every later
    /// `put` returns false at once.
    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }

    /// One producer is done.
    func finish() {
        condition.lock()
        openProducers -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Up to `max` elements into `batch` (waiting for at least one); false when every producer
    /// is done and nothing is left, or the queue was cancelled.
    func take(max: Int, into batch: inout [Element]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count == head && openProducers > 0 && !cancelled { condition.wait() }
        if items.count == head || cancelled { return false }
        let n = min(max, items.count - head)
        batch.append(contentsOf: items[head..<(head + n)])
        head += n
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        condition.broadcast()
        return true
    }
}

/// Holds every writer until all have arrived: "each fetches before any saves".
final class Barrier: @unchecked Sendable {
    // Guarded by `condition`.
    private var waiting: Int
    private let condition = NSCondition()

    init(parties: Int) { waiting = parties }

    func arriveAndWait() {
        condition.lock()
        waiting -= 1
        if waiting <= 0 { condition.broadcast() }
        while waiting > 0 { condition.wait() }
        condition.unlock()
    }
}
