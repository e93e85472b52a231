import ObjectGraph
import Report

/// The infinite-scroll list: pages of `--batch-size` rows (`fetchLimit` + `fetchOffset`, in the
/// key's order) fetched one after the other to the end, each kept as the list grows, against
/// `read-batched`'s one fetch whose `fetchBatchSize` proxy loads batches as they are touched.
package struct ReadPageStrategy: ReadStrategy {
    package init() {}
    package var name: String { "read-page" }
    package var summary: String { "fetchLimit = --batch-size pages with a growing fetchOffset, walked to the end" }
    package var idiom: String { "fetchLimit + fetchOffset pages of an infinite-scroll list (seed 004)" }

    package func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
        let size = job.batchSize(for: self)
        return try ListScreen<Store>.run(job) { screen, context, store in
            var request = FetchRequest(entityName: store.expense)
            // A page needs a stable order: the key's (its uniqueness index serves it).
            request.sortDescriptors = store.keyAttribute.map { [SortDescriptor(key: $0)] } ?? []
            request.fetchLimit = size
            while true {
                let page = try context.fetch(request)
                for expense in page {
                    screen.show(expense)
                    screen.shownOne(sampleEvery: .max)
                }
                screen.sample()
                if page.count < size { break }
                request.fetchOffset += size
            }
        }
    }
}
