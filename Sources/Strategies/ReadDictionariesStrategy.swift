import ObjectGraph
import Report

/// The list screen fetching dictionaries of what its cells show (`resultType =
/// .dictionaryResultType`, `propertiesToFetch = ["note", "category.name"]`): one query joining
/// the categories' table, no managed object made or registered.
package struct ReadDictionariesStrategy: ReadStrategy {
    package init() {}
    package var name: String { "read-dictionaries" }
    package var summary: String { "fetch dictionaries of note and category.name (one joined query, no objects)" }
    package var idiom: String { ".dictionaryResultType with propertiesToFetch, a to-one key path joined (seed 004)" }
    package var resolvesRelatedObjects: Bool { true }
    package var defaultBatchSize: Int? { nil }
    /// Said wherever its figures are: it is the fastest read because it returns less, and what it
    /// does not return is what a screen that edits or follows saves needs.
    package var caveat: String {
        "values, not managed objects: read-only, not updated by later saves, no faults to follow; "
            + "for a list that only displays (one that edits or observes changes needs objects: --require objects)"
    }
    package var neverDelivers: Set<Requirement> { [.objects] }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ListScreen<Store>.run(job) { screen, context, store in
            // The related object's key through its relationship: `category.name`.
            let key = store.categoryRelationship.flatMap { r in store.categoryNameAttribute.map { "\(r).\($0)" } }
            var request = FetchRequest(entityName: store.expense)
            request.propertiesToFetch = [store.noteAttribute, key].compactMap { $0 }
            for row in try context.fetchDictionaries(request) {
                screen.show(row, note: store.noteAttribute, key: key)
                screen.shownOne(sampleEvery: 10_000)
            }
        }
    }
}
