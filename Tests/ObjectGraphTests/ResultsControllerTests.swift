import Foundation
import Testing

@testable import ObjectGraph

/// A list screen's results controller follows merged saves of its entity, and only of it.
@Suite struct ResultsControllerTests {
    @Test func followsInsertsUpdatesAndDeletesOfItsEntityOnly() throws {
        let container = try makeContainer()
        let writer = container.newBackgroundContext(name: "writer")
        let ids = try seedExpenses(writer, count: 10, categories: 2)
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        var request = FetchRequest(entityName: "Expense", predicate: .compare("amount", .less, .value(.double(100))))
        request.sortDescriptors = [SortDescriptor(key: "amount")]
        let controller = try followingController(request, in: view)
        #expect(view.performAndWait { controller.count } == 10)
        try writer.performAndWait {
            let cat = try writer.fetch(FetchRequest(entityName: "Category"))[0]
            cat["name"] = "renamed"   // another entity: not followed
            let e = try writer.insertNewObject(forEntityName: "Expense")
            e["amount"] = 5   // matches: joins
            let big = try writer.insertNewObject(forEntityName: "Expense")
            big["amount"] = 500   // does not match
            try writer.existingObject(with: ids[0])["amount"] = 1_000   // leaves
            writer.delete(try writer.existingObject(with: ids[1]))   // leaves
            try writer.save()
        }
        view.performAndWait {}
        #expect(view.performAndWait { controller.count } == 9)
        #expect(view.performAndWait { controller.fetchedObjects.allSatisfy { $0.entity.name == "Expense" } })
    }
}
