import SQLiteKit

/// A context's part in the coordinator's row cache (`RowCache`): its objects' snapshots are
/// holds, counted up when an object takes one (fetch, fault, saved insert, merge) and down when
/// it lets go (reset, back to a fault, delete); a fault is first looked up there.
extension ManagedObjectContext {
    /// `o` now holds its last fetched or saved state: the cache gets that row, counted once per
    /// object however often it is refreshed.
    func holdRow(_ o: ManagedObject) {
        guard !o.objectID.isTemporaryID else { return }
        // The row the save wrote (`_populateRow:…shouldAddToRowCache:`), else the object's state.
        let row = o.savedRow ?? StoredRow(committed: o)
        o.savedRow = nil
        rowCacheChanges.append(o.holdsCachedRow ? .replace(row, o.objectID) : .hold(row, o.objectID))
        o.holdsCachedRow = true
    }

    /// `o` gave its snapshot up.
    func releaseRow(_ o: ManagedObject) {
        guard o.holdsCachedRow else { return }
        rowCacheChanges.append(.release(o.objectID))
        o.holdsCachedRow = false
    }

    /// The row of `o` is gone from the store (deleted by a save).
    func forgetRow(_ o: ManagedObject) {
        guard !o.objectID.isTemporaryID else { return }
        rowCacheChanges.append(.forget(o.objectID))
        o.holdsCachedRow = false
    }

    /// Hands the collected holds and releases to the cache in one locked pass.
    func flushRowCache() {
        guard !rowCacheChanges.isEmpty else { return }
        persistentStoreCoordinator.rowCache.apply(rowCacheChanges)
        // A save's worth is kept for the next one; a big fetch's is given back.
        rowCacheChanges.removeAll(keepingCapacity: rowCacheChanges.count <= 4_096)
    }

    /// Core Data's `newValuesForObjectWithID:`: the row from the cache when a context holds it
    /// (no SQL), registered here as a filled object; nil on a miss (the caller queries).
    func objectFromRowCache(entity: Entity, primaryKey: Int64) -> ManagedObject? {
        flushRowCache()
        let id = ManagedObjectID(
            store: persistentStoreCoordinator.storeIndex, entityID: entity.id, primaryKey: primaryKey)
        guard let row = persistentStoreCoordinator.rowCache.row(for: id) else { return nil }
        let o = object(with: id)
        if o.isFault { fill(o, from: row) }
        // At once: a hold handed over late could bring back a row a save deletes meanwhile.
        flushRowCache()
        rowCacheHits += 1
        return o
    }

    /// Fills a fault from a cached row, linking its to-ones as a fetched row's.
    private func fill(_ o: ManagedObject, from row: StoredRow) {
        o.committedToOne = linkToOnes(
            of: o,
            entityID: { row.toOneEntity.indices.contains($0) ? row.toOneEntity[$0] : nil },
            key: { row.toOne[$0] }
        )
        o.values = row.values
        o.committed = row.values
        o.version = row.version
        o.isFault = false
        o.batch = nil
        o.forgetPrefetched()
        holdRow(o)
        awake(fromFetch: o)
    }
}
