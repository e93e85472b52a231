import ObjectGraph
import Report

/// A list screen of every record with its related object's key (an expense's note and its
/// category's name): what each cell shows is added to a `ShownDigest`, and what the context
/// holds is sampled, so every read strategy reports the same figures the same way.
struct ListScreen<Store: ObjectStore> {
    let store: FilledStore<Store>
    let context: Store.Context
    private let progress: ProgressCounter
    private(set) var shown = ShownDigest()
    private(set) var peak = 0

    /// Opens the filled store, shows what `body` fetches on the screen's queue, and returns the
    /// read's figures: every read strategy's frame, its idiom in `body`.
    static func run(_ job: StrategyJob, _ body: (inout ListScreen, Store.Context, FilledStore<Store>) throws -> Void)
        throws
        -> StrategyCounters
    {
        var screen = try ListScreen(job)
        let context = screen.context
        let store = screen.store
        return try context.performAndWait {
            try body(&screen, context, store)
            return screen.counters()
        }
    }

    init(_ job: StrategyJob) throws {
        store = try FilledStore<Store>(job)
        context = store.container.newBackgroundContext(name: "screen")
        progress = job.progress
    }

    /// Shows an object in a cell: its note, and its related object's key (a fault fired when
    /// the related object is not registered yet).
    mutating func show(_ record: Store.Context.Object) {
        let note = store.note.map { record.value(at: $0) }
        var key: Value?
        if let category = store.category, let name = store.categoryName {
            key = record.object(at: category)?.value(at: name)
        }
        shown.add(note: note, key: key)
    }

    /// Shows a row of a dictionary fetch (the note and the related object's key by name).
    mutating func show(_ row: [String: Value], note: String?, key: String?) {
        shown.add(note: note.flatMap { row[$0] }, key: key.flatMap { row[$0] } ?? (key == nil ? nil : .null))
    }

    /// Notes how many objects the context holds values for now (a pass over the registry:
    /// called every few thousand rows, not per row).
    mutating func sample() { peak = max(peak, context.materializedObjectCount) }

    /// The figures of the read: rows shown, their digest, the most objects held at once.
    mutating func counters() -> StrategyCounters {
        sample()
        progress.add(shown.rows % 1_000)
        var counters = StrategyCounters()
        counters.objectsRead = shown.rows
        counters.shownDigest = shown.result
        counters.peakRegisteredObjects = peak
        return counters
    }

    /// After each row: progress every thousand rows, a sample every `every`.
    mutating func shownOne(sampleEvery every: Int) {
        if shown.rows % every == 0 { sample() }
        if shown.rows % 1_000 == 0 { progress.add(1_000) }
    }
}

/// A list screen of every expense with its category's name: the read strategies that differ
/// only in how the fetch is set up (plain, prefetching, in batches, without property values).
struct ReadList {
    var prefetchesCategories = false
    var batchSize = 0
    var includesPropertyValues = true

    func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ListScreen<Store>.run(job) { screen, context, store in
            var request = FetchRequest(entityName: store.expense)
            if prefetchesCategories, let relationship = store.categoryRelationship {
                request.relationshipKeyPathsForPrefetching = [relationship]
            }
            request.fetchBatchSize = batchSize
            request.includesPropertyValues = includesPropertyValues
            // What the walk holds at once, sampled every ten batches (a pass over the registry:
            // sampling every record would cost more than the read).
            let every = batchSize > 0 ? batchSize * 10 : Int.max
            for expense in try context.fetch(request) {
                screen.show(expense)
                screen.shownOne(sampleEvery: every)
            }
        }
    }
}

extension ObjectContext {
    /// Time this context spent merging, in milliseconds.
    var mergeMilliseconds: Double {
        Double(mergeTime.components.seconds) * 1000 + Double(mergeTime.components.attoseconds) / 1e15
    }
}
