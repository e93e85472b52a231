import Foundation
import Host
import Report
import Workload

/// The records of a job, generated or read from an import file, delivered on schedule in an
/// open-loop run.
///
/// With a rate, record i is due at start + i / rate: `next` waits until then, and stamps the
/// record with that intended arrival, whatever time the strategy takes it. A strategy that falls
/// behind takes records late and the latency shows it. Without a rate, records come as fast as
/// they are taken. One consumer uses `next`; producers sharing a stream use `nextShared`.
final class RecordStream: @unchecked Sendable {
    // `source` and `taken` are guarded by `lock` in `nextShared`, confined to one consumer in `next`.
    private var source: any RecordSource
    private var taken = 0
    private let interval: Double?
    private let start: UInt64
    private let lock = NSLock()
    /// Told of every record handed out in an open-loop run (for its backlog).
    private let latency: LatencyRecorder?

    /// Where the source's generated binary values point.
    let pool: PayloadPool?

    init(_ source: any RecordSource, rate: Double?, latency: LatencyRecorder? = nil) {
        self.source = source
        pool = source.pool
        interval = rate.map { 1e9 / $0 }
        start = Clock.nanoseconds()
        self.latency = latency
    }

    /// The next record, for a single consumer.
    @inline(__always)
    func next(into record: inout Record) throws -> Bool {
        guard try source.next(into: &record) else { return false }
        let i = taken
        taken += 1
        if interval != nil { wait(forRecord: i, into: &record) }
        return true
    }

    /// The next record, for producers sharing the stream.
    func nextShared(into record: inout Record) throws -> Bool {
        lock.lock()
        let more: Bool
        let i = taken
        do {
            more = try source.next(into: &record)
            if more { taken += 1 }
        } catch {
            lock.unlock()
            throw error
        }
        lock.unlock()
        if more && interval != nil { wait(forRecord: i, into: &record) }
        return more
    }

    /// Hands the records to `body` in batches of `size` (the last may be smaller), reusing one
    /// buffer; reports each batch to `progress` once `body` is done with it.
    func forEachBatch(of size: Int, progress: ProgressCounter, _ body: ([Record]) throws -> Void) throws {
        var batch: [Record] = []
        batch.reserveCapacity(min(size, 65_536))
        var record = Record()
        while try next(into: &record) {
            batch.append(record)
            guard batch.count == size else { continue }
            try body(batch)
            progress.add(batch.count)
            batch.removeAll(keepingCapacity: true)
        }
        if !batch.isEmpty {
            try body(batch)
            progress.add(batch.count)
        }
    }

    /// When record `i` is due (monotonic nanoseconds); 0 without a rate.
    func due(_ i: Int) -> UInt64 {
        guard let interval else { return 0 }
        return start &+ UInt64(Double(i) * interval)
    }

    private func wait(forRecord i: Int, into record: inout Record) {
        let due = self.due(i)
        record.arrival = due
        // Sleep (never spin: spinning would take a core from the strategy) until it is due. The
        // kernel may wake us a little late; the stamp stays the intended time, so that delay
        // counts as latency, as any other would.
        while true {
            let now = Clock.nanoseconds()
            guard due > now else { break }
            Posix.sleep(microseconds: UInt32(max(1, min(1_000_000, (due - now) / 1000))))
        }
        latency?.took()
    }
}
