import SQLiteKit

/// A model, a store and its contexts, set up in one call: `NSPersistentContainer`.
package final class PersistentContainer: Sendable {
    package let persistentStoreCoordinator: PersistentStoreCoordinator
    /// The context a screen reads from, on its own serial queue.
    package let viewContext: ManagedObjectContext

    package init(
        model: ManagedObjectModel, options: StoreOptions, counters: StatementCounters = StatementCounters(),
        objectWork: ObjectWorkTally = ObjectWorkTally()
    ) throws {
        persistentStoreCoordinator = try PersistentStoreCoordinator(
            model: model, options: options, counters: counters,
            objectWork: objectWork)
        viewContext = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: persistentStoreCoordinator)
    }

    /// A new private-queue context on the container's coordinator.
    package func newBackgroundContext(name: String? = nil) -> ManagedObjectContext {
        ManagedObjectContext(concurrencyType: .privateQueue, coordinator: persistentStoreCoordinator, name: name)
    }

    /// Runs `block` on a new background context's queue (each call makes a new context).
    package func performBackgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }
}
