import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Testing
import Workload

@testable import Strategies

/// What shipped apps' models hold and Core Data loads (issue 41): abstract destinations,
/// transient relationships, integer defaults written as Xcode writes them, indexes on
/// inherited attributes. Each test runs the real strategies on a real store.
@Suite struct ShippedModelTests {
    /// Bookmarks in folders, as a browser keeps them: `Bookmark.folder` points at the abstract
    /// `Container`, whose concrete sub-entities are `Folder` and `SmartFolder`.
    static let containers = """
        <model>
            <entity name="Container" isAbstract="YES">
                <attribute name="title" attributeType="String"/>
                <relationship name="bookmarks" optional="YES" toMany="YES" destinationEntity="Bookmark" inverseName="folder" inverseEntity="Bookmark"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="title"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Folder" parentEntity="Container"><attribute name="color" optional="YES" attributeType="String"/></entity>
            <entity name="SmartFolder" parentEntity="Container"><attribute name="query" optional="YES" attributeType="String"/></entity>
            <entity name="Bookmark">
                <attribute name="url" attributeType="String"/>
                <relationship name="folder" optional="YES" maxCount="1" destinationEntity="Container" inverseName="bookmarks" inverseEntity="Container"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="url"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
        </model>
        """

    static func write(_ text: String) -> String { ModelRunTests.write(text) }

    func configuration(_ strategy: any WriteStrategy, path: String, relationship: String? = nil) -> RunConfiguration {
        var c = ModelRunTests().configuration(strategy, rows: 300, path: path)
        c.model.entity = "Bookmark"
        c.model.relationship = relationship
        return c
    }

    func run(_ strategy: any WriteStrategy, _ c: RunConfiguration) throws -> (Verification, String) {
        let path = NSTemporaryDirectory() + "shipped-\(UUID().uuidString).sqlite"
        var options = StoreOptions(path: path)
        options.persistentHistoryTracking = strategy.requiresHistory
        var job = StrategyJob(configuration: c, store: options)
        if strategy.operation.needsFilledStore {
            job.operationTarget = try OperationSetup.prepare(job)
            job.prepared = try strategy.setUp(job)
        }
        _ = try strategy.run(job)
        job.prepared = nil
        return (try job.verifyStore(repeated: strategy.repeatedKey), path)
    }

    // MARK: Item 4: an abstract entity is never instantiated

    @Test func anAbstractDestinationNeedsAConcreteEntityNamed() throws {
        let path = Self.write(Self.containers)
        do {
            _ = try ImportSource.resolve(configuration(ContextResetStrategy(), path: path))
            Issue.record("an abstract destination was accepted")
        } catch let error as ImportModelError {
            #expect(
                error.message.contains(
                    "Bookmark.folder points at the abstract Container, which an app never instantiates: "
                        + "give --relationship folder:ENTITY to say which entity related objects are created as "
                        + "(one of: Folder, SmartFolder)"), "\(error)")
        }
        do {
            _ = try ImportSource.resolve(
                configuration(ContextResetStrategy(), path: path, relationship: "folder:Container"))
            Issue.record("the abstract entity itself was accepted")
        } catch let error as ImportModelError {
            #expect(
                error.message.contains("--relationship folder:Container: Container is not a concrete entity"),
                "\(error)")
        }
        let roles = try ImportSource.resolve(
            configuration(ContextResetStrategy(), path: path, relationship: "folder:SmartFolder.title")
        ).roles
        #expect(roles.parentEntity == "SmartFolder" && roles.parentKeys == ["title"], "\(roles)")
        // The only concrete sub-entity needs no naming.
        let one = Self.write(
            Self.containers.replacingOccurrences(
                of: #"<entity name="SmartFolder" parentEntity="Container">"#,
                with: #"<entity name="SmartFolder" parentEntity="Container" isAbstract="YES">"#))
        #expect(
            try ImportSource.resolve(configuration(ContextResetStrategy(), path: one)).roles.parentEntity == "Folder")
    }

    /// Every import strategy that relates records creates the related objects as the concrete
    /// entity named, and the verifier finds no row of the abstract one.
    @Test(arguments: StrategyRegistry.names.filter { StrategyRegistry.strategy(named: $0)!.operation == .import })
    func relatedObjectsAreTheConcreteEntity(name: String) throws {
        ConcurrencyDebug.isEnabled = true
        let strategy = StrategyRegistry.strategy(named: name)!
        let c = configuration(strategy, path: Self.write(Self.containers), relationship: "folder:Folder")
        let (v, store) = try run(strategy, c)
        #expect(v.abstractRows == 0 && v.integrity == "ok", "\(name): \(v)")
        let db = try Database(path: store)
        // Bookmark 1, Container 2, Folder 3, SmartFolder 4: every related row is a Folder.
        let parents = try db.scalarInt("SELECT count(*) FROM ZCONTAINER")
        #expect(try db.scalarInt("SELECT count(*) FROM ZCONTAINER WHERE Z_ENT = 3") == parents, "\(name)")
        if strategy.resolvesRelatedObjects {
            #expect(
                try parents > 0
                    && (db.scalarInt("SELECT count(*) FROM ZBOOKMARK WHERE Z2_FOLDER IS NOT 3 AND ZFOLDER IS NOT NULL"))
                        == 0,
                "\(name)")
        }
    }

    /// A row of an abstract entity fails the store whatever the strategy promises.
    @Test func theVerifierFailsARowOfAnAbstractEntity() throws {
        let c = configuration(ContextResetStrategy(), path: Self.write(Self.containers), relationship: "folder:Folder")
        let (_, store) = try run(ContextResetStrategy(), c)
        let db = try Database(path: store)
        let job = StrategyJob(configuration: c, store: StoreOptions(path: store))
        try db.execute("UPDATE ZCONTAINER SET Z_ENT = 2 WHERE Z_PK = (SELECT min(Z_PK) FROM ZCONTAINER)")
        let v = try job.verifyStore(repeated: ContextResetStrategy().repeatedKey)
        #expect(v.abstractRows == 1, "\(v)")
        #expect(
            v.problems(StoreExpectations(uniqueKeys: false, linked: false)).contains {
                $0.contains("1 row of an abstract entity")
            })
    }
}

