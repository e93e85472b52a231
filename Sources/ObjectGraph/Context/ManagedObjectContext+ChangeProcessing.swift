import Foundation

/// Change processing as Core Data does it (`-[NSManagedObjectContext _processRecentChanges:]`,
/// decompiled iOS 18.2): an object is recorded at its first change since changes were last
/// processed; processing sorts the recorded objects into sets of inserted, updated and deleted
/// objects and posts `NSManagedObjectContextObjectsDidChangeNotification` with them in its user
/// info, after an object-ID set per key for the private notification
/// (`_postObjectsDidChangeNotificationWithUserInfo:`), whoever listens: Core Data checks for no
/// observer. `save()` processes before it validates and again after each validation pass. A fetch
/// that includes pending changes processes first only when it cannot coalesce them
/// (`_attemptCoalesceChangesForFetch`: any unprocessed delete, or an unprocessed insert of an
/// object deleted before); otherwise it judges the unprocessed objects in memory, as the engine's
/// fetch always does. An import, which inserts and updates, posts nothing per fetch.
extension ManagedObjectContext {
    package static let objectsDidChange = Notification.Name("NSManagedObjectContextObjectsDidChangeNotification")
    package static let objectsDidChangePrivate = Notification.Name(
        "_NSObjectsChangedInManagingContextPrivateNotification")

    /// The user-info keys, as Core Data's literals spell them.
    package enum ChangeKey {
        package static let inserted = "inserted", updated = "updated", deleted = "deleted", refreshed = "refreshed"
        package static let insertedIDs = "inserted_objectIDs", updatedIDs = "updated_objectIDs",
            deletedIDs = "deleted_objectIDs"
        package static let refreshedIDs = "refreshed_objectIDs"
    }

    /// `_attemptCoalesceChangesForFetch`: a fetch may skip processing unless a delete is pending
    /// (the engine cannot insert an object deleted before, the other case that processes).
    func processPendingChangesForFetch() {
        if recentDeletes > 0 { processPendingChanges() }
    }

    /// Records `o` as changed since the last processing, once.
    @inline(__always)
    func noteRecentChange(_ o: ManagedObject) {
        guard !o.isRecentlyChanged else { return }
        o.isRecentlyChanged = true
        recentChanges.append(o)
    }

    /// `processPendingChanges()`: posts what changed since the last processing; false when
    /// nothing did.
    @discardableResult
    package func processPendingChanges() -> Bool {
        assertOnQueue()
        guard !recentChanges.isEmpty else { return false }
        var inserted = Set<ManagedObject>()
        var updated = Set<ManagedObject>()
        var deleted = Set<ManagedObject>()
        for o in recentChanges {
            o.isRecentlyChanged = false
            guard o.managedObjectContext === self else { continue }
            if o.isInserted {
                inserted.insert(o)
            } else if o.isDeleted {
                deleted.insert(o)
            } else if o.isUpdated {
                updated.insert(o)
            }
        }
        recentChanges.removeAll(keepingCapacity: recentChanges.count <= 16_384)
        recentDeletes = 0
        postObjectsDidChange(inserted: inserted, updated: updated, deleted: deleted)
        return true
    }

    /// `_createAndPostChangeNotification:…`: the non-empty sets in a user-info dictionary, an
    /// object-ID set made per key for the private notification, both posted.
    /// A merge's names what it inserted, deleted and refreshed (`refreshed`).
    func postObjectsDidChange(
        inserted: Set<ManagedObject>, updated: Set<ManagedObject>, deleted: Set<ManagedObject>,
        refreshed: Set<ManagedObject> = []
    ) {
        var userInfo: [AnyHashable: Any] = [:]
        var objectIDs: [AnyHashable: Any] = [:]
        var named = 0
        for (key, idKey, objects) in [
            (ChangeKey.inserted, ChangeKey.insertedIDs, inserted), (ChangeKey.updated, ChangeKey.updatedIDs, updated),
            (ChangeKey.deleted, ChangeKey.deletedIDs, deleted),
            (ChangeKey.refreshed, ChangeKey.refreshedIDs, refreshed),
        ] where !objects.isEmpty {
            userInfo[key] = objects
            objectIDs[idKey] = Set(objects.map(\.objectID))
            named += objects.count
        }
        guard named > 0 else { return }
        let center = NotificationCenter.default
        center.post(name: Self.objectsDidChangePrivate, object: self, userInfo: objectIDs)
        center.post(name: Self.objectsDidChange, object: self, userInfo: userInfo)
        objectWork.changeNotifications += 1
        objectWork.objectsInChangeNotifications += named
    }

    // MARK: The did-save notifications

    package static let didSaveObjectIDs = Notification.Name("NSManagedObjectContextDidSaveObjectIDsNotification")
    package static let didSaveObjectIDsPrivate = Notification.Name(
        "_NSManagedObjectContextDidSaveObjectIDsPrivateNotification")
    package static let didSaveChanges = Notification.Name("NSManagingContextDidSaveChangesNotification")

    /// `_didSaveChanges` and `_postContextDidSaveNotificationWithUserInfo:`: the saved objects in
    /// sets under their keys (copies of the context's inserted, changed and deleted sets), an
    /// object-ID set per key, and the posts: the IDs privately and publicly (with the context and
    /// with the coordinator as object), then the objects. Core Data posts them whoever listens;
    /// the engine's merges take the coordinator's own notification (`DidSaveNotification`).
    func postDidSave(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) {
        var objects: [AnyHashable: Any] = [:]
        var objectIDs: [AnyHashable: Any] = [:]
        var named = 0
        for (key, idKey, list) in [
            (ChangeKey.inserted, ChangeKey.insertedIDs, inserted), (ChangeKey.updated, ChangeKey.updatedIDs, updated),
            (ChangeKey.deleted, ChangeKey.deletedIDs, deleted),
        ] where !list.isEmpty {
            let set = Set(list)
            objects[key] = set
            objectIDs[idKey] = Set(set.map(\.objectID))
            named += set.count
        }
        let center = NotificationCenter.default
        center.post(name: Self.didSaveObjectIDsPrivate, object: self, userInfo: objectIDs)
        center.post(name: Self.didSaveObjectIDs, object: self, userInfo: objectIDs)
        center.post(name: Self.didSaveObjectIDs, object: persistentStoreCoordinator, userInfo: objectIDs)
        center.post(name: Self.didSaveChanges, object: self, userInfo: objects)
        objectWork.saveNotifications += 1
        objectWork.objectsInSaveNotifications += named
    }

    /// Forgets what was recorded (reset, rollback): nothing of it is posted.
    func forgetRecentChanges() {
        for o in recentChanges { o.isRecentlyChanged = false }
        recentChanges.removeAll(keepingCapacity: recentChanges.count <= 16_384)
        recentDeletes = 0
    }
}
