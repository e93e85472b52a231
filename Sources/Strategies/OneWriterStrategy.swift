import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Workload

/// Parallel producers, ONE background writer context: the fixed photo downloader.
///
/// Models the answer of seed 001 ("two contexts: … one background context that does all the
/// writing, one save at a time"): `--writers` producers simulate downloads and hand values (never
/// managed objects) to a single writer that finds-or-creates by key and saves every
/// `--batch-size`, resetting after each save. Hypothesis: zero duplicates, because "is this key
/// already saved?" has one true answer when one writer asks.
package struct OneWriterStrategy: WriteStrategy {
    package init() {}
    package var name: String { "one-writer" }
    package var summary: String {
        "--writers producers hand records to ONE writer context that finds-or-creates by key"
    }
    package var idiom: String { "the fixed photo downloader: parallel producers, one background writer (seed 001)" }
    package var keyNeed: KeyNeed { .index }
    package var usesWriters: Bool { true }
    /// One writer context, one coordinator: `--coordinators` means nothing here.
    package var usesCoordinators: Bool { false }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        let mapping = try job.importModel()
        let container = try job.makeContainer(mapping.model, as: engine)
        let screen = try Screen(job: job, container: container, mapping: mapping)
        let writer = container.newBackgroundContext(name: "writer")
        let producers = try Producers(job: job)
        let queue = BoundedQueue<Record>(capacity: max(1_024, 64 * job.writers), producers: job.writers)
        let failure = Protected<Error?>(nil)
        let feeding = JoinedThread(name: "feeding") {
            do {
                try producers.run { p in
                    defer { queue.finish() }
                    let feed = try producers.records(for: p)
                    var record = Record()
                    while try feed.next(into: &record) {
                        producers.simulateFetch(record.index)
                        guard queue.put(record) else { return }   // the writer gave up
                    }
                }
            } catch {
                failure.withLock { $0 = error }
            }
        }
        let batchSize = job.batchSize(for: self)
        var clock = SaveClock()
        do {
            try write(to: writer, from: queue, mapping: mapping, job: job, batchSize: batchSize, clock: &clock)
        } catch {
            // Producers blocked on the full queue are released and joined before this returns:
            // none may stay behind holding the job.
            queue.cancel()
            feeding.join()
            throw error
        }
        feeding.join()
        if let error = failure.withLock({ $0 }) { throw error }
        var counters = clock.counters(contexts: [writer], stores: [container])
        screen?.report(into: &counters)
        return counters
    }

    /// The one writer: takes what the producers queued, a batch at a time, finds-or-creates
    /// each record and saves.
    private func write<Context: ObjectContext>(
        to writer: Context, from queue: BoundedQueue<Record>, mapping: ImportModel,
        job: StrategyJob, batchSize: Int, clock: inout SaveClock
    ) throws {
        try writer.performAndWait {
            let upsert = try FindOrCreate<Context>(mapping: mapping, context: writer, job: job)
            // Room for a whole batch up front: grown by appends, the array's allocations followed how
            // many records each take found, which the threads' scheduling decides (the nightly's
            // one-writer allocated 28,996,544 bytes, or 29,291,920 with three more allocations when
            // the machine was loaded).
            var batch: [Record] = []
            batch.reserveCapacity(min(batchSize, 65_536))
            while queue.take(max: batchSize, into: &batch) {
                // A full batch or whatever the producers had: keep taking until the batch is full.
                while batch.count < batchSize, queue.take(max: batchSize - batch.count, into: &batch) {}
                try upsert.parents?.prepare(for: batch, in: writer)
                try upsert.members?.prepare(for: batch, in: writer)
                for r in batch { try upsert.upsert(r, in: writer) }
                try upsert.finishBatch(batch, in: writer, clock: &clock, job: job)
                batch.removeAll(keepingCapacity: true)
            }
        }
    }
}
