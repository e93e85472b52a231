import Dispatch
import Foundation
import SQLiteKit
import Synchronization

/// A scratchpad of managed objects bound to one queue: insert, fetch, change, then `save()`.
///
/// Every context owns a serial queue. Its state and its objects may be touched only inside
/// `perform`/`performAndWait` blocks (the golden rule of Core Data threading); with
/// `ConcurrencyDebug` on, anything else traps with a message naming the context. Because the
/// state is confined to that queue, the class is `@unchecked Sendable`: the context itself may
/// be handed to any thread, which may then only call `perform`.
package final class ManagedObjectContext: @unchecked Sendable, CustomStringConvertible {
    package enum ConcurrencyType: Sendable {
        /// A background context with its own private queue.
        case privateQueue
        /// The view context. A command-line process has no main run loop, so it gets a serial
        /// queue of its own that plays the main queue's part.
        case mainQueue
    }

    package let concurrencyType: ConcurrencyType
    package let persistentStoreCoordinator: PersistentStoreCoordinator
    /// Shown in confinement traps and debug output.
    package let name: String
    /// A process-unique number (did-save notifications carry it).
    package let identifier: Int

    let queue: DispatchQueue
    /// The thread currently running one of this context's blocks (0 when none).
    private let owner = Atomic<UInt>(0)
    private let settings = Protected<(policy: MergePolicy, autoMergeToken: Int?)>((.error, nil))
    private let mergeNanoseconds = Atomic<UInt64>(0)
    private static let nextIdentifier = Atomic<Int>(0)

    // MARK: Queue-confined state

    /// Objects with permanent IDs, by ID. Inserted objects join when they get a permanent ID:
    /// until then they live in `insertedList` only, and are found there (a rare lookup), so an
    /// import does not hash every new object twice.
    var registry: [ManagedObjectID: ManagedObject] = [:]
    /// Inserted objects by their temporary ID, as Core Data registers an insert
    /// (`_insertObjectWithGlobalID:globalID:` → `_registerObject:withID:`, `_PFCMT_SetValue`) and
    /// moves it to its permanent ID when the save gives one (`_changeIDsForManagedObjects:toIDs:`:
    /// `_PFCMT_RemoveValue` of the old, `_PFCMT_SetValue` of the new). Apart from `registry` so
    /// that its count stays the objects with permanent IDs.
    var temporaryRegistry: [ManagedObjectID: ManagedObject] = [:]
    var insertedList: [ManagedObject] = []
    var updatedList: [ManagedObject] = []
    var deletedList: [ManagedObject] = []
    /// Unsaved objects by one attribute, for fetches that include pending changes. Emptied
    /// whenever the change lists are.
    var pendingIndex: PendingIndex?
    /// Unsaved objects a fetch judged against its predicate, in total: the work
    /// `PendingIndex` keeps linear (tests count it, as they count statements).
    var pendingObjectsExamined = 0
    /// Many-to-many pairs joined or parted since the last save, each under its table-naming side:
    /// what the next save writes to the join tables (a pair joined then parted cancels out).
    var joinChanges = JoinChanges()
    /// Objects changed since changes were last processed (`processPendingChanges`), each once.
    var recentChanges: [ManagedObject] = []
    /// Deletes among them: a fetch processes only when there is one (`processPendingChangesForFetch`).
    var recentDeletes = 0
    /// The per-object work done so far (`ObjectWork`).
    package internal(set) var objectWork = ObjectWork()
    /// What of it the coordinator's tally has already (`foldObjectWork`).
    private var foldedWork = ObjectWork()
    var updateStatements: [UpdateKey: String] = [:]
    var uniquenessCheckStatements: [UniquenessCheckKey: String] = [:]
    /// Holds and releases of the coordinator's row cache, handed over in one locked pass
    /// (`flushRowCache`) at the end of a fetch, a save, a reset, or before a fault looks there.
    var rowCacheChanges: [RowCache.Change] = []
    /// Faults filled from the row cache instead of a query.
    package internal(set) var rowCacheHits = 0
    /// Results controllers following this context's merges, held weakly (a controller holds
    /// its context; the context must not hold it back).
    var followers: [WeakController] = []
    var resultsControllers: [FetchedResultsController] { followers.compactMap(\.controller) }
    /// Saves that wrote something, and conflicts met by saves (resolved or not).
    package internal(set) var saveCount = 0
    package internal(set) var conflictCount = 0
    /// Save attempts that failed on a uniqueness constraint and were rolled back before the
    /// save ran again with the conflicts resolved.
    package internal(set) var failedSaveAttempts = 0
    /// Called on the context's queue between a save's failed attempt and its retry, when nothing
    /// of the store is held (Core Data's `save:` sends its request again; the coordinator holds
    /// nothing between two requests): where a test puts a second writer.
    package var betweenSaveAttempts: (() -> Void)?
    /// Recorded as the author of every history transaction this context's saves and batch
    /// requests write (`transactionAuthor`), so that a consumer can skip its own.
    package var transactionAuthor: String?

    package init(concurrencyType: ConcurrencyType, coordinator: PersistentStoreCoordinator, name: String? = nil) {
        self.concurrencyType = concurrencyType
        self.persistentStoreCoordinator = coordinator
        identifier = Self.nextIdentifier.wrappingAdd(1, ordering: .relaxed).newValue
        self.name = name ?? (concurrencyType == .mainQueue ? "viewContext" : "context-\(identifier)")
        queue = DispatchQueue(label: "loadgen.context.\(self.name)")
    }

    deinit {
        // Objects reference each other through relationships; break the cycles. The rows they
        // held are released (the context's own queue is done with it by now).
        var changes = rowCacheChanges
        for object in registry.values where object.holdsCachedRow { changes.append(.release(object.objectID)) }
        persistentStoreCoordinator.rowCache.apply(changes)
        for object in registry.values { object.invalidate() }
        // Inserted objects are not registered until saved; their fast paths trust isInserted.
        for object in insertedList { object.invalidate() }
        if let token = settings.withLock({ $0.autoMergeToken }) { persistentStoreCoordinator.removeObserver(token) }
        foldObjectWork()
    }

    /// Hands the coordinator's tally the object work done since the last time: once per save,
    /// fetch and reset (one lock), so that nothing per object pays for the total.
    func foldObjectWork() {
        guard objectWork != foldedWork else { return }
        persistentStoreCoordinator.objectWork.add(objectWork - foldedWork)
        foldedWork = objectWork
    }

    package var description: String { "<ManagedObjectContext \(name)>" }

    // MARK: Settings (may be set from any thread, as at setup)

    /// How saves resolve conflicts. Default `.error`.
    package var mergePolicy: MergePolicy {
        get { settings.withLock { $0.policy } }
        set { settings.withLock { $0.policy = newValue } }
    }

    /// Merge every other context's saves on this coordinator, on this context's queue.
    package var automaticallyMergesChangesFromParent: Bool {
        get { settings.withLock { $0.autoMergeToken != nil } }
        set {
            let coordinator = persistentStoreCoordinator
            settings.withLock { s in
                if newValue, s.autoMergeToken == nil {
                    s.autoMergeToken = coordinator.addDidSaveObserver { [weak self] note in
                        guard let self, note.sourceContext != self.identifier else { return }
                        self.perform { self.mergeChanges(fromContextDidSave: note) }
                    }
                } else if !newValue, let token = s.autoMergeToken {
                    coordinator.removeObserver(token)
                    s.autoMergeToken = nil
                }
            }
        }
    }

    /// Time spent merging other contexts' saves, in total.
    package var mergeTime: Duration { .nanoseconds(Int64(mergeNanoseconds.load(ordering: .relaxed))) }

    func addMergeTime(_ nanoseconds: UInt64) { mergeNanoseconds.wrappingAdd(nanoseconds, ordering: .relaxed) }

    // MARK: Running on the context's queue

    /// Schedules `block` on the context's queue and returns at once.
    package func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async { [self] in runConfined(block) }
    }

    /// Runs `block` on the context's queue and waits for its result.
    package func perform<T: Sendable>(_ block: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in
                do { continuation.resume(returning: try runConfined(block)) } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Runs `block` on the context's queue, blocking the caller until it is done. Reentrant: from
    /// inside one of this context's blocks it simply runs.
    package func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if owner.load(ordering: .relaxed) == ConcurrencyDebug.currentThread() { return try block() }
        return try queue.sync { try runConfined(block) }
    }

    private func runConfined<T>(_ body: () throws -> T) rethrows -> T {
        let previous = owner.exchange(ConcurrencyDebug.currentThread(), ordering: .relaxed)
        defer { owner.store(previous, ordering: .relaxed) }
        return try body()
    }

    /// Traps (in concurrency-debug mode) unless called from one of this context's blocks.
    @inline(__always)
    func assertOnQueue(_ function: StaticString = #function) {
        guard ConcurrencyDebug.isEnabled else { return }
        if owner.load(ordering: .relaxed) != ConcurrencyDebug.currentThread() {
            preconditionFailure(
                "CoreData concurrency violation: \(function) used context '\(name)' off its queue; "
                    + "wrap the access in \(name).perform { … }")
        }
    }

    // MARK: Objects

    /// The run-time entity named `name`.
    package func entity(named name: String) throws -> Entity {
        guard let e = persistentStoreCoordinator.model.runtimeEntity(named: name) else {
            throw ContextError.unknownEntity(name)
        }
        return e
    }

    /// Inserts a new object of `entity`, with a temporary ID and default values.
    package func insert(_ entity: Entity) -> ManagedObject {
        assertOnQueue()
        let id = ManagedObjectID(temporaryFor: entity.id, store: persistentStoreCoordinator.storeIndex)
        let object = ManagedObject(entity: entity, id: id, context: self, fault: false)
        object.isInserted = true
        object.loadedToMany = entity.allToManys
        insertedList.append(object)
        temporaryRegistry[id] = object
        noteRecentChange(object)
        object.establishSnapshot(in: self)
        entity.lifecycle.awakeFromInsert(object)
        objectWork.awakeFromInsert += 1
        return object
    }

    /// Inserts a new object of the entity named `entityName`.
    package func insertNewObject(forEntityName entityName: String) throws -> ManagedObject {
        insert(try entity(named: entityName))
    }

    /// Marks `object` for deletion at the next save (an unsaved insert simply disappears), and
    /// acts on each relationship's delete rule as `-[NSManagedObject _propagateDelete:]` does
    /// (decompiled iOS 18.2; `processPendingChanges` runs it for every pending delete): Nullify
    /// clears the relationship and its inverse, Cascade does that and deletes the destination
    /// objects too (whose own rules apply in turn), No Action leaves both sides as they are, Deny
    /// leaves them for the save to refuse (`validateForDelete`, 1600) when the relationship holds
    /// objects. A to-many is loaded for it (one query), as Core Data fires the fault.
    package func delete(_ object: ManagedObject) {
        assertOnQueue()
        guard object.managedObjectContext === self, !object.isDeleted else { return }
        if object.isFault { fireFault(object) }
        var cascaded: [ManagedObject] = []
        for (i, r) in object.entity.toOne.enumerated() where r.deleteRule == .nullify || r.deleteRule == .cascade {
            if r.deleteRule == .cascade, let target = object.toOne[i] { cascaded.append(target) }
            try? object.setObject(nil, at: i)
        }
        for rel in object.entity.toMany where rel.deleteRule == .nullify || rel.deleteRule == .cascade {
            for member in object.objects(forKey: rel.name) {
                if rel.deleteRule == .cascade { cascaded.append(member) }
                try? member.setObject(nil, at: rel.inverseToOne)
            }
        }
        for (m, rel) in object.entity.manyToMany.enumerated() where rel.deleteRule == .cascade {
            cascaded += object.manyToManyMembers(m)
        }
        markDeleted(object)
        for target in cascaded { delete(target) }
    }

    /// `object` leaves the context at the next save (an unsaved insert at once).
    private func markDeleted(_ object: ManagedObject) {
        noteRecentChange(object)
        recentDeletes += 1
        if object.isInserted {
            object.isInserted = false
            if registry[object.objectID] === object { registry[object.objectID] = nil }
            if object.objectID.isTemporaryID { temporaryRegistry[object.objectID] = nil }
            object.isDeleted = true
        } else {
            object.isDeleted = true
            deletedList.append(object)
        }
    }

    /// The object for `objectID`: the registered one, or a fault that costs one query when
    /// first touched. No SQL here.
    package func object(with objectID: ManagedObjectID) -> ManagedObject {
        assertOnQueue()
        if let o = registry[objectID] ?? insertedObject(objectID) { return o }
        precondition(
            !objectID.isTemporaryID,
            "object(with:) got temporary ID \(objectID) from another context; "
                + "save first or use obtainPermanentIDs")
        let entity = persistentStoreCoordinator.model.runtime[objectID.entityID - 1]
        let fault = ManagedObject(entity: entity, id: objectID, context: self, fault: true)
        registry[objectID] = fault
        return fault
    }

    /// The object for `objectID`, read from the store when needed; throws when no such row exists.
    package func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        assertOnQueue()
        if let o = registry[objectID] ?? insertedObject(objectID), !o.isFault { return o }
        if objectID.isTemporaryID { throw ContextError.temporaryObjectID(objectID) }
        let entity = persistentStoreCoordinator.model.runtime[objectID.entityID - 1]
        let row =
            try objectFromRowCache(entity: entity, primaryKey: objectID.primaryKey!)
            ?? fetchRow(entity: entity, primaryKey: objectID.primaryKey!)
        guard let row else { throw ContextError.objectNotFound(objectID) }
        objectWork.fetched += 1   // fetched by its ID
        return row
    }

    /// Objects registered in this context (fetched, inserted, or faults handed out).
    package var registeredObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(registry.values).union(temporaryRegistry.values)
    }

    /// How many objects are registered, without building a set.
    package var registeredObjectCount: Int {
        assertOnQueue()
        return registry.count + temporaryRegistry.count
    }

    /// Registered objects holding values (not faults): what a read holds at once. One pass over
    /// the registry, no allocation.
    package var materializedObjectCount: Int {
        assertOnQueue()
        var n = 0
        for o in registry.values where !o.isFault { n += 1 }
        return n
    }

    /// An unsaved insert with a temporary ID.
    private func insertedObject(_ id: ManagedObjectID) -> ManagedObject? {
        guard id.isTemporaryID, let o = temporaryRegistry[id], o.isInserted else { return nil }
        return o
    }

    // MARK: Changes

    package var insertedObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(insertedList.filter(\.isInserted))
    }
    package var updatedObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(updatedList.filter(\.isUpdated))
    }
    package var deletedObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(deletedList.filter(\.isDeleted))
    }

    /// True when a save would write something.
    package var hasChanges: Bool {
        assertOnQueue()
        return insertedList.contains(where: \.isInserted) || updatedList.contains(where: \.isUpdated)
            || deletedList.contains(where: \.isDeleted)
    }

    func noteUpdated(_ object: ManagedObject) { updatedList.append(object) }

    /// An object filed in `pendingIndex` changes the attribute it is filed under.
    func pendingIndexMove(_ object: ManagedObject, from old: Value, to new: Value) {
        guard pendingIndex?.attribute == object.pendingIndexAttribute, pendingIndex?.entity == object.entity.id else {
            object.pendingIndexAttribute = -1
            return
        }
        pendingIndex?.move(object, from: old, to: new)
    }

    // MARK: Forgetting

    /// Forgets every registered object and pending change. Objects handed out before are
    /// invalid afterwards. No SQL.
    package func reset() {
        assertOnQueue()
        for object in registry.values {
            releaseRow(object)
            object.invalidate()
        }
        flushRowCache()
        for object in insertedList + updatedList + deletedList { object.invalidate() }
        for controller in resultsControllers { controller.contextDidReset() }
        forgetRecentChanges()
        // An import resets after every batch: keep batch-sized tables instead of growing them
        // again each time, but give a big one's memory back.
        let keep = registry.count <= 16_384
        pendingIndex = nil
        joinChanges.removeAll()
        registry.removeAll(keepingCapacity: keep)
        temporaryRegistry.removeAll(keepingCapacity: keep)
        insertedList.removeAll(keepingCapacity: keep)
        updatedList.removeAll(keepingCapacity: keep)
        deletedList.removeAll(keepingCapacity: keep)
        foldObjectWork()
    }

    /// Discards unsaved changes: inserts disappear, updates return to the store's values,
    /// deletes are undone. No SQL.
    package func rollback() {
        assertOnQueue()
        for object in insertedList where object.isInserted {
            for i in object.entity.toOne.indices { try? object.setObject(nil, at: i) }
            if registry[object.objectID] === object { registry[object.objectID] = nil }
            object.invalidate()
        }
        for object in updatedList where object.managedObjectContext === self { revertToCommitted(object) }
        for object in deletedList where object.isDeleted {
            object.isDeleted = false
            revertToCommitted(object)
        }
        insertedList.removeAll()
        temporaryRegistry.removeAll()
        updatedList.removeAll()
        deletedList.removeAll()
        forgetRecentChanges()
        pendingIndex = nil
        joinChanges.removeAll()
    }

    /// Puts an object back to its last fetched or saved state.
    func revertToCommitted(_ object: ManagedObject) {
        object.isListedUpdated = false
        object.snapshot = nil
        guard let committed = object.committed, let targets = object.committedToOne else { return }
        object.values = committed
        for (i, id) in targets.enumerated() {
            let target = id.map { self.object(with: $0) }
            if object.toOne[i] !== target {
                if let inverse = object.entity.toOne[i].inverseToMany {
                    object.toOne[i]?.removeMember(object, toMany: inverse)
                    target?.addMember(object, toMany: inverse)
                }
                object.toOne[i] = target
            }
        }
        object.changed = PropertyMask()
        object.touchedToMany = PropertyMask()
    }

    /// Turns `object` back into a fault (discarding its changes), or with `mergeChanges`
    /// reads it again and keeps its changes on top: as any fault, from the row cache when a
    /// context holds the row (Core Data's default staleness takes any cached row), else the store.
    package func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        assertOnQueue()
        guard object.managedObjectContext === self, !object.isInserted else { return }
        releaseRow(object)
        if !mergeChanges {
            revertToCommitted(object)
            object.isFault = true
            object.values = []
            // A fault pre-populated by `propertiesToFetch` gives its values up too: read again.
            object.forgetPrefetched()
            return
        }
        let local = object.changed.isEmpty ? nil : (values: object.values, toOne: object.toOne, changed: object.changed)
        object.isFault = true
        fireFault(object)
        if let local {
            for i in object.entity.attributes.indices where local.changed.contains(i) {
                object.values[i] = local.values[i]
            }
            for i in object.entity.toOne.indices where local.changed.contains(object.entity.toOnePosition(i)) {
                try? object.setObject(local.toOne[i], at: i)
            }
            object.changed = local.changed
        }
    }

    /// Gives `objects` permanent IDs now (reserving keys in the store), so their IDs can be
    /// passed to other contexts before the save.
    package func obtainPermanentIDs(for objects: [ManagedObject]) throws {
        assertOnQueue()
        let pending = objects.filter { $0.objectID.isTemporaryID && $0.isInserted }
        try reserveKeys(for: pending)
        for object in pending { reassign(object, to: object.reservedKey) }
    }

    /// Gives an inserted object its permanent ID and registers it under it.
    func reassign(_ object: ManagedObject, to primaryKey: Int64) {
        if object.objectID.isTemporaryID {
            temporaryRegistry[object.objectID] = nil
        } else {
            registry[object.objectID] = nil
        }
        object.objectID = ManagedObjectID(
            store: persistentStoreCoordinator.storeIndex, entityID: object.entity.id,
            primaryKey: primaryKey)
        registry[object.objectID] = object
    }
}
