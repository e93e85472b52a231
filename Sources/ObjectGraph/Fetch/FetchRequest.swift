/// What to fetch: an entity, a predicate, an order and limits, as `NSFetchRequest` describes it.
public struct FetchRequest: Sendable {
    public var entityName: String
    public var predicate: Predicate?
    public var sortDescriptors: [SortDescriptor] = []
    /// At most this many objects (0: no limit).
    public var fetchLimit = 0
    /// When > 0: fetch only keys first, then rows a batch at a time as they are touched.
    public var fetchBatchSize = 0
    /// Relationships (by name) whose destinations are fetched with the results, one query each.
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// Include unsaved inserts and changes of the context (Core Data's default).
    public var includesPendingChanges = true

    public init(entityName: String, predicate: Predicate? = nil) {
        self.entityName = entityName
        self.predicate = predicate
    }
}

/// One sort key.
public struct SortDescriptor: Sendable, Equatable {
    public var key: String
    public var ascending: Bool
    public init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}
