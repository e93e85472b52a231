import ObjectGraph
import Report

/// The list screen fetching only the columns its cells show (`propertiesToFetch = ["note",
/// "category"]`): objects come back as faults pre-populated with them, so the walk reads no other
/// column; a category is a fault fired when a cell first shows it, as in `read-faulting`.
package struct ReadPropertiesStrategy: ReadStrategy {
    package init() {}
    package var name: String { "read-properties" }
    package var summary: String { "fetch every expense with propertiesToFetch = the cell's columns (note, category)" }
    package var idiom: String { "propertiesToFetch with managed objects: only the visible columns (seed 004)" }
    package var resolvesRelatedObjects: Bool { true }
    package var defaultBatchSize: Int? { nil }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        try ListScreen<Store>.run(job) { screen, context, store in
            var request = FetchRequest(entityName: store.expense)
            request.propertiesToFetch = [store.noteAttribute, store.categoryRelationship].compactMap { $0 }
            for expense in try context.fetch(request) {
                screen.show(expense)
                screen.shownOne(sampleEvery: 10_000)
            }
        }
    }
}
