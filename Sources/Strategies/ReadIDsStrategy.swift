import ObjectGraph
import Report

/// The list screen that keeps object IDs (`.managedObjectIDResultType`: `SELECT Z_ENT, Z_PK`) and
/// makes objects only for the rows on screen: a screenful of `--batch-size` rows at a time is
/// fetched by ID (`self IN %@`, one query), shown, and turned back into faults when scrolled past,
/// walked to the end.
package struct ReadIDsStrategy: ReadStrategy {
    package init() {}
    package var name: String { "read-ids" }
    package var summary: String { "fetch every expense's object ID, then objects a screenful (--batch-size) at a time" }
    package var idiom: String {
        ".managedObjectIDResultType, objects materialised for the visible rows only (seed 004)"
    }
    package var resolvesRelatedObjects: Bool { true }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        let size = job.batchSize(for: self)
        return try ListScreen<Store>.run(job) { screen, context, store in
            let ids = try context.fetchObjectIDs(FetchRequest(entityName: store.expense))
            for visible in ids.chunks(of: size) {
                let rows = try context.fetch(
                    FetchRequest(
                        entityName: store.expense,
                        predicate: .isIn("self", visible.map { .object($0) })))
                for expense in rows {
                    screen.show(expense)
                    screen.shownOne(sampleEvery: .max)
                }
                screen.sample()
                // Scrolled past: back to faults, as a screen that keeps only IDs lets them go.
                for expense in rows { context.refresh(expense, mergeChanges: false) }
            }
        }
    }
}
