import Foundation
import Testing

@testable import ObjectGraph

/// Validation at save (`validateForInsert` / `validateForUpdate`): every inserted and updated
/// object's attributes against the model, all failures at once, the context's changes kept.
@Suite struct ValidationTests {
    /// A ticket: its code is required and 3 to 8 characters long, its seats 1 to 9.
    func makeTickets() throws -> PersistentContainer {
        ConcurrencyDebug.isEnabled = true
        let ticket = EntityDescription(
            "Ticket",
            attributes: [
                .init("code", .string, optional: false, minimum: 3, maximum: 8),
                .init("seats", .integer64, minimum: 1, maximum: 9),
                .init("note", .string),
            ])
        let path = NSTemporaryDirectory() + "val-\(UUID().uuidString).sqlite"
        return try PersistentContainer(model: try ManagedObjectModel([ticket]), options: StoreOptions(path: path))
    }

    func save(_ container: PersistentContainer, _ fill: [(code: Value, seats: Value)]) throws -> ContextError? {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            for values in fill {
                let t = try context.insertNewObject(forEntityName: "Ticket")
                t["code"] = values.code
                t["seats"] = values.seats
            }
            do {
                try context.save()
                return nil
            } catch let error as ContextError {
                #expect(context.hasChanges, "a failed validation keeps the changes")
                return error
            }
        }
    }

    @Test func validObjectsSave() throws {
        let container = try makeTickets()
        #expect(try save(container, [("ABC", .integer(1)), ("ABCDEFGH", .integer(9)), ("XYZ", .null)]) == nil)
        #expect(try container.rows("SELECT count(*) FROM ZTICKET") == 3)
    }

    @Test func eachFailureHasCoreDatasCodeAndAllAreReportedAtOnce() throws {
        let container = try makeTickets()
        let error = try save(container, [(.null, .integer(2)), ("AB", .integer(0)), ("ABCDEFGHI", .integer(10))])
        guard case .validation(let failures)? = error else {
            Issue.record("expected a validation error, got \(String(describing: error))")
            return
        }
        #expect(
            failures.map(\.code) == [
                .missingMandatoryProperty, .stringTooShort, .numberTooSmall, .stringTooLong, .numberTooLarge,
            ])
        #expect(failures[0].description == "Ticket.code is required and nil (1570)")
        #expect(error?.description.hasPrefix("validation failed for 5 values (1560)") == true)
        #expect(try container.rows("SELECT count(*) FROM ZTICKET") == 0)
    }

    /// An update is validated too: a stored ticket whose seats go out of range fails its save.
    @Test func anUpdateIsValidated() throws {
        let container = try makeTickets()
        #expect(try save(container, [("ABC", .integer(1))]) == nil)
        let context = container.newBackgroundContext()
        let error: ContextError? = try context.performAndWait {
            let t = try #require(try context.fetch(FetchRequest(entityName: "Ticket")).first)
            t["seats"] = .integer(12)
            do {
                try context.save()
                return nil
            } catch let error as ContextError { return error }
        }
        #expect(error == .validation([ValidationFailure(entity: "Ticket", attribute: "seats", code: .numberTooLarge)]))
    }

    /// A batch insert bypasses the context, and validation with it (as `NSBatchInsertRequest`).
    @Test func aBatchInsertIsNotValidated() throws {
        let container = try makeTickets()
        let context = container.newBackgroundContext()
        let result = try context.performAndWait {
            try context.execute(BatchInsertRequest(entityName: "Ticket", objects: [["seats": .integer(99)]]))
        }
        let stored = try container.rows("SELECT count(*) FROM ZTICKET WHERE ZCODE IS NULL")
        #expect(result.count == 1 && stored == 1)
    }

    /// Relationships are validated too: a required to-one left nil fails (1570), and a loaded
    /// to-many past its `maxCount` fails (1590), as Core Data's validateForInsert reports them.
    @Test func relationshipsAreValidated() throws {
        ConcurrencyDebug.isEnabled = true
        var seat = RelationshipDescription("flight", to: "Flight", inverse: "seats")
        seat.isOptional = false
        var seats = RelationshipDescription("seats", to: "Seat", inverse: "flight", toMany: true)
        seats.maxCount = 2
        let model = try ManagedObjectModel([
            EntityDescription("Flight", attributes: [.init("number", .string)], relationships: [seats]),
            EntityDescription("Seat", attributes: [.init("row", .integer64)], relationships: [seat]),
        ])
        let path = NSTemporaryDirectory() + "val-\(UUID().uuidString).sqlite"
        let container = try PersistentContainer(model: model, options: StoreOptions(path: path))
        let context = container.newBackgroundContext()
        let codes: [ValidationFailure.Code] = try context.performAndWait {
            let flight = try context.insertNewObject(forEntityName: "Flight")
            _ = flight.objects(forKey: "seats")   // loaded (empty): counted at save
            for _ in 0..<3 { try context.insertNewObject(forEntityName: "Seat").setObject(flight, forKey: "flight") }
            _ = try context.insertNewObject(forEntityName: "Seat")   // no flight
            do {
                try context.save()
                return []
            } catch ContextError.validation(let failures) { return failures.map(\.code) }
        }
        #expect(
            codes.sorted { $0.rawValue < $1.rawValue } == [.missingMandatoryProperty, .relationshipExceedsMaximumCount])
        #expect(try container.rows("SELECT count(*) FROM ZSEAT") == 0)
    }

    /// A required to-many is held to its `minCount` only, as Core Data's relationship validation
    /// does: empty with no `minCount` saves (a shipping app's model has such to-manys), fewer than
    /// `minCount` members fails (1580), and an optional one may be empty whatever its `minCount`.
    @Test func aRequiredToManyIsHeldToItsMinCountOnly() throws {
        ConcurrencyDebug.isEnabled = true
        func flights(minCount: Int?, optional: Bool, seats count: Int) throws -> [ValidationFailure.Code] {
            var seats = RelationshipDescription("seats", to: "Seat", inverse: "flight", toMany: true)
            seats.isOptional = optional
            seats.minCount = minCount
            let model = try ManagedObjectModel([
                EntityDescription("Flight", attributes: [.init("number", .string)], relationships: [seats]),
                EntityDescription(
                    "Seat", attributes: [.init("row", .integer64)],
                    relationships: [RelationshipDescription("flight", to: "Flight", inverse: "seats")]),
            ])
            let path = NSTemporaryDirectory() + "val-\(UUID().uuidString).sqlite"
            let container = try PersistentContainer(model: model, options: StoreOptions(path: path))
            let context = container.newBackgroundContext()
            return try context.performAndWait {
                let flight = try context.insertNewObject(forEntityName: "Flight")
                _ = flight.objects(forKey: "seats")
                for _ in 0..<count {
                    try context.insertNewObject(forEntityName: "Seat").setObject(flight, forKey: "flight")
                }
                do {
                    try context.save()
                    return []
                } catch ContextError.validation(let failures) { return failures.map(\.code) }
            }
        }
        #expect(try flights(minCount: nil, optional: false, seats: 0) == [])
        #expect(try flights(minCount: 2, optional: false, seats: 1) == [.relationshipLacksMinimumCount])
        #expect(try flights(minCount: 2, optional: false, seats: 0) == [.relationshipLacksMinimumCount])
        #expect(try flights(minCount: 2, optional: true, seats: 0) == [])
        #expect(try flights(minCount: 2, optional: true, seats: 1) == [.relationshipLacksMinimumCount])
        #expect(try flights(minCount: 2, optional: false, seats: 2) == [])
    }
}
