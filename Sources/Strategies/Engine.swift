import ObjectGraph

/// The engine every strategy runs on: loadgen's own, over SQLite (decision 0047). Strategies are
/// written against `ObjectStore` and its companions; this is the one place that names a
/// conformance. Apple's Core Data would be a second one, chosen here (or by a flag) on a Mac.
package typealias Engine = PersistentContainer

// MARK: - loadgen's engine as the one conformance
//
// Declared here, in the module whose strategies are specialised for it, not in ObjectGraph: a
// witness is emitted in the module that declares the conformance, and a call from another module
// goes through it as a function call, where the same call in this module inlines to the engine's
// own method (a per-save walk over the related objects' IDs counted 1.2 million instructions more
// with the conformances in ObjectGraph). The engine's classes carry Core Data's names and already
// have every member the protocols ask for; what is written here adapts the few whose shape differs.

extension PersistentContainer: ObjectStore {
    package typealias Context = ManagedObjectContext

    package var busyRetries: Int { persistentStoreCoordinator.busyRetries }
}

extension ManagedObjectContext: ObjectContext {
    package typealias Object = ManagedObject
    package typealias Controller = FetchedResultsController
}

extension ManagedObject: StoredObject {
    package var isRegistered: Bool { managedObjectContext != nil }
}

extension FetchedResultsController: ResultsController {
    package typealias Context = ManagedObjectContext
}
