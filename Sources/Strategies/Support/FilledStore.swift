import ObjectGraph
import Report
import Workload

/// The store an update, delete or read works on, opened as an app would: the expenses model
/// with its uniqueness constraints (the layout the store was filled with), and the names the
/// strategies touch resolved once.
struct FilledStore {
    let container: PersistentContainer
    let target: OperationTarget
    let expense: String
    /// Attribute and to-one indexes of Expense and Category.
    let note: Int
    let category: Int
    let categoryName: Int

    /// Opens the store (three reads: the schema, and the metadata that identifies the model),
    /// or uses `container` when the strategy's setUp opened it already.
    init(_ job: StrategyJob, container: PersistentContainer? = nil) throws {
        guard let target = job.operationTarget else { throw OperationError.notFilled }
        let mapping = DatasetMapping(dataset: .expenses, key: .unique)
        self.container = try container ?? job.makeContainer(mapping.model)
        self.target = target
        expense = mapping.recordEntity.name
        let entity = mapping.model.runtimeEntity(named: mapping.recordEntity.name)!
        let parent = mapping.model.runtimeEntity(named: mapping.parentEntity.name)!
        note = entity.attributeIndex("note")!
        category = entity.toOneIndex("category")!
        categoryName = parent.attributeIndex("name")!
    }

    /// The targets: every expense dated before the cutoff.
    var targets: FetchRequest { FetchRequest(entityName: expense, predicate: target.predicate) }

    /// A screen (the view context) showing every target, with its category: what a batch
    /// request's merge must bring up to date.
    func screenShowingTargets() throws -> ManagedObjectContext {
        let screen = container.viewContext
        var request = targets
        request.relationshipKeyPathsForPrefetching = ["category"]
        _ = try screen.performAndWait { try screen.fetch(request) }
        return screen
    }

    /// Object IDs of the targets (one keys-only query; no rows are read).
    func targetIDs(in context: ManagedObjectContext) throws -> [ManagedObjectID] {
        var request = targets
        request.fetchBatchSize = 1
        return try context.performAndWait { try context.fetch(request).map(\.objectID) }
    }
}

/// A strategy of another operation ran on an empty store.
enum OperationError: Error, CustomStringConvertible {
    case notFilled
    var description: String {
        switch self {
        case .notFilled: return "this strategy works on a filled store: run it with its --operation (see 'loadgen list')"
        }
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements.
    func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: Swift.max(1, size)).map { self[$0..<Swift.min(count, $0 + Swift.max(1, size))] }
    }
}