// MARK: Items 6 and 7: every uniqueness constraint holds; binary keys

extension ShippedModelTests {
    /// A glucose sample kept unique by `[uuid]` and by `[syncIdentifier]`, as a diabetes app's
    /// model has it; and a log line kept unique by `[uuid]` and by `[timestamp, host]`.
    static let samples = """
        <model>
            <entity name="Sample">
                <attribute name="uuid" optional="YES" attributeType="UUID"/>
                <attribute name="syncIdentifier" optional="YES" attributeType="String"/>
                <attribute name="value" optional="YES" attributeType="Double" defaultValueString="0.0"/>
                <attribute name="mode" optional="YES" attributeType="Integer 16" defaultValueString="0.0"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="uuid"/></uniquenessConstraint>
                    <uniquenessConstraint><constraint value="syncIdentifier"/></uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="LogLine">
                <attribute name="uuid" optional="YES" attributeType="UUID"/>
                <attribute name="timestamp" optional="YES" attributeType="Date"/>
                <attribute name="host" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="3"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="uuid"/></uniquenessConstraint>
                    <uniquenessConstraint><constraint value="timestamp"/><constraint value="host"/></uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
        </model>
        """

    func importStrategies() -> [any WriteStrategy] {
        StrategyRegistry.names.map { StrategyRegistry.strategy(named: $0)! }.filter {
            $0.operation == .import && !$0.resolvesRelatedObjects
        }
    }

