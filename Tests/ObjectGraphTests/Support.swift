import Foundation
import SQLiteKit

@testable import ObjectGraph

/// A fresh store in a temporary file, with the queue checker on (as Core Data's
/// ConcurrencyDebug is in a test scheme).
func makeContainer(
    _ model: ManagedObjectModel = BundledModels.expenses(key: .none), path: String? = nil,
    counters: StatementCounters = StatementCounters()
) throws -> PersistentContainer {
    ConcurrencyDebug.isEnabled = true
    let file = path ?? NSTemporaryDirectory() + "og-\(UUID().uuidString).sqlite"
    return try PersistentContainer(model: model, options: StoreOptions(path: file), counters: counters)
}

extension PersistentContainer {
    var counters: StatementCounters { persistentStoreCoordinator.counters }
    var path: String { persistentStoreCoordinator.options.path }

    /// Counts rows with plain SQL on a connection of its own.
    func rows(_ sql: String) throws -> Int {
        try Database(path: path).scalarInt(sql)
    }
}

/// Inserts `count` expenses spread over `categories` categories and saves. Returns the IDs.
@discardableResult
func seedExpenses(_ context: ManagedObjectContext, count: Int, categories: Int) throws -> [ManagedObjectID] {
    try context.performAndWait {
        let category = try context.entity(named: "Category")
        let expense = try context.entity(named: "Expense")
        let cats = (0..<categories).map { i -> ManagedObject in
            let c = context.insert(category)
            c["name"] = .string("cat-\(i)")
            return c
        }
        var objects: [ManagedObject] = []
        for i in 0..<count {
            let e = context.insert(expense)
            e["externalID"] = .string("ex-\(i)")
            e["amount"] = .double(Double(i))
            e["note"] = .string("note \(i)")
            e["date"] = .date(Double(i))
            try e.setObject(cats[i % categories], forKey: "category")
            objects.append(e)
        }
        try context.save()
        return objects.map(\.objectID)
    }
}

/// The write transaction of the last save in recorded statements: from its BEGIN EXCLUSIVE to
/// the end (the post-save pragmas included).
func lastTransaction(_ sql: [String]) -> [String] {
    guard let begin = sql.lastIndex(of: "BEGIN EXCLUSIVE") else { return [] }
    return Array(sql[begin...])
}

/// Inserts a "Food" category and `count` expenses keyed ex-0, ex-1, … related to it, saves,
/// and returns the statements the save issued (recorded from before the first insert).
func recordSaveOfOneCategory(_ container: PersistentContainer, expenses count: Int) throws -> [String] {
    let context = container.newBackgroundContext()
    container.counters.startRecording()
    try context.performAndWait {
        let c = try context.insertNewObject(forEntityName: "Category")
        c["name"] = "Food"
        for i in 0..<count {
            let e = try context.insertNewObject(forEntityName: "Expense")
            e["externalID"] = .string("ex-\(i)")
            try e.setObject(c, forKey: "category")
        }
        try context.save()
    }
    return container.counters.stopRecording()
}

extension BundledModels {
    /// The expenses model with its keys protected as `key` says (what the strategies of each
    /// idiom write).
    static func expenses(key: KeyConstraint) -> ManagedObjectModel {
        try! ManagedObjectModel(
            key.apply(
                to: file(named: "Expenses").entities,
                keys: [("Expense", ["externalID"]), ("Category", ["name"])]))
    }

    /// The photos model, likewise.
    static func photos(key: KeyConstraint) -> ManagedObjectModel {
        try! ManagedObjectModel(
            key.apply(to: file(named: "Photos").entities, keys: [("Photo", ["remoteURL"]), ("Album", ["name"])]))
    }
}

/// One stored expense, and two contexts that have both read it: B, under `policy`, is the one
/// that meets the conflict when A saves first (`aChanges`, then A's save).
struct ReadByTwo {
    let container: PersistentContainer
    let id: ManagedObjectID
    let a: ManagedObjectContext
    let b: ManagedObjectContext

    init(policy: MergePolicy, aChanges: (ManagedObject) -> Void) throws {
        container = try makeContainer()
        id = try seedExpenses(container.newBackgroundContext(), count: 1, categories: 1)[0]
        a = container.newBackgroundContext(name: "A")
        b = container.newBackgroundContext(name: "B")
        b.mergePolicy = policy
        let (a, b, id) = (a, b, id)
        try b.performAndWait { _ = try b.existingObject(with: id) }
        try a.performAndWait {
            aChanges(try a.existingObject(with: id))
            try a.save()
        }
    }
}

/// A results controller over `request`, fetched and following `view`'s merges.
func followingController(_ request: FetchRequest, in view: ManagedObjectContext) throws -> FetchedResultsController {
    try view.performAndWait { () throws -> FetchedResultsController in
        let c = try FetchedResultsController(fetchRequest: request, managedObjectContext: view)
        try c.performFetch()
        return c
    }
}
