/// The methods Core Data sends an object in its life, which an app's `NSManagedObject` subclass
/// may override: `awakeFromInsert` when inserted, `awakeFromFetch` when its values are loaded
/// (`-[NSSQLFetchRequestContext executeEpilogue]` for a fetch, and a fault's fulfilment), `willSave`
/// before the save writes (`_validateObjects:…forSave:`, once per pass of the save's validation
/// loop), `didSave` after it commits (`_didSaveChanges`). Empty unless
/// overridden; the engine sends them as the framework does, through a dynamic call per object.
/// An app's own overrides cost what they cost: not modelled.
package protocol ManagedObjectLifecycle: Sendable {
    func awakeFromInsert(_ object: ManagedObject)
    func awakeFromFetch(_ object: ManagedObject)
    func willSave(_ object: ManagedObject)
    func didSave(_ object: ManagedObject)
}

extension ManagedObjectLifecycle {
    package func awakeFromInsert(_ object: ManagedObject) {}
    package func awakeFromFetch(_ object: ManagedObject) {}
    package func willSave(_ object: ManagedObject) {}
    package func didSave(_ object: ManagedObject) {}
}

/// `NSManagedObject`'s own, empty, methods.
package struct NSManagedObjectLifecycle: ManagedObjectLifecycle {
    package init() {}
}
