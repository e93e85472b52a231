/// The methods Core Data sends each saved object, which an app's `NSManagedObject` subclass may
/// override: `willSave` before the save writes (`_validateObjects:…forSave:`, once per pass of the
/// save's validation loop), `didSave` after it commits (`_didSaveChanges`). Empty unless
/// overridden; the engine sends them as the framework does, through a dynamic call per object.
/// An app's own overrides cost what they cost: not modelled.
package protocol ManagedObjectLifecycle: Sendable {
    func willSave(_ object: ManagedObject)
    func didSave(_ object: ManagedObject)
}

extension ManagedObjectLifecycle {
    package func willSave(_ object: ManagedObject) {}
    package func didSave(_ object: ManagedObject) {}
}

/// `NSManagedObject`'s own, empty, methods.
package struct NSManagedObjectLifecycle: ManagedObjectLifecycle {
    package init() {}
}
