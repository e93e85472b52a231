import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// A model file is untrusted input (issue 27): every name Xcode and Core Data refuse is refused
/// where it is written, names that would collide in the store are refused before anything runs,
/// and the engine quotes any identifier that is not a plain word, so no name is read as SQL.
@Suite struct ModelNameTests {
    static func model(
        entity: String = "Item", attributes: [String] = ["key"], relationships: String = "",
        extra: String = ""
    ) -> String {
        let attrs = attributes.map { #"<attribute name="\#($0)" optional="YES" attributeType="String"/>"# }.joined(
            separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="\(entity)" syncable="YES">
            \(attrs)
            \(relationships)
                </entity>
            \(extra)
            </model>
            """
    }

    func refusal(_ text: String) -> ModelFileError? {
        do {
            _ = try ModelFile.parse(text, path: "m/contents", name: "M")
            return nil
        } catch { return error }
    }

    @Test(arguments: [
        (
            "x VARCHAR); ATTACH DATABASE 'PWNED.DB' AS P; CREATE TABLE P.T(X); --",
            "may hold only letters, digits and underscores"
        ),
        ("two words", "may hold only letters"), ("quo\"te", "may hold only letters"),
        ("brack]et", "may hold only letters"),
        ("back`tick", "may hold only letters"), ("café", "may hold only letters"),
        ("Name", "must begin with a lower-case letter"),
        ("_PK", "must begin with a lower-case letter"), ("9lives", "may hold only letters"),
        ("description", "is reserved"), ("objectID", "is reserved"), ("self", "is reserved"),
    ])
    func aPropertyNameXcodeRefusesIsRefusedWithItsLine(name: String, reason: String) throws {
        let escaped = name.replacingOccurrences(of: "\"", with: "&quot;")
        let error = try #require(refusal(Self.model(attributes: ["key", escaped])))
        #expect(error.line == 5 && error.message.contains(reason), "\(error)")
    }

    @Test(arguments: [
        ("item", "must begin with an upper-case letter"), ("_METADATA", "must begin with an upper-case letter"),
        ("Bad Name", "may hold only letters"), ("Item;DROP", "may hold only letters"),
    ])
    func anEntityNameXcodeRefusesIsRefused(name: String, reason: String) throws {
        let error = try #require(refusal(Self.model(entity: name)))
        #expect(error.line == 3 && error.message.contains(reason), "\(error)")
    }

    @Test func namesThatShareAColumnOrATableAreRefusedBeforeAnythingRuns() throws {
        let columns = try #require(refusal(Self.model(attributes: ["name", "nAme"])))
        #expect(columns.message.contains("Item.name and Item.nAme would share the column ZNAME"), "\(columns)")
        let group = try #require(
            refusal(
                Self.model(
                    attributes: ["group"],
                    relationships:
                        #"<relationship name="group" optional="YES" maxCount="1" destinationEntity="Item"/>"#)))
        #expect(group.message.contains("Item.group is declared twice"), "\(group)")
        let tables = try #require(
            refusal(Self.model(extra: #"<entity name="ITEM"><attribute name="k" attributeType="String"/></entity>"#)))
        #expect(tables.message.contains("entities Item and ITEM would share the table ZITEM"), "\(tables)")
    }

    /// Core Data has no limit on an entity's properties (shipped entities have 37 to 64
    /// attributes): the only one is SQLite's columns per table, refused when the model is read.
    @Test func onlySQLitesColumnLimitBoundsAnEntity() throws {
        #expect(refusal(Self.model(attributes: (0..<200).map { "a\($0)" })) == nil)
        _ = try ManagedObjectModel([
            EntityDescription("Wide", attributes: (0..<300).map { AttributeDescription("a\($0)", .string) })
        ])
        let columns = SQLIdentifier.maximumColumns
        #expect(columns >= 1000, "SQLite's column limit, read from the library: \(columns)")
        let tooWide = try #require(refusal(Self.model(attributes: (0..<columns).map { "a\($0)" })))
        #expect(
            tooWide.message.contains(
                "the table of Item (a column per attribute and to-one, with Z_PK, Z_ENT and Z_OPT) needs "
                    + "\(columns + 3) columns, and SQLite allows at most \(columns)"), "\(tooWide)")
    }

    @Test(arguments: [
        (#"attributeType="Integer 16" minValueString="40000""#, "outside what an Integer 16 holds"),
        (#"attributeType="Integer 32" minValueString="nan""#, "is not a finite number"),
        (#"attributeType="Double" maxValueString="inf""#, "is not a finite number"),
        (
            #"attributeType="Integer 32" minValueString="1" maxValueString="10" defaultValueString="40""#,
            "the default is 40, above the maximum 10"
        ),
        (
            #"attributeType="String" minValueString="3" defaultValueString="ab""#,
            "the default is 2 characters long, below the minimum 3"
        ),
        (#"attributeType="String" maxValueString="-1""#, "is not a length"),
    ])
    func limitsTheTypeCannotHoldAreRefused(attribute: String, reason: String) throws {
        let text = Self.model(attributes: []).replacingOccurrences(
            of: "\n\n", with: "\n<attribute name=\"v\" \(attribute)/>\n")
        let error = try #require(refusal(text))
        #expect(error.message.contains(reason), "\(error)")
    }

    /// A model built in code is not read by the reader: its odd names reach the engine, which
    /// quotes them, so the store is made, written and read, and nothing else is created.
    @Test func theEngineQuotesWhatIsNotAPlainWord() throws {
        let dir = NSTemporaryDirectory() + "quote-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let evil = "x VARCHAR); ATTACH DATABASE '\(dir)/PWNED.DB' AS P; CREATE TABLE P.T(X); --"
        let model = try ManagedObjectModel([
            EntityDescription(
                "Odd \"Item\"",
                attributes: [
                    AttributeDescription(evil, .string, indexed: true),
                    AttributeDescription("order", .integer64),
                ],
                uniquenessConstraints: [[evil]])
        ])
        #expect(model.entities[0].tableName == #""ZODD ""ITEM""""#)
        #expect(SQLIdentifier.quoted("ZNAME") == "ZNAME" && SQLIdentifier.quoted("ORDER") == "\"ORDER\"")
        let container = try makeContainer(model, path: dir + "/store.sqlite")
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let entity = try context.entity(named: "Odd \"Item\"")
            for i in 0..<3 {
                let o = context.insert(entity)
                o[evil] = .string("v\(i)")
                o["order"] = .integer(Int64(i))
            }
            try context.save()
        }
        #expect(try container.rows(#"SELECT count(*) FROM "ZODD ""ITEM""""#) == 3)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.uppercased().hasPrefix("PWNED") }
                .isEmpty)
    }
}
