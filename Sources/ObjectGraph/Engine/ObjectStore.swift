import SQLiteKit

// MARK: - The engine behind protocols (decision 0047)
//
// What a strategy asks of a Core Data stack, as protocols shaped like Core Data's own classes:
// `ObjectStore` is `NSPersistentContainer`, `ObjectContext` is `NSManagedObjectContext`,
// `StoredObject` is `NSManagedObject`, `ResultsController` is `NSFetchedResultsController`.
// Strategies and their Support are generic over `ObjectStore` and never name the engine's classes,
// so a second conformance (Apple's Core Data, behind `canImport(CoreData)`) runs every strategy
// without touching one. loadgen's engine is one conformance, declared in Strategies' `Engine.swift`
// (where the specialised strategies can inline its methods); the run specialises every strategy
// for it (`WriteStrategy.run(_:)`), so the protocols cost no dynamic dispatch on the per-record path.
//
// What the protocols pass around is the shared vocabulary, not a conformance's own types: models
// and entities (`ManagedObjectModel`, `Entity`: loadgen reads `.xcdatamodel` contents as Core
// Data compiles them), values (`Value`), requests and their results (`FetchRequest`, the batch
// requests, `BatchResult`, persistent history), and object IDs (`ManagedObjectID`: an entity and
// a primary key, what Core Data's `uriRepresentation()` carries).

/// A model, a store and its contexts: `NSPersistentContainer`.
package protocol ObjectStore: AnyObject, Sendable {
    associatedtype Context: ObjectContext

    /// Opens (or creates) the store at `options.path` with `model`; its SQL is counted into
    /// `counters` and its contexts' object work into `objectWork` (where the engine can count
    /// them).
    init(model: ManagedObjectModel, options: StoreOptions, counters: StatementCounters, objectWork: ObjectWorkTally)
        throws

    /// The context a screen reads from, on its own serial queue.
    var viewContext: Context { get }
    /// A new private-queue context on the container's coordinator.
    func newBackgroundContext(name: String?) -> Context
    /// Times a write found the store locked by another connection and waited (SQLITE_BUSY).
    var busyRetries: Int { get }
}

/// A queue-confined scratch pad of managed objects: `NSManagedObjectContext`.
package protocol ObjectContext: AnyObject, Sendable {
    associatedtype Object: StoredObject
    associatedtype Controller: ResultsController where Controller.Context == Self

    // MARK: Queue and policy

    /// Runs `block` on the context's queue and waits for it.
    func performAndWait<T>(_ block: () throws -> T) rethrows -> T
    /// How a save resolves a conflict with the store (`NSMergePolicy`).
    var mergePolicy: MergePolicy { get set }
    /// Whether saves of sibling contexts are merged in as they happen.
    var automaticallyMergesChangesFromParent: Bool { get set }
    /// The author recorded in persistent history for this context's saves.
    var transactionAuthor: String? { get set }

    // MARK: Objects

    /// The entity of the context's model named `name`.
    func entity(named name: String) throws -> Entity
    /// A new object of `entity`, registered as inserted.
    func insert(_ entity: Entity) -> Object
    /// Marks `object` deleted (its delete rules run at save).
    func delete(_ object: Object)
    /// The object with `objectID`, a fault when it is not registered yet (no SQL).
    func object(with objectID: ManagedObjectID) -> Object
    /// Turns `object` back into a fault (or merges the store's values in).
    func refresh(_ object: Object, mergeChanges: Bool)

    // MARK: Fetching

    func fetch(_ request: FetchRequest) throws -> [Object]
    func count(for request: FetchRequest) throws -> Int
    /// The IDs of the matching objects (`.managedObjectIDResultType`).
    func fetchObjectIDs(_ request: FetchRequest) throws -> [ManagedObjectID]
    /// The IDs with the values of `propertiesToFetch`, without registering objects.
    func fetchObjectIDsAndValues(_ request: FetchRequest) throws -> [(id: ManagedObjectID, values: [Value])]
    /// Rows as dictionaries (`.dictionaryResultType`).
    func fetchDictionaries(_ request: FetchRequest) throws -> [[String: Value]]

    // MARK: Saving

    var hasChanges: Bool { get }
    func save() throws
    func reset()

    // MARK: Batch requests and history

    func execute(_ request: BatchInsertRequest) throws -> BatchResult
    func execute(_ request: BatchUpdateRequest) throws -> BatchResult
    func execute(_ request: BatchDeleteRequest) throws -> BatchResult
    func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult
    /// Merges a save's (or a history transaction's) changes into this context.
    func mergeChanges(fromContextDidSave note: DidSaveNotification)
    /// Merges a batch request's object IDs into `contexts`, as `mergeChanges(fromRemoteContextSave:into:)`.
    static func mergeChanges(fromRemoteContextSave changes: RemoteChanges, into contexts: [Self])

    // MARK: What the run reports

    /// Objects registered now, and those holding values (not faults).
    var registeredObjectCount: Int { get }
    var materializedObjectCount: Int { get }
    /// Saves that wrote, conflicts resolved by the merge policy, and save attempts that failed.
    var saveCount: Int { get }
    var conflictCount: Int { get }
    var failedSaveAttempts: Int { get }
    /// Time spent merging other contexts' changes.
    var mergeTime: Duration { get }
}

/// An object of a context: `NSManagedObject`. Properties are addressed by their index in the
/// entity (`Entity.attributeIndex`, `toOneIndex`), as generated accessors resolve them once.
package protocol StoredObject: AnyObject, Hashable {
    var objectID: ManagedObjectID { get }
    /// Inserted in its context and not saved yet.
    var isInserted: Bool { get }
    /// Still registered in a context (a reset or a merged delete unregisters it).
    var isRegistered: Bool { get }

    func value(at index: Int) -> Value
    func setValue(_ value: Value, at index: Int)
    func value(forKey key: String) -> Value
    /// The to-one at `index`, firing its fault when needed.
    func object(at index: Int) -> Self?
    func setObject(_ target: Self?, at index: Int) throws
    /// The to-many named `key` (its fault fires: one query).
    func objects(forKey key: String) -> Set<Self>
    func addObject(_ member: Self, forKey key: String) throws
}

/// A list kept current with its context: `NSFetchedResultsController`.
package protocol ResultsController: AnyObject {
    associatedtype Context: ObjectContext
    init(fetchRequest: FetchRequest, managedObjectContext: Context) throws
    func performFetch() throws
    var fetchedObjects: [Context.Object] { get }
    var count: Int { get }
}
