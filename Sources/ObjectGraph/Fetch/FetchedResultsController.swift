/// The objects of a fetch request, kept current as saves of other contexts are merged: what a
/// list screen holds (`NSFetchedResultsController`).
///
/// Belongs to its context's queue. After `performFetch()`, every merged save updates it:
/// inserted objects that match join it (registered in the context, filled from the saved
/// values, no SQL), changed ones are judged again, deleted ones leave. Objects changed only by
/// batch requests are not seen: there is no notification to merge.
package final class FetchedResultsController {
    package let fetchRequest: FetchRequest
    package let managedObjectContext: ManagedObjectContext
    let entity: Entity
    let matcher: PendingMatcher
    private var members = Set<ManagedObject>()

    package init(fetchRequest: FetchRequest, managedObjectContext: ManagedObjectContext) throws {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = managedObjectContext
        entity = try managedObjectContext.entity(named: fetchRequest.entityName)
        matcher = try PendingMatcher(fetchRequest.predicate, entity: entity)
    }

    /// Runs the fetch and starts following merged saves.
    package func performFetch() throws {
        members = Set(try managedObjectContext.fetch(fetchRequest))
        managedObjectContext.follow(self)
    }

    /// The current objects (sorted when the request has sort descriptors).
    package var fetchedObjects: [ManagedObject] {
        managedObjectContext.assertOnQueue()
        return Array(members)
    }

    /// How many objects the controller holds, without building an array.
    package var count: Int {
        managedObjectContext.assertOnQueue()
        return members.count
    }

    /// Called by the context for each object a merge touched.
    func merged(_ object: ManagedObject) {
        guard object.entity === entity else { return }
        if !object.isDeleted && object.managedObjectContext != nil && matcher.matches(object) {
            members.insert(object)
        } else {
            members.remove(object)
        }
    }

    /// The context was reset: its objects are gone, and a new `performFetch()` is needed.
    func contextDidReset() { members.removeAll() }

    /// Whether a merged insert of `entityID` may concern this controller.
    func watches(_ entityID: Int) -> Bool { entity.id == entityID }
}

/// A weak reference to a results controller.
struct WeakController {
    weak var controller: FetchedResultsController?
    init(_ controller: FetchedResultsController) { self.controller = controller }
}
