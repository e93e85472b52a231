import ObjectGraph
import Report
import SQLiteKit
import Workload

/// Apple's efficient find-or-create (`FindOrCreateImport.Importer`, batched) run by every
/// producer in a context of its own, each finding its batch's keys and saving: what an app does
/// when several imports run at once (a sync and a refresh, or an app and its extension) with no
/// uniqueness constraint. A key that arrives at two writers in batches they fetch before either
/// saves is found by neither and inserted by both: duplicates race in, as in `ManyWriters`.
struct FindOrCreateWriters {
    var batchSize: Int

    func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        let mapping = try job.importModel()
        let first = try job.makeContainer(mapping.model, as: engine)
        let screen = try Screen(job: job, container: first, mapping: mapping)
        let (contexts, stores) = try ManyWriters.writerContexts(job, mapping: mapping, first: first)
        let producers = try Producers(job: job)
        // The race scenario: every writer has found its first batch before any saves.
        let barrier = job.writerScenario == .sameKeysForEveryWriter ? Barrier(parties: job.writers) : nil
        let clocks = Protected(SaveClock())
        let batchSize = batchSize
        try producers.run { p in
            let context = contexts[p]
            var clock = SaveClock()
            try context.performAndWait {
                let feed = try producers.records(for: p)
                var importer = try FindOrCreateImport.Importer<Store.Context>(
                    lookup: .batched, mapping: mapping, context: context,
                    pool: feed.stream.pool, job: job)
                var record = Record()
                var group: [Record] = []
                var waited = barrier == nil
                func flush() throws {
                    if !group.isEmpty { try importer.find(group) }
                    if !waited {
                        barrier?.arriveAndWait()
                        waited = true
                    }   // a writer with nothing still arrives
                    guard !group.isEmpty else { return }
                    try importer.save(group, clock: &clock)
                    job.progress.add(group.count)
                    group.removeAll(keepingCapacity: true)
                }
                while try feed.next(into: &record) {
                    producers.simulateFetch(record.index)
                    group.append(record)
                    if group.count == batchSize { try flush() }
                }
                if !group.isEmpty || !waited { try flush() }
            }
            clocks.withLock { $0.merge(clock) }
        }
        var counters = clocks.withLock { $0 }.counters(contexts: contexts, stores: stores)
        screen?.report(into: &counters)
        return counters
    }
}
