/// The objects of a fetch request, kept current as saves of other contexts are merged: what a
/// list screen holds (`NSFetchedResultsController`).
///
/// Belongs to its context's queue. After `performFetch()`, every merge hands it what changed at
/// once (`apply`), and it does what Core Data's controller does on the context's
/// objects-did-change notification (decompiled iOS 18.2 `NSFetchedResultsController.m`,
/// `_core_managedObjectContextDidChange:`): each updated object of its entity is found in the
/// results by a linear scan (`_indexOfFetchedID:`), judged again by the predicate (which fires
/// it if it is a fault: `_objectInResults:`), and becomes an update, a move (a sort key changed),
/// an insert or a delete; deletes are removed, moved and inserted objects put at their place by a
/// binary search (`_insertIndexForObject:…`), the index cache rebuilt, and each change reported
/// to the delegate. Objects changed only by batch requests are not seen: there is no
/// notification to merge.
package final class FetchedResultsController {
    package let fetchRequest: FetchRequest
    package let managedObjectContext: ManagedObjectContext
    let entity: Entity
    let matcher: PendingMatcher
    private let order: ObjectOrder
    /// The results in the request's order, and each one's index (`_indexOfCachedID:`).
    private var objects: [ManagedObject] = []
    private var indexCache: [ObjectIdentifier: Int] = [:]
    /// Changes reported to the delegate so far: each insert, delete, move and update once.
    package private(set) var reportedChanges = 0

    package init(fetchRequest: FetchRequest, managedObjectContext: ManagedObjectContext) throws {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = managedObjectContext
        entity = try managedObjectContext.entity(named: fetchRequest.entityName)
        matcher = try PendingMatcher(fetchRequest.predicate, entity: entity)
        order = ObjectOrder(fetchRequest, entity: entity)
    }

    /// Runs the fetch and starts following merged saves.
    package func performFetch() throws {
        objects = try managedObjectContext.fetch(fetchRequest)
        rebuildIndexCache()
        managedObjectContext.follow(self)
    }

    /// The current objects, in the request's order.
    package var fetchedObjects: [ManagedObject] {
        managedObjectContext.assertOnQueue()
        return objects
    }

    /// How many objects the controller holds, without building an array.
    package var count: Int {
        managedObjectContext.assertOnQueue()
        return objects.count
    }

    /// The position of `object` in `fetchedObjects` (`indexPathForObject:`), nil when not there.
    package func index(of object: ManagedObject) -> Int? {
        managedObjectContext.assertOnQueue()
        return indexCache[ObjectIdentifier(object)]
    }

    // MARK: Merged changes

    /// What a merge changed, all at once, as the controller sees the objects-did-change
    /// notification: the objects the merge brought in, refreshed and deleted; `fulfil` fills a
    /// fault the predicate must judge.
    func apply(
        inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject],
        fulfil: (ManagedObject) -> Void
    ) {
        var removals = Set<Int>()
        var additions: [ManagedObject] = []
        var updates = 0
        var moves = 0
        for o in deleted where o.entity === entity {
            if let i = indexOfFetched(o) { removals.insert(i) }
        }
        for o in updated where o.entity === entity {
            let i = indexOfFetched(o)
            let matches = belongs(o, fulfil)
            switch (i, matches) {
            case (let i?, true):
                if order.isOutOfPlace(o, at: i, in: objects, fulfil: fulfil) {
                    removals.insert(i)
                    additions.append(o)
                    moves += 1
                } else {
                    updates += 1
                }
            case (let i?, false): removals.insert(i)
            case (nil, true): additions.append(o)
            case (nil, false): break
            }
        }
        for o in inserted where o.entity === entity && indexCache[ObjectIdentifier(o)] == nil && belongs(o, fulfil) {
            additions.append(o)
        }
        guard !removals.isEmpty || !additions.isEmpty || updates > 0 else { return }
        for i in removals.sorted(by: >) { objects.remove(at: i) }
        for o in additions { objects.insert(o, at: order.insertionIndex(of: o, in: objects, fulfil: fulfil)) }
        rebuildIndexCache()
        reportedChanges += removals.count + additions.count - moves + updates
    }

    /// `_indexOfFetchedID:`: a scan of the results.
    private func indexOfFetched(_ o: ManagedObject) -> Int? {
        objects.firstIndex { $0 === o }
    }

    /// Whether `o` belongs in the results: alive, in this context, matching the predicate (its
    /// fault fired to judge it).
    private func belongs(_ o: ManagedObject, _ fulfil: (ManagedObject) -> Void) -> Bool {
        guard !o.isDeleted, o.managedObjectContext === managedObjectContext else { return false }
        if o.isFault { fulfil(o) }
        return matcher.matches(o)
    }

    private func rebuildIndexCache() {
        indexCache.removeAll(keepingCapacity: true)
        for (i, o) in objects.enumerated() { indexCache[ObjectIdentifier(o)] = i }
    }

    /// The context was reset: its objects are gone, and a new `performFetch()` is needed.
    func contextDidReset() {
        objects.removeAll()
        indexCache.removeAll()
    }

    /// Whether a merged insert of `entityID` may concern this controller.
    func watches(_ entityID: Int) -> Bool { entity.id == entityID }
}

/// A weak reference to a results controller.
struct WeakController {
    weak var controller: FetchedResultsController?
    init(_ controller: FetchedResultsController) { self.controller = controller }
}