    /// Generated values are distinct under every constraint, a repeated record repeats all of
    /// them, and every strategy leaves a store the verifier passes, each constraint counted for
    /// duplicates. Every store keeps both constraints (decision 0039), so even the limit and the
    /// bare batch insert keep one row per key: their statements ignore the repeat.
    @Test(arguments: ["Sample", "LogLine"])
    func everyConstraintHolds(entity: String) throws {
        ConcurrencyDebug.isEnabled = true
        let path = Self.write(Self.samples)
        for strategy in importStrategies() {
            var c = configuration(strategy, path: path)
            c.model.entity = entity
            c.model.key = ["uuid"]
            c.workload.rows = 2_000
            c.workload.dupRate = 0.2
            let (v, _) = try run(strategy, c)
            #expect(v.lost == 0 && v.unexpectedRows == 0 && v.integrity == "ok", "\(entity) \(strategy.name): \(v)")
            #expect(
                v.duplicates == 0 && v.constraintDuplicates == 0 && v.storeRows == c.workload.uniqueKeys,
                "\(entity) \(strategy.name): \(v)")
        }
    }

    /// A 16-byte UUID kept in a Binary attribute keys the records (a messenger keys every entity
    /// so): generated distinct, read from a feed as UUID text or base64, deduplicated, verified.
    @Test func aBinaryKeyIsGeneratedReadAndVerified() throws {
        ConcurrencyDebug.isEnabled = true
        let path = Self.write(
            """
            <model><entity name="Team">
            <attribute name="name" optional="YES" attributeType="String"/>
            <attribute name="remoteIdentifier_data" optional="YES" attributeType="Binary" indexed="YES"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="remoteIdentifier_data"/></uniquenessConstraint></uniquenessConstraints>
            </entity></model>
            """)
        for strategy in importStrategies() {
            var c = configuration(strategy, path: path)
            c.model.entity = "Team"
            c.workload.dupRate = 0.2
            let (v, store) = try run(strategy, c)
            #expect(v.lost == 0 && v.problems(strategy.expectations).isEmpty, "\(strategy.name): \(v)")
            if strategy.expectations.uniqueKeys {
                let db = try Database(path: store)
                #expect(
                    try db.scalarInt(
                        "SELECT count(DISTINCT ZREMOTEIDENTIFIER_DATA) FROM ZTEAM WHERE length(ZREMOTEIDENTIFIER_DATA) = 16"
                    )
                        == c.workload.uniqueKeys, "\(strategy.name)")
            }
        }
        let feed = NSTemporaryDirectory() + "teams-\(UUID().uuidString).ndjson"
        try """
        {"name": "a", "remoteIdentifier_data": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}
        {"name": "b", "remoteIdentifier_data": "5iHh+MNsSVqT/Awkej5uXw=="}
        {"name": "c", "remoteIdentifier_data": "00000000-0000-4000-8000-000000000001"}

        """.write(toFile: feed, atomically: true, encoding: .utf8)
        var c = configuration(ContextResetStrategy(), path: path)
        c.model.entity = "Team"
        c.input = feed
        let store = NSTemporaryDirectory() + "teams-\(UUID().uuidString).sqlite"
        var job = StrategyJob(configuration: c, store: StoreOptions(path: store))
        job.input = feed
        _ = try ContextResetStrategy().run(job)
        let v = try job.verifyStore(repeated: ContextResetStrategy().repeatedKey)
        // The first two are one UUID (as text, and its bytes in base64): one row.
        #expect(v.storeRows == 2 && v.lost == 0 && v.duplicates == 0 && v.unexpectedRows == 0, "\(v)")
    }
}

// MARK: Item 8: sizes per attribute

extension ShippedModelTests {
    /// The size of each generated Binary or Transformable value of `c`'s records, by attribute.
    static func payloadSizes(_ c: RunConfiguration) throws -> [String: Int] {
        let shape = try ImportSource.resolve(c).shape(c.shapeOptions)
        return Dictionary(
            uniqueKeysWithValues: shape.fields.compactMap { f in
                if case .payload(let n) = f.generation { (f.name, n) } else { nil }
            })
    }

    /// Each Binary or Transformable attribute has a size of its own: an indexed Binary (an
    /// identifier) 16 bytes, the model's user info, `--attribute-bytes` over both; the store
    /// holds values of those sizes.
    @Test func eachBinaryAttributeHasItsOwnSize() throws {
        let path = Self.write(
            """
            <model><entity name="Contact">
            <attribute name="email" attributeType="String"/>
            <attribute name="photo" optional="YES" attributeType="Binary"/>
            <attribute name="thumbnail" optional="YES" attributeType="Binary"><userInfo><entry key="loadgen.generate" value="payload:300"/></userInfo></attribute>
            <attribute name="token_data" optional="YES" attributeType="Binary" indexed="YES"/>
            <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="email"/></uniquenessConstraint></uniquenessConstraints>
            </entity></model>
            """)
        var c = configuration(ContextResetStrategy(), path: path)
        c.model.entity = "Contact"
        #expect(
            try Self.payloadSizes(c) == ["photo": 48, "thumbnail": 300, "token_data": 16, "tags": 48],
            "--payload-bytes is 48 here")
        c.workload.attributeBytes = ["Contact.thumbnail": 7, "Contact.tags": 64]
        #expect(try Self.payloadSizes(c) == ["photo": 48, "thumbnail": 7, "token_data": 16, "tags": 64])
        let (_, store) = try run(ContextResetStrategy(), c)
        let db = try Database(path: store)
        #expect(
            try db.scalarInt(
                "SELECT count(*) FROM ZCONTACT WHERE length(ZTHUMBNAIL) = 7 AND length(ZTOKEN_DATA) = 16 "
                    + "AND length(ZPHOTO) = 48 AND length(ZTAGS) = 64") == c.workload.uniqueKeys)
    }
}

