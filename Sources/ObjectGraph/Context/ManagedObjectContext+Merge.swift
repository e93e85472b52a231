import Foundation
import SQLiteKit

/// Merging other contexts' saves into this one: real work, with a real cost, on this queue.
extension ManagedObjectContext {
    /// Brings this context up to date with another context's save, as Core Data's
    /// `mergeChanges(fromContextDidSave:)` does (decompiled iOS 18.2 `NSManagedObjectContext.m`,
    /// `_coreMergeChangesFromDidSaveDictionary:…`): every inserted ID gets an object
    /// (`objectWithID:`, a fault; kept, with the saved values, when it relates to an object held
    /// here or a results controller watches its entity, so that `album.photos` grows without a
    /// refetch; otherwise let go after the notification, as an autoreleased fault is); each
    /// updated object held here and not a fault is refreshed (`_mergeRefreshObject:`); deleted ones
    /// leave; then the merge posts its own objects-did-change notification naming what it
    /// inserted, refreshed and deleted, and the results controllers take the changes. No SQL.
    package func mergeChanges(fromContextDidSave note: DidSaveNotification) {
        assertOnQueue()
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            addMergeTime(DispatchTime.now().uptimeNanoseconds - start)
            foldObjectWork()   // what the merge refreshed and removed is counted, as a save's work is
        }
        if note.states.isEmpty {
            // Object IDs only (a history transaction's `objectIDNotification()`): the values
            // must be read from the store.
            mergeObjectIDs(
                inserted: note.insertedObjectIDs, updated: note.updatedObjectIDs, deleted: note.deletedObjectIDs)
            return
        }
        let model = persistentStoreCoordinator.model
        let insertedIDs = Set(note.insertedObjectIDs)
        var inserted: [ManagedObject] = []
        var kept: [ManagedObject] = []
        var refreshed: [ManagedObject] = []
        var keptIDs = Set<ManagedObjectID>()
        for state in note.states {
            if let o = registry[state.objectID] {
                guard !o.isFault else { continue }   // a fault is left as it is: it reads the new row when fired
                refresh(o, with: state)
                refreshed.append(o)
            } else if insertedIDs.contains(state.objectID) {
                let entity = model.runtime[state.objectID.entityID - 1]
                let o = ManagedObject(entity: entity, id: state.objectID, context: self, fault: true)
                registry[state.objectID] = o
                inserted.append(o)
                let watched = resultsControllers.contains { $0.watches(entity.id) }
                // Held here: registered before this merge, or an insert of it that is kept (a fault
                // made for another insert is let go below and must not be linked to).
                let held = { (id: ManagedObjectID) in
                    self.registry[id] != nil && (!insertedIDs.contains(id) || keptIDs.contains(id))
                }
                if watched || state.toOne.contains(where: { id in id.map(held) ?? false }) {
                    apply(state, to: o)
                    kept.append(o)
                    keptIDs.insert(state.objectID)
                }
            }
        }
        let deleted = mergeDeletions(note.deletedObjectIDs)
        postObjectsDidChange(inserted: Set(inserted), updated: [], deleted: Set(deleted), refreshed: Set(refreshed))
        finishMerge(note, inserted: inserted, kept: kept, refreshed: refreshed, deleted: deleted)
    }

    /// After the merge's notification: the inserts nothing holds are let go (not kept, and no
    /// kept object points at them), and the results controllers take the changes; a refreshed
    /// object a controller judges again is a fault filled from the row the save cached (Core
    /// Data's row cache; here the notification's state): no SQL.
    private func finishMerge(
        _ note: DidSaveNotification, inserted: [ManagedObject], kept: [ManagedObject],
        refreshed: [ManagedObject], deleted: [ManagedObject]
    ) {
        let linked = Set(kept.flatMap { $0.toOne.compactMap { $0.map(ObjectIdentifier.init) } })
        for o in inserted where o.isFault && !linked.contains(ObjectIdentifier(o)) {
            registry[o.objectID] = nil
            o.invalidate()
        }
        let controllers = resultsControllers
        guard !controllers.isEmpty else { return flushRowCache() }
        let states = Dictionary(note.states.map { ($0.objectID, $0) }, uniquingKeysWith: { a, _ in a })
        for controller in controllers {
            controller.apply(inserted: kept, updated: refreshed, deleted: deleted) { [self] o in
                if let state = states[o.objectID] { apply(state, to: o) } else { fireFault(o) }
            }
        }
        flushRowCache()
    }

    /// `_mergeRefreshObject:` → `refreshObject:mergeChanges:`: an object with neither unsaved
    /// changes nor observers turns into a fault (its values read again when touched, from the row
    /// cache the save filled); one with either takes the saved values, its own changes on top.
    /// Then `awakeFromSnapshotEvents:` and `didRefresh`, whose cost is the objects named.
    ///
    /// The engine applies the saved state first either way: a fault keeps its relationships
    /// (`album.photos` still holds a refreshed photo, as Core Data's set holds the object), so
    /// they must be the saved ones.
    private func refresh(_ o: ManagedObject, with state: DidSaveNotification.ObjectState) {
        apply(state, to: o)
        if o.changed.isEmpty && o.observationInfo == nil && !o.isInserted {
            releaseRow(o)
            o.values = []
            o.committed = nil
            o.isFault = true
        }
        objectWork.refreshed += 1
    }

    /// Objects deleted by another context's save or by a batch request: each leaves its related
    /// objects' to-manys and the registry. Returns those that were held here.
    private func mergeDeletions(_ ids: [ManagedObjectID]) -> [ManagedObject] {
        var deleted: [ManagedObject] = []
        defer { objectWork.removed += deleted.count }
        for id in ids {
            guard let o = registry[id] else { continue }
            for (i, rel) in o.entity.toOne.enumerated() where !o.isFault {
                if let inverse = rel.inverseToMany { o.toOne[i]?.removeMember(o, toMany: inverse) }
                o.toOne[i] = nil   // or a to-many loading later would take it back
            }
            forget(o)
            deleted.append(o)
        }
        return deleted
    }

    /// Gives a registered object a saved state: a fault is filled; an object with unsaved
    /// changes keeps them over the new values.
    private func apply(_ state: DidSaveNotification.ObjectState, to o: ManagedObject) {
        let keep = o.isFault ? PropertyMask() : o.changed
        if o.isFault { o.values = o.entity.defaults }
        let local = o.values
        for i in state.values.indices where !keep.contains(i) { o.values[i] = state.values[i] }
        for (i, rel) in o.entity.toOne.enumerated() where !keep.contains(o.entity.toOnePosition(i)) {
            let target = state.toOne[i].map { object(with: $0) }
            guard o.toOne[i] !== target else { continue }
            if let inverse = rel.inverseToMany {
                o.toOne[i]?.removeMember(o, toMany: inverse)
                target?.addMember(o, toMany: inverse)
            }
            o.toOne[i] = target
        }
        o.version = state.version
        o.committed = state.values
        o.committedToOne = state.toOne
        o.isFault = false
        o.batch = nil
        holdRow(o)
        if !keep.isEmpty {
            for i in state.values.indices where keep.contains(i) { o.values[i] = local[i] }
        }
    }

    /// After batch requests (which post no notification): refreshes the registered objects among
    /// `updated` from the store (one query per entity per 500 objects), forgets the `deleted`
    /// ones, and brings `inserted` objects to the results controllers that watch their entity,
    /// in each context on its own queue. Like Core Data's
    /// `mergeChanges(fromRemoteContextSave:into:)`, whose dictionary holds the three lists
    /// (`NSInsertedObjectIDsKey`, `NSUpdatedObjectIDsKey`, `NSDeletedObjectIDsKey`).
    package static func mergeChanges(
        fromRemoteContextSave changes: RemoteChanges, into contexts: [ManagedObjectContext]
    ) {
        for context in contexts {
            context.performAndWait {
                let start = DispatchTime.now().uptimeNanoseconds
                defer { context.addMergeTime(DispatchTime.now().uptimeNanoseconds - start) }
                context.mergeObjectIDs(inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted)
                context.foldObjectWork()
            }
        }
    }

    /// Merges changes known by object ID only (batch requests, persistent history): registered
    /// objects among `updated` are read again (one query per entity per 500 objects), `deleted`
    /// ones are forgotten, and `inserted` objects of an entity a results controller watches are
    /// read and shown. Results controllers are told about each object touched.
    func mergeObjectIDs(inserted: [ManagedObjectID], updated: [ManagedObjectID], deleted: [ManagedObjectID]) {
        var byEntity: [Int: [ManagedObject]] = [:]
        var read: [ManagedObject] = []
        var brought: [ManagedObject] = []
        for id in updated {
            guard let o = registry[id], o.changed.isEmpty, !o.isInserted else { continue }
            releaseRow(o)
            o.isFault = true
            o.values = []
            byEntity[id.entityID, default: []].append(o)
        }
        for id in inserted where registry[id] == nil && resultsControllers.contains(where: { $0.watches(id.entityID) })
        {
            let entity = persistentStoreCoordinator.model.runtime[id.entityID - 1]
            let o = ManagedObject(entity: entity, id: id, context: self, fault: true)
            registry[id] = o
            byEntity[id.entityID, default: []].append(o)
            brought.append(o)
        }
        for (entityID, objects) in byEntity {
            let entity = persistentStoreCoordinator.model.runtime[entityID - 1]
            // Faults with their old links: drop those before the rows relink them.
            for o in objects {
                for (i, rel) in entity.toOne.enumerated() where o.toOne.indices.contains(i) {
                    if let inverse = rel.inverseToMany { o.toOne[i]?.removeMember(o, toMany: inverse) }
                    o.toOne[i] = nil
                }
            }
            try? load(objects, entity: entity)
            read += objects.filter { !$0.isFault }
            // A row deleted since it was recorded stays a fault: forget it.
            for o in objects where o.isFault { forget(o) }
        }
        // As a merged save's deletions.
        let gone = mergeDeletions(deleted)
        let isNew = Set(brought.map(ObjectIdentifier.init))
        let (new, refreshed) = (
            read.filter { isNew.contains(ObjectIdentifier($0)) }, read.filter { !isNew.contains(ObjectIdentifier($0)) }
        )
        objectWork.refreshed += refreshed.count
        for controller in resultsControllers {
            controller.apply(inserted: new, updated: refreshed, deleted: gone, fulfil: fireFault)
        }
    }

    /// Starts telling `controller` about merged objects.
    func follow(_ controller: FetchedResultsController) {
        followers.removeAll { $0.controller == nil }
        if !followers.contains(where: { $0.controller === controller }) { followers.append(WeakController(controller)) }
    }
}

/// What a batch request changed, by object ID, for `mergeChanges(fromRemoteContextSave:into:)`.
package struct RemoteChanges: Sendable {
    package var inserted: [ManagedObjectID] = []
    package var updated: [ManagedObjectID] = []
    package var deleted: [ManagedObjectID] = []

    package init(inserted: [ManagedObjectID] = [], updated: [ManagedObjectID] = [], deleted: [ManagedObjectID] = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}
