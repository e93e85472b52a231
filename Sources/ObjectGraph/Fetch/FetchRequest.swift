/// What to fetch: an entity, a predicate, an order and limits, as `NSFetchRequest` describes it.
package struct FetchRequest: Sendable {
    package var entityName: String
    package var predicate: Predicate?
    package var sortDescriptors: [SortDescriptor] = []
    /// At most this many objects (0: no limit).
    package var fetchLimit = 0
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
