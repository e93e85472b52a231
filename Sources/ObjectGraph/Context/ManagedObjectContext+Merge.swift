import Foundation
import SQLiteKit

/// Merging other contexts' saves into this one: real work, with a real cost, on this queue.
extension ManagedObjectContext {
    /// Brings this context up to date with another context's save, as Core Data's
    /// `mergeChanges(fromContextDidSave:)`: registered objects take the saved values (keeping
    /// their own unsaved changes on top), deleted ones leave, and inserted objects that relate to
    /// a registered object join it (so `album.photos` grows without a refetch). No SQL.
    package func mergeChanges(fromContextDidSave note: DidSaveNotification) {
        assertOnQueue()
        let start = DispatchTime.now().uptimeNanoseconds
        defer { addMergeTime(DispatchTime.now().uptimeNanoseconds - start) }
        if note.states.isEmpty {
            // Object IDs only (a history transaction's `objectIDNotification()`): the values
            // must be read from the store.
            mergeObjectIDs(inserted: note.insertedObjectIDs, updated: note.updatedObjectIDs, deleted: note.deletedObjectIDs)
            return
        }
        let model = persistentStoreCoordinator.model
        let inserted = Set(note.insertedObjectIDs)
        for state in note.states {
            if let o = registry[state.objectID] {
                apply(state, to: o)
                for controller in resultsControllers { controller.merged(o) }
            } else if inserted.contains(state.objectID) {
                // An insert joins this context when it relates to an object held here (so that
                // album.photos grows) or a results controller watches its entity.
                let entity = model.runtime[state.objectID.entityID - 1]
                let watched = resultsControllers.contains { $0.watches(entity.id) }
                guard watched || state.toOne.contains(where: { id in id.map { registry[$0] != nil } ?? false }) else { continue }
                let o = ManagedObject(entity: entity, id: state.objectID, context: self, fault: true)
                registry[state.objectID] = o
                apply(state, to: o)
                for controller in resultsControllers { controller.merged(o) }
            }
        }
        mergeDeletions(note.deletedObjectIDs, resultsControllers: resultsControllers)
        flushRowCache()
    }

    /// Objects deleted by another context's save or by a batch request: each leaves its related
    /// objects' to-manys and the registry, and the screens that showed it are told.
    private func mergeDeletions(_ ids: [ManagedObjectID], resultsControllers: [FetchedResultsController]) {
        for id in ids {
            guard let o = registry[id] else { continue }
            for (i, rel) in o.entity.toOne.enumerated() where !o.isFault {
                if let inverse = rel.inverseToMany { o.toOne[i]?.removeMember(o, toMany: inverse) }
                o.toOne[i] = nil   // or a to-many loading later would take it back
            }
            forget(o)
            for controller in resultsControllers { controller.merged(o) }
        }
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
    /// `updated` from the store (one query per entity per 500 objects) and forgets the `deleted`
    /// ones, in each context on its own queue. Like Core Data's
    /// `mergeChanges(fromRemoteContextSave:into:)`.
    package static func mergeChanges(fromRemoteContextSave changes: (updated: [ManagedObjectID], deleted: [ManagedObjectID]),
                                    into contexts: [ManagedObjectContext]) {
        for context in contexts {
            context.performAndWait {
                let start = DispatchTime.now().uptimeNanoseconds
                defer { context.addMergeTime(DispatchTime.now().uptimeNanoseconds - start) }
                context.mergeObjectIDs(inserted: [], updated: changes.updated, deleted: changes.deleted)
            }
        }
    }

    /// Merges changes known by object ID only (batch requests, persistent history): registered
    /// objects among `updated` are read again (one query per entity per 500 objects), `deleted`
    /// ones are forgotten, and `inserted` objects of an entity a results controller watches are
    /// read and shown. Results controllers are told about each object touched.
    func mergeObjectIDs(inserted: [ManagedObjectID], updated: [ManagedObjectID], deleted: [ManagedObjectID]) {
        var byEntity: [Int: [ManagedObject]] = [:]
        for id in updated {
            guard let o = registry[id], o.changed.isEmpty, !o.isInserted else { continue }
            releaseRow(o)
            o.isFault = true
            o.values = []
            byEntity[id.entityID, default: []].append(o)
        }
        for id in inserted where registry[id] == nil && resultsControllers.contains(where: { $0.watches(id.entityID) }) {
            let entity = persistentStoreCoordinator.model.runtime[id.entityID - 1]
            let o = ManagedObject(entity: entity, id: id, context: self, fault: true)
            registry[id] = o
            byEntity[id.entityID, default: []].append(o)
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
            for o in objects where !o.isFault {
                for controller in resultsControllers { controller.merged(o) }
            }
            // A row deleted since it was recorded stays a fault: forget it.
            for o in objects where o.isFault { forget(o) }
        }
        // As a merged save's deletions.
        mergeDeletions(deleted, resultsControllers: resultsControllers)
    }

    /// Starts telling `controller` about merged objects.
    func follow(_ controller: FetchedResultsController) {
        followers.removeAll { $0.controller == nil }
        if !followers.contains(where: { $0.controller === controller }) { followers.append(WeakController(controller)) }
    }
}
