/// The snapshot Core Data takes of an object when it first changes (`-[NSManagedObjectContext
/// _establishEventSnapshotsForObject:]`, called from `_insertObjectWithGlobalID:globalID:` for
/// an insert and at an object's first change): every property's value copied by
/// `-[NSManagedObject _newPropertiesForRetainedTypes:andCopiedTypes:preserveFaults:]` (attributes
/// and to-ones retained, loaded to-manys copied, to-many faults left faults), one copy serving as
/// both the original and the event snapshot until the save clears them
/// (`_clearOriginalSnapshotAndInitializeRec:`). Without an undo manager (iOS's default) no event
/// makes a second one. `committedValues(forKeys:)` reads it, as Core Data's does. An object that
/// is still a fault when a relationship to it changes (a category gaining an expense) takes none:
/// Core Data fires the fault to take it, the engine keeps it a fault and reads its version at the
/// save (one query per entity for all of them), so such objects cost less here.
struct ObjectSnapshot {
    let values: [Value]
    let toOne: [ManagedObjectID?]
    let toMany: [Set<ManagedObject>?]
}

extension ManagedObject {
    /// Takes the snapshot unless the object has one.
    @inline(__always)
    func establishSnapshot(in context: ManagedObjectContext) {
        guard snapshot == nil else { return }
        snapshot = ObjectSnapshot(
            values: values, toOne: toOne.map { $0?.objectID },
            toMany: toMany.isEmpty ? [] : toMany.indices.map { loadedToMany.contains($0) ? toMany[$0] : nil })
        context.objectWork.snapshots += 1
    }

    /// The attributes' values as they were before the first change since the last save: from the
    /// snapshot, else the current ones (Core Data's `committedValuesForKeys:`).
    package func committedValues(forKeys keys: [String]) -> [String: Value] {
        _ = checkedContext()
        var out: [String: Value] = [:]
        for key in keys {
            guard let i = entity.attributeIndex(key) else { continue }
            out[key] = snapshot.map { $0.values.indices.contains(i) ? $0.values[i] : .null } ?? value(at: i)
        }
        return out
    }
}