extension ShippedModelTests {
    /// A Transformable whose model names a Foundation class and an archiving transformer stores
    /// the keyed archive of a value, a few hundred bytes for a list of IDs, not `--payload-bytes`
    /// of anything: its generated values take the size of such an archive (three elements). An
    /// app's own class or another transformer keeps `--payload-bytes`; `--attribute-bytes` is
    /// over all of them; the store holds values of those sizes.
    @Test func aTransformableOfAFoundationClassIsTheSizeOfItsArchive() throws {
        let path = Self.write(
            """
            <model><entity name="Product">
            <attribute name="sku" attributeType="String"/>
            <attribute name="relatedIDs" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[Int64]"/>
            <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/>
            <attribute name="settings" optional="YES" attributeType="Transformable" customClassName="NSDictionary"/>
            <attribute name="images" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[ProductImage]"/>
            <attribute name="mapping" optional="YES" attributeType="Transformable" valueTransformerName="MappingTransformer" customClassName="[String]"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="sku"/></uniquenessConstraint></uniquenessConstraints>
            </entity></model>
            """)
        var c = configuration(ContextResetStrategy(), path: path)
        c.model.entity = "Product"
        let sized = try Self.payloadSizes(c)
        // An empty NSArray's archive is 228 bytes; three numbers, three strings or three pairs add tens.
        for name in ["relatedIDs", "tags", "settings"] {
            #expect((229...600).contains(sized[name] ?? 0), "\(name): \(sized)")
        }
        #expect(sized["tags"]! > sized["relatedIDs"]!, "three strings of 20 characters outweigh three numbers")
        #expect(sized["images"] == 48 && sized["mapping"] == 48, "an app's class or transformer: --payload-bytes 48")
        c.workload.attributeBytes = ["Product.relatedIDs": 9]
        #expect(try Self.payloadSizes(c)["relatedIDs"] == 9)
        let (_, store) = try run(ContextResetStrategy(), c)
        let db = try Database(path: store)
        #expect(
            try db.scalarInt(
                "SELECT count(*) FROM ZPRODUCT WHERE length(ZRELATEDIDS) = 9 AND length(ZTAGS) = \(sized["tags"]!) "
                    + "AND length(ZIMAGES) = 48") == c.workload.uniqueKeys)
    }
}

// MARK: Item 12: feeds as apps send them

extension ShippedModelTests {
    static let shop = CorpusTests.folder + "/woocommerce-ios/Model 117.xcdatamodel"
    static let orders = CorpusTests.folder + "/woocommerce-ios/fixtures/orders-load-all.json#/data/*/line_items"

