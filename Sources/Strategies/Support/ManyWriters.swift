import ObjectGraph
import Report
import SQLiteKit
import Workload

/// One context per producer, each finding-or-creating by key and saving every `--batch-size`:
/// the buggy downloader, with or without a uniqueness constraint to save it.
struct ManyWriters {
    func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type, batchSize: Int) throws
        -> StrategyCounters
    {
        let mapping = try job.importModel()
        let first = try job.makeContainer(mapping.model, as: engine)
        // The screen watches the first coordinator: with per-writer coordinators it sees only
        // that writer's saves, as an app misses its extension's without persistent history.
        let screen = try Screen(job: job, container: first, mapping: mapping)
        let (contexts, stores) = try Self.writerContexts(job, mapping: mapping, first: first)
        let producers = try Producers(job: job)
        let barrier = job.writerScenario == .sameKeysForEveryWriter ? Barrier(parties: job.writers) : nil
        let clocks = Protected(SaveClock())
        let contextsToRun = contexts
        try producers.run { p in
            let context = contextsToRun[p]
            var clock = SaveClock()
            try context.performAndWait {
                let upsert = try FindOrCreate<Store.Context>(mapping: mapping, context: context, job: job)
                let feed = try producers.records(for: p)
                var record = Record()
                var pending: [Record] = []
                var waited = barrier == nil
                func save() throws {
                    if !waited {
                        barrier?.arriveAndWait()
                        waited = true
                    }
                    try upsert.finishBatch(pending, in: context, clock: &clock, job: job)
                    pending.removeAll(keepingCapacity: true)
                }
                while try feed.next(into: &record) {
                    producers.simulateFetch(record.index)
                    try upsert.parents?.prepare(for: [record], in: context)
                    try upsert.members?.prepare(for: [record], in: context)
                    try upsert.upsert(record, in: context)
                    pending.append(record)
                    if pending.count == batchSize { try save() }
                }
                try save()
            }
            clocks.withLock { $0.merge(clock) }
        }
        var counters = clocks.withLock { $0 }.counters(contexts: contexts, stores: stores)
        screen?.report(into: &counters)
        return counters
    }

    /// A context per writer, each on the first container or (per-writer coordinators) a container
    /// of its own on the same file, as an app and its extension; and every container used (each
    /// is a coordinator).
    static func writerContexts<Store: ObjectStore>(_ job: StrategyJob, mapping: ImportModel, first: Store) throws
        -> (contexts: [Store.Context], stores: [Store])
    {
        var stores = [first]
        var contexts: [Store.Context] = []
        for p in 0..<job.writers {
            let container =
                p == 0 || job.coordinators == .shared ? first : try job.makeContainer(mapping.model, as: Store.self)
            if container !== first { stores.append(container) }
            let context = container.newBackgroundContext(name: "writer-\(p)")
            // Object-trump in both variants: writers that update the same rows (a repeated key
            // found in the store) merge instead of failing, so nothing is lost; what differs is
            // whether the store itself refuses a second row per key.
            context.mergePolicy = .mergeByPropertyObjectTrump
            contexts.append(context)
        }
        return (contexts, stores)
    }
}
