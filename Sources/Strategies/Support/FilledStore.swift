import ObjectGraph
import Report
import Workload

/// The store an update, delete or read works on, opened as an app would: the model with its
/// uniqueness constraints (the layout the store was filled with), and the properties the
/// strategies touch resolved once.
struct FilledStore<Store: ObjectStore> {
    let container: Store
    let target: OperationTarget
    /// The record entity's name (`Expense`).
    let expense: String
    /// The text attribute an update writes (`note`), by name and index; nil when there is none.
    let noteAttribute: String?
    let note: Int?
    /// The to-one a cell shows (`category`) and its destination's key (`name`), when there is one.
    let categoryRelationship: String?
    let category: Int?
    let categoryName: Int?
    /// The related object's key attribute by name (`name`): what a dictionary fetch reads
    /// through the relationship (`category.name`).
    let categoryNameAttribute: String?
    /// The record's key attribute (`externalID`): the stable order a paged list sorts by.
    let keyAttribute: String?

    /// Opens the store (three reads: the schema, and the metadata that identifies the model),
    /// or uses the container the strategy's setUp opened before the window.
    init(_ job: StrategyJob) throws {
        guard let target = job.operationTarget else { throw OperationError.notFilled }
        let mapping = try job.importModel()
        self.container = try job.prepared?.container as? Store ?? job.makeContainer(mapping.model, as: Store.self)
        self.target = target
        expense = mapping.recordEntity.name
        let entity = mapping.model.runtimeEntity(named: mapping.recordEntity.name)!
        noteAttribute = mapping.shape.updateField.map { mapping.shape.fields[$0].name }
        note = noteAttribute.flatMap(entity.attributeIndex)
        categoryRelationship = mapping.roles.relationship
        category = mapping.roles.relationship.flatMap(entity.toOneIndex)
        categoryName = mapping.parentEntity.flatMap { parent in
            mapping.roles.parentKey.flatMap { mapping.model.runtimeEntity(named: parent.name)!.attributeIndex($0) }
        }
        categoryNameAttribute = mapping.parentEntity == nil ? nil : mapping.roles.parentKey
        keyAttribute = mapping.shape.key.first.map { mapping.shape.fields[$0].name }
        if let missing = OperationRoles.missing(job.configuration.operation, in: mapping.shape) {
            throw OperationError.missingRole(missing)
        }
    }

    /// The targets: every expense dated before the cutoff.
    var targets: FetchRequest { FetchRequest(entityName: expense, predicate: target.predicate) }

    /// An update's or delete's set-up, before the window: the store opened and, when the run
    /// asks for one, the screen showing its list (the same for every strategy of the run).
    static func prepared(_ job: StrategyJob) throws -> PreparedState {
        let store = try FilledStore<Store>(job)
        let state = PreparedState()
        state.container = store.container
        state.screen = try Screen(job: job, container: store.container, mapping: try job.importModel())
        return state
    }

    /// What the screen shows and what merging cost, added to `counters` once the strategy's
    /// saves are merged (nothing without a screen).
    static func reportScreen(_ job: StrategyJob, into counters: inout StrategyCounters) {
        job.prepared?.screen?.report(into: &counters)
    }

    /// A batch-request strategy's window: `execute` runs the request on a background context
    /// named `worker`, asking for `resultType`; with a screen, `merge` says which of its object
    /// IDs the screen must re-read or drop, and the merge (timed) brings it up to date, as
    /// `mergeChanges(fromRemoteContextSave:into:)`.
    static func runBatchRequest(
        _ job: StrategyJob, worker name: String,
        _ execute: (Store.Context, FilledStore, BatchResultType) throws -> BatchResult,
        merge: (BatchResult) -> RemoteChanges
    ) throws -> StrategyCounters {
        let store = try FilledStore<Store>(job)
        let worker = store.container.newBackgroundContext(name: name)
        let result = try worker.performAndWait { try execute(worker, store, job.batchResultType()) }
        job.prepared?.screen?.merge(merge(result))
        job.progress.add(result.count)
        var counters = StrategyCounters()
        reportScreen(job, into: &counters)
        return counters
    }

    /// Object IDs of the targets (one keys-only query; no rows are read).
    func targetIDs(in context: Store.Context) throws -> [ManagedObjectID] {
        var request = targets
        request.fetchBatchSize = 1
        return try context.performAndWait { try context.fetch(request).map(\.objectID) }
    }
}

/// A strategy of another operation ran on an empty store.
enum OperationError: Error, CustomStringConvertible {
    case notFilled
    case missingRole(String)
    var description: String {
        switch self {
        case .notFilled:
            return "this strategy works on a filled store: run it with its --operation (see 'loadgen list')"
        case .missingRole(let why): return why
        }
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements.
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: Swift.max(1, size)).map { self[$0..<Swift.min(count, $0 + Swift.max(1, size))] }
    }
}

extension FilledStore {
    /// A count of every record on a context of its own, as the two counting idioms take it: how
    /// `count` says how many there are, and what the context holds after.
    static func count(_ job: StrategyJob, _ count: (Store.Context, FetchRequest) throws -> Int) throws
        -> StrategyCounters
    {
        let store = try FilledStore<Store>(job)
        let context = store.container.newBackgroundContext(name: "counter")
        var counters = StrategyCounters()
        try context.performAndWait {
            counters.objectsRead = try count(context, FetchRequest(entityName: store.expense))
            counters.peakRegisteredObjects = context.materializedObjectCount
        }
        job.progress.add(counters.objectsRead ?? 0)
        return counters
    }
}