    /// The shop manager's own API fixture, as its tests hold it, imported with no edit: each
    /// order's line items nested in it (`--map Order.items=line_items`), the item's and the
    /// order's keys under the API's `id`, `product_id` read for `productID` (case and `_`
    /// ignored), and each order created from the feed keeping the feed's own members.
    @Test(arguments: ["one-writer", "raw-sqlite", "batch-insert-only", "many-writers"])
    func theShopsOwnFixtureImportsAsShipped(name: String) throws {
        ConcurrencyDebug.isEnabled = true
        let strategy = StrategyRegistry.strategy(named: name)!
        var c = ModelRunTests().configuration(strategy, path: Self.shop)
        c.model.entity = "OrderItem"
        c.model.key = ["itemID"]
        c.model.relationship = "order.orderID"
        c.model.members = [
            "itemID": "id", "Order.orderID": "id", "Order.items": "line_items", "Order.statusKey": "status",
        ]
        c.input = Self.orders
        c.workload.dupRate = 0
        let path = NSTemporaryDirectory() + "shop-\(UUID().uuidString).sqlite"
        var job = StrategyJob(configuration: c, store: StoreOptions(path: path))
        job.input = Self.orders
        _ = try strategy.run(job)
        let v = try job.verifyStore(repeated: strategy.repeatedKey)
        #expect(v.storeRows == 12 && v.lost == 0 && v.unexpectedRows == 0 && v.integrity == "ok", "\(name): \(v)")
        let db = try Database(path: path)
        #expect(
            try db.scalarInt(
                "SELECT count(*) FROM ZORDERITEM WHERE ZITEMID = 890 AND ZPRODUCTID = 52 AND ZQUANTITY = 2 "
                    + "AND ZNAME = 'Fruits Basket (Mix & Match Product)'") == 1, "\(name)")
        if strategy.resolvesRelatedObjects || strategy.isLimit {
            #expect(try db.scalarInt("SELECT count(*) FROM ZORDER") == 4, "\(name)")
            #expect(
                try db.scalarInt(
                    "SELECT count(*) FROM ZORDER WHERE ZORDERID = 560 AND ZSTATUSKEY = 'processing' "
                        + "AND ZTOTAL = '1198.50' AND ZCURRENCY = 'USD' AND ZPAYMENTURL = 'http://www.automattic.com'")
                    == 1,
                "\(name): the order keeps the feed's status, total, currency and payment URL")
            #expect(
                try db.scalarInt(
                    "SELECT count(*) FROM ZORDERITEM i JOIN ZORDER o ON o.Z_PK = i.ZORDER WHERE o.ZORDERID = 560") == 8)
        }
    }

    /// The array member after `*` and the holder's key honour the model's `mappedKeyName` too.
    @Test func mappedKeyNamesNameTheNestedArrayAndTheHoldersKey() throws {
        let path = Self.write(
            """
            <model>
            <entity name="Order"><attribute name="orderID" attributeType="Integer 64">
                <userInfo><entry key="mappedKeyName" value="id"/></userInfo></attribute>
            <attribute name="statusKey" optional="YES" attributeType="String"><userInfo><entry key="mappedKeyName" value="status"/></userInfo></attribute>
            <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="order" inverseEntity="Item">
                <userInfo><entry key="mappedKeyName" value="line_items"/></userInfo></relationship></entity>
            <entity name="Item"><attribute name="itemID" attributeType="Integer 64"><userInfo><entry key="mappedKeyName" value="id"/></userInfo></attribute>
            <attribute name="productID" optional="YES" attributeType="Integer 64"/>
            <relationship name="order" maxCount="1" destinationEntity="Order" inverseName="items" inverseEntity="Order"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="itemID"/></uniquenessConstraint></uniquenessConstraints></entity>
            </model>
            """)
        let feed = NSTemporaryDirectory() + "orders-\(UUID().uuidString).json"
        try
            #"{"data": [{"id": 7, "status": "paid", "line_items": [{"id": 1, "product_id": 9}, {"id": 2, "product_id": 9}]}]}"#
            .write(toFile: feed, atomically: true, encoding: .utf8)
        var c = ModelRunTests().configuration(ContextResetStrategy(), path: path)
        c.model.entity = "Item"
        c.model.relationship = "order.orderID"
        c.input = feed + "#/data/*/line_items"
        let store = NSTemporaryDirectory() + "orders-\(UUID().uuidString).sqlite"
        var job = StrategyJob(configuration: c, store: StoreOptions(path: store))
        job.input = c.input
        _ = try ContextResetStrategy().run(job)
        let db = try Database(path: store)
        #expect(
            try db.scalarInt(
                "SELECT count(*) FROM ZITEM i JOIN ZORDER o ON o.Z_PK = i.ZORDER WHERE o.ZORDERID = 7 "
                    + "AND o.ZSTATUSKEY = 'paid' AND i.ZPRODUCTID = 9") == 2)
    }
}

// MARK: Item 9: external binary storage

extension ShippedModelTests {
    static let artwork = """
        <model><entity name="Artwork">
        <attribute name="id" attributeType="String"/>
        <attribute name="full" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
        <attribute name="thumb" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
        <uniquenessConstraints><uniquenessConstraint><constraint value="id"/></uniquenessConstraint></uniquenessConstraints>
        </entity></model>
        """

