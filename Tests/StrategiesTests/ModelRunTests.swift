import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Testing
import Workload

@testable import Strategies

/// A team's own model (issue 22): every strategy on a three-entity model, the roles found or
/// named, and a model that lacks what some strategies need.
@Suite struct ModelRunTests {
    /// Article (a key constrained with its source, a to-one to Feed, every kind of value) →
    /// Feed (constrained by url, with required attributes of its own); Reader stands apart.
    static let articleConstraint =
        #"<uniquenessConstraints><uniquenessConstraint><constraint value="identifier"/>"#
        + #"<constraint value="source"/></uniquenessConstraint></uniquenessConstraints>"#

    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Article" syncable="YES">
                <attribute name="body" optional="YES" attributeType="String" maxValueString="300"/>
                <attribute name="identifier" attributeType="String"/>
                <attribute name="source" attributeType="Integer 16" defaultValueString="1"/>
                <attribute name="publishedAt" attributeType="Date"/>
                <attribute name="score" optional="YES" attributeType="Double"/>
                <attribute name="rank" optional="YES" attributeType="Integer 32" minValueString="0" maxValueString="100"/>
                <attribute name="starred" attributeType="Boolean" defaultValueString="NO"/>
                <attribute name="token" optional="YES" attributeType="UUID"/>
                <attribute name="link" optional="YES" attributeType="URI"/>
                <attribute name="thumbnail" optional="YES" attributeType="Binary"/>
                <relationship name="feed" maxCount="1" deletionRule="Nullify" destinationEntity="Feed" inverseName="articles" inverseEntity="Feed"/>
                \(articleConstraint)
            </entity>
            <entity name="Feed" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <attribute name="refreshedAt" attributeType="Date"/>
                <attribute name="url" attributeType="String"/>
                <relationship name="articles" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Article" inverseName="feed" inverseEntity="Article"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="url"/></uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Reader" syncable="YES">
                <attribute name="name" attributeType="String"/>
            </entity>
        </model>
        """

    static func write(_ text: String) -> String {
        let folder = NSTemporaryDirectory() + "model-\(UUID().uuidString)/News.xcdatamodel"
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try! text.write(toFile: folder + "/contents", atomically: true, encoding: .utf8)
        return folder
    }

    static let path = write(model)

    func configuration(_ strategy: any WriteStrategy, rows: Int = 600, path: String = ModelRunTests.path)
        -> RunConfiguration
    {
        var c = RunConfiguration()
        c.strategy = strategy.name
        c.operation = strategy.operation
        c.fraction = strategy.operation == .update || strategy.operation == .delete ? 0.2 : nil
        c.model.path = path
        c.workload.usesModel = true
        c.workload.modelParents = 9
        c.workload.payloadBytes = 48
        c.workload.rows = rows
        c.workload.dupRate = strategy.operation == .import ? 0.2 : 0
        c.batchSize = 100
        c.writers = 2
        return c
    }

    @Test func theRolesComeFromTheModel() throws {
        let source = try ImportSource.resolve(configuration(ContextResetStrategy()))
        #expect(
            source.roles.entity == "Article" && source.roles.key == ["identifier", "source"] && source.roles.keyIsUnique
        )
        #expect(
            source.roles.relationship == "feed" && source.roles.parentKey == "url" && source.roles.parentKeyIsUnique)
        let shape = try source.shape(ShapeOptions())
        #expect(
            shape.fields.map(\.name) == [
                "body", "identifier", "link", "publishedAt", "rank", "score", "source", "starred",
                "thumbnail", "token", "url",
            ])
        #expect(shape.parentFields.map(\.name) == ["refreshedAt", "title"])
        #expect(shape.fields.last?.fileName == "feedUrl")
        #expect(shape.targetField.map { shape.fields[$0].name } == "publishedAt")
        #expect(shape.updateField.map { shape.fields[$0].name } == "body")
    }

    /// An `Item` keyed by `sku` whose `title` (String) and `second` attribute (its opening tag)
    /// are both mapped to the feed's member `name`.
    static func sharedMemberModel(second: String) -> String {
        let mapped = #"<userInfo><entry key="mappedKeyName" value="name"/></userInfo></attribute>"#
        return write(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Item" syncable="YES">
                    <attribute name="sku" attributeType="String"/>
                    <attribute name="title" optional="YES" attributeType="String">\(mapped)
                    \(second)\(mapped)
                    <uniquenessConstraints><uniquenessConstraint><constraint value="sku"/></uniquenessConstraint></uniquenessConstraints>
                </entity>
            </model>
            """)
    }

    /// Issue 55, item 14, and the quality bar's "refuse only what Core Data refuses": two
    /// attributes of one type mapped to one member (the same mappedKeyName) are both filled from
    /// it, as MagicalRecord fills them; `generate` writes the member once. It was refused.
    @Test func twoAttributesOfOneMemberAreBothFilled() throws {
        let path = Self.sharedMemberModel(second: #"<attribute name="label" optional="YES" attributeType="String">"#)
        let feed = NSTemporaryDirectory() + "shared-\(UUID().uuidString).ndjson"
        let store = NSTemporaryDirectory() + "shared-\(UUID().uuidString).sqlite"
        defer {
            for p in [feed, store, store + "-wal", store + "-shm"] { try? FileManager.default.removeItem(atPath: p) }
        }
        try """
        {"sku": "a", "name": "Hello"}
        {"sku": "b", "name": null}
        {"sku": "c", "name": "Bonjour"}

        """.write(toFile: feed, atomically: true, encoding: .utf8)
        var c = configuration(FindOrCreateStrategy(), path: path)
        c.model.entity = "Item"
        c.input = feed
        var job = StrategyJob(configuration: c, store: StoreOptions(path: store))
        job.input = feed
        _ = try FindOrCreateStrategy().run(job)
        let v = try job.verifyStore(repeated: FindOrCreateStrategy().repeatedKey)
        #expect(v.storeRows == 3 && v.lost == 0 && v.unexpectedRows == 0, "\(v)")
        let db = try Database(path: store)
        let rows = try db.prepare("SELECT ZSKU, ZTITLE, ZLABEL FROM ZITEM ORDER BY ZSKU")
        var seen: [String] = []
        while try rows.step() {
            seen.append([Int32(0), 1, 2].map { rows.text(at: $0) ?? "-" }.joined(separator: " "))
        }
        #expect(seen == ["a Hello Hello", "b - -", "c Bonjour Bonjour"])
        // generate: the member once, and read back into both.
        let shape = try ImportSource.resolve(c).shape(c.shapeOptions)
        let written = NSTemporaryDirectory() + "shared-\(UUID().uuidString).ndjson"
        defer { try? FileManager.default.removeItem(atPath: written) }
        let fd = open(written, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var writer = RecordFileWriter(fd: fd, format: .ndjson, shape: shape, pool: nil)
        var record = Record()
        let title = try #require(shape.field(named: "title"))
        let label = try #require(shape.field(named: "label"))
        let sku = try #require(shape.field(named: "sku"))
        record.values.reset(fields: shape.fields.count)
        "x".utf8CString.withUnsafeBytes {
            record.values.setBytes(UnsafeRawBufferPointer(rebasing: $0.dropLast()), at: sku)
        }
        // The field read from the member is written; the one that takes its value is not.
        let shared = try #require(shape.sharedMembers.first)
        #expect(Set([shared.read] + shared.copies) == [title, label])
        "Hi".utf8CString.withUnsafeBytes {
            record.values.setBytes(UnsafeRawBufferPointer(rebasing: $0.dropLast()), at: shared.read)
        }
        "not written".utf8CString.withUnsafeBytes {
            record.values.setBytes(UnsafeRawBufferPointer(rebasing: $0.dropLast()), at: shared.copies[0])
        }
        try writer.write(record)
        try writer.finish()
        close(fd)
        let line = try String(contentsOfFile: written, encoding: .utf8)
        #expect(line.components(separatedBy: "\"name\"").count == 2, "\(line)")
        let reader = try RecordFileReader(path: written, shape: shape)
        #expect(try reader.next(into: &record))
        let both = [title, label].map { f in
            record.values.withBytes(f, pool: nil) { String(decoding: $0, as: UTF8.self) }
        }
        #expect(both == ["Hi", "Hi"])
    }

    /// Two attributes of other types mapped to one member would need it read twice: a run that
    /// reads a feed refuses them at the model's lines, naming both and the way out.
    @Test func twoAttributesOfOneMemberOfOtherTypesAreRefusedNamingBoth() throws {
        let path = Self.sharedMemberModel(
            second: #"<attribute name="rank" optional="YES" attributeType="Integer 64" usesScalarValueType="YES">"#)
        var c = RunConfiguration()
        c.model.path = path
        // Core Data loads the model (a mappedKeyName is user info to it): generated records run.
        #expect(throws: Never.self) { try ImportSource.resolve(c).shape(c.shapeOptions) }
        c.input = NSTemporaryDirectory() + "feed.ndjson"
        #expect { try ImportSource.resolve(c).shape(c.shapeOptions) } throws: {
            "\($0)".contains(
                "\(path)/contents:5: Item.title and Item.rank (line 6) are both read from the member \"name\"")
                && "\($0)".contains("--map rank=MEMBER")
        }
        c.model.members = ["title": "heading"]
        #expect(throws: Never.self) { try ImportSource.resolve(c).shape(c.shapeOptions) }
    }

    /// Issue 55, item 21: a relationship whose mappedKeyName holds the related object as an
    /// object (MagicalRecord's form, `"order_info": {"orderID": 7}`) is read, as is the key given
    /// flat under the same member (`"order_info": 7`); it was refused "must be a string, found an object".
    @Test func aRelatedObjectNestedUnderTheRelationshipsMappedNameIsRead() throws {
        let path = Self.write(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Item" syncable="YES">
                    <attribute name="sku" attributeType="String"/>
                    <relationship name="order" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Order" inverseName="items" inverseEntity="Order">
                        <userInfo><entry key="mappedKeyName" value="order_info"/></userInfo></relationship>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="sku"/></uniquenessConstraint></uniquenessConstraints>
                </entity>
                <entity name="Order" syncable="YES">
                    <attribute name="orderID" attributeType="Integer 64" usesScalarValueType="YES"/>
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="order" inverseEntity="Item"/>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="orderID"/></uniquenessConstraint></uniquenessConstraints>
                </entity>
            </model>
            """)
        let feed = NSTemporaryDirectory() + "nested-\(UUID().uuidString).ndjson"
        defer { try? FileManager.default.removeItem(atPath: feed) }
        try """
        {"sku": "a", "order_info": {"orderID": 7, "status": "paid"}}
        {"sku": "b", "order_info": 8}
        {"sku": "c", "order_info": {"orderID": 7}}

        """.write(toFile: feed, atomically: true, encoding: .utf8)
        var c = RunConfiguration()
        c.model.path = path
        let shape = try ImportSource.resolve(c).shape(c.shapeOptions)
        let reader = try RecordFileReader(path: feed, shape: shape)
        var record = Record()
        var orders: [Int64] = []
        while try reader.next(into: &record) { orders.append(record.values.integer(shape.parentKey[0])) }
        #expect(orders == [7, 8, 7])
    }

    /// Every strategy on the model: status ok, and the verifier's figures exact.
    @Test(arguments: StrategyRegistry.names)
    func everyStrategyRunsOnTheModel(name: String) throws {
        ConcurrencyDebug.isEnabled = true
        let strategy = StrategyRegistry.strategy(named: name)!
        let c = configuration(strategy)
        let path = NSTemporaryDirectory() + "model-run-\(UUID().uuidString).sqlite"
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        var options = StoreOptions(path: path)
        options.persistentHistoryTracking = strategy.requiresHistory
        var job = StrategyJob(configuration: c, store: options)
        if strategy.operation.needsFilledStore {
            job.operationTarget = try OperationSetup.prepare(job)
            job.prepared = try strategy.setUp(job)
        }
        let counters = try strategy.run(job)
        job.prepared = nil
        let v = try job.verifyStore()
        #expect(v.integrity == "ok" && v.lost == 0 && v.unexpectedRows == 0, "\(name): \(v)")
        #expect(v.problems(strategy.expectations).isEmpty, "\(name): \(v.problems(strategy.expectations))")
        switch strategy.operation {
        case .import:
            let unique = c.workload.uniqueKeys
            let refused = try job.importModel().refusesRepeatedRecords
            if strategy.expectations.uniqueKeys || refused {
                #expect(v.storeRows == unique && v.duplicates == 0, "\(name)")
            } else if strategy.isLimit || name == "batch-insert-only" {
                #expect(v.storeRows == c.workload.rows && v.duplicates == c.workload.rows - unique, "\(name)")
            } else {
                // The buggy idiom: each writer deduplicates what it sees, racing writers do not.
                #expect(
                    (unique...c.workload.rows).contains(v.storeRows) && v.duplicates == v.storeRows - unique, "\(name)")
            }
            if strategy.expectations.linked { #expect(v.badLinks == 0, "\(name)") }
        case .update, .delete, .read:
            let problems = try OperationSetup.problems(job, job.operationTarget!, counters: counters)
            #expect(problems.isEmpty, "\(name): \(problems)")
            #expect(
                v.storeRows == (strategy.operation == .delete ? 600 - job.operationTarget!.expected : 600), "\(name)")
        }
    }

    /// The related objects carry their own required attributes, made from their index.
    @Test func relatedObjectsAreCompleteRows() throws {
        let path = NSTemporaryDirectory() + "model-feeds-\(UUID().uuidString).sqlite"
        for strategy in [ContextResetStrategy(), RawSQLiteStrategy()] as [any WriteStrategy] {
            let store = path + strategy.name
            let job = StrategyJob(configuration: configuration(strategy), store: StoreOptions(path: store))
            _ = try strategy.run(job)
            let db = try Database(path: store)
            #expect(
                try db.scalarInt("SELECT count(*) FROM ZFEED WHERE ZTITLE IS NOT NULL AND ZREFRESHEDAT IS NOT NULL")
                    == 9)
            #expect(try db.scalarInt("SELECT count(*) FROM ZREADER") == 0)
        }
    }

    /// A model without a uniqueness constraint has no key unless one is named (the CLI test
    /// checks that the deduplicating strategies are then refused by name and the rest run).
    @Test func withoutAConstraintTheKeyIsNamed() throws {
        let loose = Self.write(Self.model.replacingOccurrences(of: Self.articleConstraint, with: ""))
        var c = configuration(ContextResetStrategy(), path: loose)
        do {
            _ = try ImportSource.resolve(c)
            Issue.record("accepted")
        } catch let error as ImportModelError {
            // Article no longer looks like the records (no constraint): the entity must be named.
            #expect(error.message.contains("give --entity NAME (one of: Article, Feed, Reader)"))
        }
        c.model.entity = "Article"
        // Without a key (issue 28) the records are only inserted: the idioms that find records by
        // a key are refused by name, saying which flag names one.
        let keyless = try ImportSource.resolve(c)
        #expect(
            keyless.roles.key.isEmpty
                && keyless.roles.explanation.contains {
                    $0.hasPrefix("key: none (Article has no uniqueness constraint or index")
                })
        let reason = keyless.refusal(of: ContextResetStrategy(), shape: try keyless.shape(c.shapeOptions))
        #expect(
            reason?.contains("needs a key to find records by, and Article has none") == true
                && reason?.contains("--key ATTRIBUTE") == true,
            "\(reason ?? "")")
        #expect(keyless.refusal(of: RawSQLiteStrategy(), shape: try keyless.shape(c.shapeOptions)) == nil)
        c.model.key = ["identifier"]
        let source = try ImportSource.resolve(c)
        #expect(!source.roles.keyIsUnique && source.roles.key == ["identifier"])
    }

    @Test func ambiguousRolesListTheChoices() throws {
        var c = configuration(ContextResetStrategy())
        c.model.entity = "Nope"
        do {
            _ = try ImportSource.resolve(c)
            Issue.record("accepted")
        } catch let error as ImportModelError {
            #expect(
                error.message.contains("--entity Nope is not an entity of the model (one of: Article, Feed, Reader)"))
        }
        c.model.entity = "Article"
        c.model.relationship = "author"
        do {
            _ = try ImportSource.resolve(c)
            Issue.record("accepted")
        } catch let error as ImportModelError {
            #expect(
                error.message.contains(
                    "--relationship author is not a to-one relationship of Article (one of: feed, none)"))
        }
        c.model.relationship = "none"
        do {
            _ = try ImportSource.resolve(c)
            Issue.record("accepted")
        } catch let error as ImportModelError {
            #expect(error.message.contains("Article.feed is a required to-one"))
        }
        // A to-one back to the records' own entity cannot be the relationship.
        let tree = Self.write(
            """
            <model><entity name="Node"><attribute name="id" attributeType="String"/>
            <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Node" inverseName="children" inverseEntity="Node"/>
            <relationship name="children" optional="YES" toMany="YES" destinationEntity="Node" inverseName="parent" inverseEntity="Node"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="id"/></uniquenessConstraint></uniquenessConstraints>
            </entity></model>
            """)
        var t = configuration(ContextResetStrategy(), path: tree)
        do {
            _ = try ImportSource.resolve(t)
            Issue.record("accepted")
        } catch let error as ImportModelError {
            #expect(error.message.contains("Node.parent points back at Node"), "\(error)")
        }
        t.model.relationship = "none"
        #expect(try ImportSource.resolve(t).roles.relationship == nil)
    }
}
