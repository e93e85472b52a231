/// What to fetch: an entity, a predicate, an order and limits, as `NSFetchRequest` describes it.
package struct FetchRequest: Sendable {
    package var entityName: String
    package var predicate: Predicate?
    package var sortDescriptors: [SortDescriptor] = []
    /// At most this many objects (0: no limit).
    package var fetchLimit = 0
    /// `fetchOffset`: the first this many results are skipped (`LIMIT … OFFSET n`); with
    /// `fetchLimit`, one page of a list.
    package var fetchOffset = 0
    /// `propertiesToFetch`: the attributes and to-ones to read, by name (nil: every property).
    /// Managed objects come back as faults pre-populated with them (NSFetchRequest.h: "the
    /// results are managed object faults partially pre-populated with the named properties"):
    /// touching another property fires the fault, one query for the whole row. Dictionary
    /// results (`fetchDictionaries`) also take a to-one's key path (`category.name`).
    package var propertiesToFetch: [String]?
    /// `includesPropertyValues`: false reads only the rows' keys; the objects are faults whose
    /// rows are not in the row cache, so touching each one queries its row (Apple: "goes back
    /// to the store a second time for the data").
    package var includesPropertyValues = true
    /// When > 0: fetch only keys first, then rows a batch at a time as they are touched.
    package var fetchBatchSize = 0
    /// Relationships (by name) whose destinations are fetched with the results, one query each.
    package var relationshipKeyPathsForPrefetching: [String] = []
    /// Include unsaved inserts and changes of the context (Core Data's default).
    package var includesPendingChanges = true

    package init(entityName: String, predicate: Predicate? = nil) {
        self.entityName = entityName
        self.predicate = predicate
    }
}

/// One sort key.
package struct SortDescriptor: Sendable, Equatable {
    package var key: String
    package var ascending: Bool
    package init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}