    /// A value past 128 KiB goes to a file in `.<store>_SUPPORT/_EXTERNAL_DATA`, its column byte 2,
    /// the file's UUID and a NUL; a smaller one stays in its row behind byte 1. Every strategy
    /// writes them so, a fetch reads the bytes back, and the verifier counts the files in the
    /// store's size and fails a value whose file is gone.
    @Test(arguments: ["context-reset", "batch", "raw-sqlite-unique"])
    func largeValuesLiveInFilesBesideTheStore(name: String) throws {
        ConcurrencyDebug.isEnabled = true
        let strategy = StrategyRegistry.strategy(named: name)!
        var c = configuration(strategy, path: Self.write(Self.artwork))
        c.model.entity = "Artwork"
        c.workload.rows = 40
        c.workload.dupRate = 0
        c.workload.attributeBytes = ["Artwork.full": 200_000, "Artwork.thumb": 1_000]
        let folder = NSTemporaryDirectory() + "artwork-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/Art.sqlite"
        let job = StrategyJob(configuration: c, store: StoreOptions(path: store))
        _ = try strategy.run(job)
        var v = try job.verifyStore(repeated: strategy.repeatedKey)
        let files = folder + "/.Art_SUPPORT/_EXTERNAL_DATA"
        let names = try FileManager.default.contentsOfDirectory(atPath: files)
        #expect(names.count == 40 && !names.contains { $0.hasSuffix(".interim") }, "\(name): \(names.count)")
        #expect(v.externalFiles == 40 && v.missingExternalFiles == 0 && v.storeBytes > 40 * 200_000, "\(name): \(v)")
        let db = try Database(path: store)
        #expect(
            try db.scalarInt(
                "SELECT count(*) FROM ZARTWORK WHERE substr(ZFULL, 1, 1) = x'02' AND length(ZFULL) = 38 "
                    + "AND substr(ZTHUMB, 1, 1) = x'01' AND length(ZTHUMB) = 1001") == 40, "\(name)")
        // Read back through the engine: the bytes, not the frame.
        let container = try PersistentContainer(model: try job.importModel().model, options: StoreOptions(path: store))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let art = try context.fetch(FetchRequest(entityName: "Artwork"))
            #expect(
                art.count == 40
                    && art.allSatisfy {
                        if case .data(let full) = $0["full"], case .data(let thumb) = $0["thumb"] {
                            full.count == 200_000 && thumb.count == 1_000
                        } else {
                            false
                        }
                    }, "\(name)")
        }
        try FileManager.default.removeItem(atPath: files + "/" + names[0])
        v = try job.verifyStore(repeated: strategy.repeatedKey)
        #expect(
            v.missingExternalFiles == 1
                && v.problems(strategy.expectations).contains { $0.contains("whose file is missing") }, "\(name)")
    }
}

// MARK: Item 11: delete rules acted on

extension ShippedModelTests {
    /// Folders (the records, dated) whose bookmarks cascade with them.
    static let folders = """
        <model>
        <entity name="Folder"><attribute name="name" attributeType="String"/><attribute name="created" attributeType="Date"/>
        <attribute name="label" optional="YES" attributeType="String"/>
        <relationship name="bookmarks" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Bookmark" inverseName="folder" inverseEntity="Bookmark"/>
        <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints></entity>
        <entity name="Bookmark"><attribute name="url" optional="YES" attributeType="String"/>
        <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="bookmarks" inverseEntity="Folder"/></entity>
        </model>
        """

