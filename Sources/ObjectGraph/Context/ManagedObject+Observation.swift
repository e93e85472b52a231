/// Key-value observation of attributes. Core Data's setters are key-value-observing compliant:
/// each set is bracketed by `willChangeValueForKey:`/`didChangeValueForKey:`
/// (`-[NSManagedObject willChangeValueForKey:]` → `_PF_ManagedObject_WillChangeValueForKeyIndex`,
/// `didChangeValueForKey:` → NSObject's `_NSObjectDidChangeVFKImp`), which tell the object's
/// observers, if it has any, the old and new value. With none, both look at the object's
/// observation info and return: here, one nil check per set. What NSObject's machinery costs beyond
/// that was not read (its body is not in the decompiled files).
final class ObservationInfo {
    var observers: [(token: Int, index: Int, block: (_ old: Value, _ new: Value) -> Void)] = []
    var nextToken = 0
}

extension ManagedObject {
    /// Calls `block` with the old and new value after each set of attribute `key`; returns the
    /// token `removeObserver(_:)` takes.
    package func addObserver(forKey key: String, _ block: @escaping (_ old: Value, _ new: Value) -> Void) -> Int {
        guard let index = entity.attributeIndex(key) else {
            preconditionFailure("\(entity.name) has no attribute '\(key)'")
        }
        let info = observationInfo ?? ObservationInfo()
        observationInfo = info
        info.nextToken += 1
        info.observers.append((info.nextToken, index, block))
        return info.nextToken
    }

    package func removeObserver(_ token: Int) {
        observationInfo?.observers.removeAll { $0.token == token }
        if observationInfo?.observers.isEmpty == true { observationInfo = nil }
    }

    /// `didChangeValueForKey:` for attribute `index`, when the object has observers.
    func didChangeValue(at index: Int, from old: Value) {
        guard let info = observationInfo else { return }
        for observer in info.observers where observer.index == index {
            observer.block(old, values[index])
            managedObjectContext?.objectWork.observerNotifications += 1
        }
    }
}