    /// `fetch-delete` deletes what cascades (each folder's bookmarks, loaded and deleted at save),
    /// `batch-delete` through its trigger; both leave no bookmark pointing at a deleted folder,
    /// and a delete that left them would be caught.
    @Test(arguments: ["fetch-delete", "batch-delete"])
    func deletesCascadeAndLeaveNoOrphans(name: String) throws {
        ConcurrencyDebug.isEnabled = true
        let strategy = StrategyRegistry.strategy(named: name)!
        var c = configuration(strategy, path: Self.write(Self.folders))
        c.model.entity = "Folder"
        c.model.relationship = "none"
        c.workload.rows = 200
        let store = NSTemporaryDirectory() + "folders-\(UUID().uuidString).sqlite"
        var job = StrategyJob(configuration: c, store: StoreOptions(path: store))
        job.operationTarget = try OperationSetup.prepare(job)
        // Two bookmarks in every folder, added as an app's other screen would.
        let db = try Database(path: store)
        try db.execute(
            "INSERT INTO ZBOOKMARK (Z_PK, Z_ENT, Z_OPT, ZURL, ZFOLDER) SELECT Z_PK, 2, 1, 'a', Z_PK FROM ZFOLDER")
        try db.execute(
            "INSERT INTO ZBOOKMARK (Z_PK, Z_ENT, Z_OPT, ZURL, ZFOLDER) SELECT Z_PK + 1000, 2, 1, 'b', Z_PK FROM ZFOLDER"
        )
        job.prepared = try strategy.setUp(job)
        let counters = try strategy.run(job)
        job.prepared = nil
        let target = job.operationTarget!
        let problems = try OperationSetup.problems(job, target, counters: counters)
        #expect(problems.isEmpty, "\(name): \(problems)")
        #expect(try db.scalarInt("SELECT count(*) FROM ZBOOKMARK") == 2 * (200 - target.expected), "\(name)")
        #expect(
            try db.scalarInt("SELECT count(*) FROM ZBOOKMARK WHERE ZFOLDER NOT IN (SELECT Z_PK FROM ZFOLDER)") == 0,
            "\(name)")
        // A bookmark left behind by a delete that ignored the rule is an orphan the check names.
        try db.execute("INSERT INTO ZBOOKMARK (Z_PK, Z_ENT, Z_OPT, ZURL, ZFOLDER) VALUES (5000, 2, 1, 'x', 999999)")
        #expect(
            try OperationSetup.problems(job, target, counters: counters)
                .contains("1 Bookmark rows point at a deleted Folder (Bookmark.folder)"), "\(name)")
    }
}

// MARK: Item 10: many-to-manys filled

extension ShippedModelTests {
    /// Products each with their tags through a many-to-many (ordered neither way), tags found by
    /// their name.
    static let tagged = """
        <model>
        <entity name="Product"><attribute name="sku" attributeType="String"/><attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="products" inverseEntity="Tag"/>
        <uniquenessConstraints><uniquenessConstraint><constraint value="sku"/></uniquenessConstraint></uniquenessConstraints></entity>
        <entity name="Tag"><attribute name="name" attributeType="String"/><attribute name="color" optional="YES" attributeType="String"/>
        <relationship name="products" optional="YES" toMany="YES" destinationEntity="Product" inverseName="tags" inverseEntity="Product"/>
        <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints></entity>
        </model>
        """

    /// Every import idiom relates each product to its 3 tags (out of 12): a context's save
    /// writes the pairs with Core Data's `INSERT OR REPLACE`, a batch insert in its fix-up,
    /// raw-sqlite directly; the verifier finds every pair, none extra, each tag stored once.
    @Test(arguments: StrategyRegistry.names.filter { StrategyRegistry.strategy(named: $0)!.operation == .import })
    func eachRecordsMembersArePairedInTheJoinTable(name: String) throws {
        ConcurrencyDebug.isEnabled = true
        let strategy = StrategyRegistry.strategy(named: name)!
        var c = configuration(strategy, path: Self.write(Self.tagged))
        c.model.entity = "Product"
        c.model.relationship = "none"
        c.model.manyToMany = "tags"
        c.workload.members = 3
        c.workload.modelParents = 12
        let path = NSTemporaryDirectory() + "tags-\(UUID().uuidString).sqlite"
        var options = StoreOptions(path: path)
        options.persistentHistoryTracking = strategy.requiresHistory
        let job = StrategyJob(configuration: c, store: options)
        job.counters.startRecording()
        _ = try strategy.run(job)
        let sql = job.counters.stopRecording()
        let v = try job.verifyStore(repeated: strategy.repeatedKey)
        if strategy.expectations.linked {
            #expect(v.badPairs == 0 && v.memberDuplicates == 0, "\(name): \(v)")
            #expect(v.pairs == 3 * v.storeRows, "\(name): \(v)")
            #expect(v.problems(strategy.expectations).isEmpty, "\(name): \(v.problems(strategy.expectations))")
        } else {
            #expect(
                v.badPairs > 0 && v.problems(strategy.expectations).isEmpty,
                "\(name): what it leaves out is by design: \(v)")
        }
        let db = try Database(path: path)
        #expect(try db.scalarInt("SELECT count(*) FROM ZTAG") <= 12, "\(name)")
        if !strategy.isLimit && strategy.expectations.linked {
            #expect(
                sql.contains("INSERT OR REPLACE INTO Z_1TAGS(Z_1PRODUCTS, Z_2TAGS) VALUES (?, ?)"),
                "\(name): \(sql.filter { $0.contains("Z_1TAGS") }.prefix(3))")
        }
    }
}
