import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// Model files as Xcode writes them: read field by field, and every malformed case refused with
/// its location.
@Suite struct ModelFileTests {
    /// A model with several entities, every attribute type, relationships of each kind, a
    /// constraint of two attributes, a fetch index and user info.
    static let every = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift">
            <entity name="Item" representedClassName="Item" syncable="YES">
                <attribute name="i16" attributeType="Integer 16" minValueString="-5" maxValueString="500" defaultValueString="7" usesScalarValueType="YES"/>
                <attribute name="i32" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                <attribute name="i64" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                <attribute name="dec" optional="YES" attributeType="Decimal" defaultValueString="1.25"/>
                <attribute name="dbl" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                <attribute name="flt" optional="YES" attributeType="Float" usesScalarValueType="YES"/>
                <attribute name="str" attributeType="String" minValueString="1" maxValueString="40" defaultValueString="a &amp; b"/>
                <attribute name="flag" optional="YES" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>
                <attribute name="when" optional="YES" attributeType="Date" defaultDateTimeInterval="631123200" minDateTimeInterval="0" usesScalarValueType="NO"/>
                <attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <attribute name="uuid" optional="YES" attributeType="UUID" defaultValueString="E621E1F8-C36C-495A-93FC-0C247A3E6E5F" usesScalarValueType="NO"/>
                <attribute name="link" optional="YES" attributeType="URI"/>
                <attribute name="thing" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
                <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
                <attribute name="source" attributeType="String">
                    <userInfo>
                        <entry key="mappedKeyName" value="src"/>
                    </userInfo>
                </attribute>
                <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="items" inverseEntity="Folder"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
                <fetchIndex name="byWhen">
                    <fetchIndexElement property="when" type="Binary" order="descending"/>
                </fetchIndex>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="str"/>
                        <constraint value="source"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
                <userInfo>
                    <entry key="loadgen.records" value="YES"/>
                </userInfo>
            </entity>
            <entity name="Folder" representedClassName="Folder" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" maxCount="100" deletionRule="Cascade" destinationEntity="Item" inverseName="folder" inverseEntity="Item"/>
            </entity>
            <entity name="Tag" representedClassName="Tag" syncable="YES">
                <attribute name="label" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
            </entity>
            <elements>
                <element name="Item" positionX="0" positionY="0" width="128" height="300"/>
            </elements>
        </model>
        """

    func parse(_ text: String) throws(ModelFileError) -> ModelFile {
        try ModelFile.parse(text, path: "m/contents", name: "M")
    }

    @Test func everyAttributeTypeIsReadFieldByField() throws {
        let file = try parse(Self.every)
        #expect(file.entities.map(\.name) == ["Folder", "Item", "Tag"], "in Z_ENT order")
        let item = try #require(file.entity(named: "Item"))
        let a = { (name: String) in item.attribute(name)! }
        #expect(item.attributes.count == 14, "the transient attribute is not stored")
        #expect(item.attribute("scratch") == nil)
        #expect(a("i16").type == .integer16 && a("i16").defaultValue == .integer(7) && !a("i16").isOptional)
        #expect(a("i16").minimum == -5 && a("i16").maximum == 500)
        #expect(a("i32").type == .integer32 && a("i32").isOptional && a("i32").defaultValue == .null)
        #expect(a("i64").type == .integer64)
        #expect(a("dec").type == .decimal && a("dec").defaultValue == .double(1.25))
        #expect(a("dbl").type == .double && a("flt").type == .float)
        #expect(a("str").type == .string && a("str").defaultValue == .string("a & b") && a("str").maximum == 40)
        #expect(a("flag").type == .boolean && a("flag").defaultValue == .bool(true))
        #expect(a("when").type == .date && a("when").defaultValue == .date(631_123_200) && a("when").minimum == 0)
        #expect(a("blob").type == .binary && a("link").type == .uri && a("thing").type == .transformable)
        #expect(a("uuid").type == .uuid && a("uuid").defaultValue.dataValue?.count == 16)
        #expect(a("source").userInfo == ["mappedKeyName": "src"])
        #expect(item.uniquenessConstraints == [["str", "source"]])
        #expect(item.fetchIndexes == [FetchIndexDescription("byWhen", elements: [("when", false)])])
        #expect(item.userInfo["loadgen.records"] == "YES")
        let folder = try #require(item.relationship("folder"))
        #expect(!folder.isToMany && folder.destination == "Folder" && folder.inverse == "items" && folder.isOptional)
        let items = try #require(file.entity(named: "Folder")?.relationship("items"))
        #expect(items.isToMany && items.deleteRule == .cascade && items.maxCount == 100)
        // A many-to-many is kept (the store has its join table) and noted once for its two sides;
        // what is read and not acted on is said, with its line.
        #expect(
            item.relationship("tags")?.isToMany == true
                && file.entity(named: "Tag")?.relationship("items")?.isToMany == true)
        #expect(
            file.notes.contains {
                $0.contains("1 many-to-many relationship kept in a join table") && $0.contains("Item.tags (line 24)")
            })
        #expect(file.notes.contains { $0.hasPrefix("m/contents:13:") && $0.contains("external storage") })
        #expect(
            !file.notes.contains { $0.contains("delete rule") },
            "delete rules are acted on (issue 41, item 11): no note")
        #expect(file.notes.contains { $0.contains("Item.thing is transformable") })
        #expect(file.notes.contains { $0.contains("maxCount 100") })
    }

    /// The engine builds its store from what was read, as for a model written in code: Core
    /// Data's column types, the fetch index, the constraint's unique index.
    @Test func theStoreIsLaidOutFromTheFile() throws {
        let model = try parse(Self.every).model()
        let sql = StoreSchema.createStatements(for: model).joined(separator: "\n")
        #expect(
            sql.contains("ZI16 INTEGER") && sql.contains("ZDEC DECIMAL") && sql.contains("ZFLT FLOAT")
                && sql.contains("ZSTR VARCHAR"))
        #expect(
            sql.contains("ZWHEN TIMESTAMP") && sql.contains("ZUUID BLOB") && sql.contains("ZLINK VARCHAR")
                && sql.contains("ZTHING BLOB"))
        #expect(sql.contains("CREATE INDEX Z_Item_byWhen ON ZITEM (ZWHEN COLLATE BINARY DESC)"))
        #expect(
            sql.contains(
                "CREATE UNIQUE INDEX Z_Item_UNIQUE_str_source ON ZITEM (ZSTR COLLATE BINARY ASC, ZSOURCE COLLATE BINARY ASC)"
            ))
        #expect(sql.contains("ZITEM_ZFOLDER_INDEX"))
        // Item (2).tags ↔ Tag (3).items: a join table named by the lower-numbered side, a column
        // per side named by its entity and the other side's relationship, the reverse index.
        #expect(
            sql.contains("CREATE TABLE Z_2TAGS ( Z_2ITEMS INTEGER, Z_3TAGS INTEGER, PRIMARY KEY (Z_2ITEMS, Z_3TAGS) )"))
        #expect(sql.contains("CREATE INDEX Z_2TAGS_Z_3TAGS_INDEX ON Z_2TAGS (Z_3TAGS, Z_2ITEMS)"))
    }

    /// The bundled models are model files too, and give the layouts the strategies always wrote.
    @Test func theBundledModelsAreModelFiles() throws {
        let expenses = BundledModels.file(named: "Expenses")
        #expect(expenses.notes.isEmpty)
        #expect(expenses.entity(named: "Expense")?.uniquenessConstraints == [["externalID"]])
        let layout = StoreSchema.createStatements(for: BundledModels.expenses(key: .unique))
        #expect(
            layout.contains(
                "CREATE TABLE ZEXPENSE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCATEGORY INTEGER, ZAMOUNT FLOAT, ZDATE TIMESTAMP, ZEXTERNALID VARCHAR, ZNOTE VARCHAR )"
            ))
        let indexed = StoreSchema.createStatements(for: BundledModels.expenses(key: .indexed))
        #expect(indexed.contains("CREATE INDEX ZEXPENSE_ZEXTERNALID_INDEX ON ZEXPENSE (ZEXTERNALID)"))
        #expect(!indexed.contains { $0.contains("UNIQUE") })
        #expect(
            BundledModels.file(named: "Photos").entity(named: "Photo")?.attribute("isSeen")?.defaultValue
                == .bool(false))
    }

    /// Issue 28, item 1: what Xcode writes and Core Data loads is read. A Boolean default is read
    /// as Foundation reads a string's truth ("0.0" and "1.0" too); a fetch index element naming a
    /// to-many (no column to index) is left out with a note, and an index left empty is dropped.
    @Test func booleanDefaultsAndToManyIndexElementsAreReadNotRefused() throws {
        let booleans = [
            "0.0": false, "1.0": true, "YES": true, "NO": false, "true": true, "0": false, " 2": true, "": false,
        ]
        for (text, expected) in booleans {
            #expect(ModelReader.boolValue(text) == expected, "\(text)")
        }
        let file = try parse(
            """
            <model><entity name="Bookmark">
            <attribute name="pinned" attributeType="Boolean" defaultValueString="1.0" usesScalarValueType="YES"/>
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="bookmark"/>
            <fetchIndex name="byTitleAndTags">
            <fetchIndexElement property="title" type="Binary" order="ascending"/>
            <fetchIndexElement property="tags" type="Binary" order="ascending"/>
            </fetchIndex>
            <fetchIndex name="byTags"><fetchIndexElement property="tags" type="Binary" order="ascending"/></fetchIndex>
            </entity>
            <entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="bookmark" optional="YES" maxCount="1" destinationEntity="Bookmark" inverseName="tags"/></entity></model>
            """)
        let bookmark = try #require(file.entity(named: "Bookmark"))
        #expect(bookmark.attribute("pinned")?.defaultValue == .bool(true))
        #expect(bookmark.fetchIndexes.map(\.name) == ["byTitleAndTags"])
        #expect(bookmark.fetchIndexes.first?.elements.map(\.property) == ["title"])
        #expect(
            file.notes.contains { $0.hasPrefix("m/contents:7: ") && $0.contains("names the to-many tags") },
            "\(file.notes)")
        #expect(
            file.notes.contains {
                $0.hasPrefix("m/contents:9: ") && $0.contains("byTags of Bookmark has nothing left")
            }, "\(file.notes)")
    }

    /// Issue 55, item 16: an empty uniqueness constraint (a shipping app's model has one)
    /// constrains nothing: Core Data loads the model, so loadgen reads it with a note, and the
    /// entity's real constraint stays.
    @Test func anEmptyUniquenessConstraintIsIgnoredWithANote() throws {
        let file = try parse(
            """
            <model><entity name="Item"><attribute name="sku" optional="YES" attributeType="String"/>
            <uniquenessConstraints><uniquenessConstraint/><uniquenessConstraint><constraint value="sku"/></uniquenessConstraint>
            </uniquenessConstraints></entity></model>
            """)
        #expect(file.entity(named: "Item")?.uniquenessConstraints == [["sku"]])
        #expect(
            file.notes.contains { $0.contains("empty uniqueness constraint of Item constrains nothing") },
            "\(file.notes)")
    }

    /// Issue 28, item 7: a note is about an entity or the whole model, so that a run is told only
    /// about the entities it touches and the model as a whole.
    @Test func notesSayWhichEntityTheyAreAbout() throws {
        let file = try parse(
            """
            <model><entity name="Visit"><attribute name="url" optional="YES" attributeType="String"/></entity>
            <entity name="Page"><attribute name="title" optional="YES" attributeType="String"/>
            <fetchedProperty name="recent" optional="YES"/>
            <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="pages"/></entity>
            <entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="pages" optional="YES" toMany="YES" destinationEntity="Page" inverseName="tags"/></entity></model>
            """)
        #expect(file.entityNotes.contains { $0.entity == "Page" && $0.text.contains("fetched property Page.recent") })
        #expect(file.entityNotes.contains { $0.entity == nil && $0.text.contains("many-to-many") })
        let visit = file.notes(about: ["Visit"])
        #expect(
            !visit.contains { $0.contains("Page.recent") } && visit.contains { $0.contains("many-to-many") }, "\(visit)"
        )
        #expect(file.notes(about: ["Page"]).contains { $0.contains("Page.recent") })
        #expect(file.notes.count == file.entityNotes.count)
    }

    /// Each malformed case is refused with where it is.
    @Test(arguments: [
        (
            "<model><entity name=\"A\"><attribute name=\"x\" attributeType=\"Integer 128\"/></entity></model>",
            1, "attribute A.x has attributeType \"Integer 128\": unknown type"
        ),
        (
            "<model>\n<entity name=\"A\">\n<relationship name=\"b\" maxCount=\"1\" destinationEntity=\"B\" inverseName=\"a\"/>\n</entity>\n</model>",
            3, "relationship A.b has destination B, which is not an entity of the model"
        ),
        (
            "<model><entity name=\"A\"><relationship name=\"b\" maxCount=\"1\" destinationEntity=\"B\" inverseName=\"as\"/></entity>\n"
                + "<entity name=\"B\"><attribute name=\"n\" attributeType=\"String\"/></entity></model>",
            1, "relationship A.b names inverse as, which B does not have"
        ),
        (
            "<model><entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\"/>\n<uniquenessConstraints><uniquenessConstraint>"
                + "<constraint value=\"y\"/></uniquenessConstraint></uniquenessConstraints></entity></model>",
            3, "the uniqueness constraint of A names y, which is not an attribute of A"
        ),
        (
            "<model><entity name=\"A\"><attribute name=\"x\" attributeType=\"String\">\n</entity></model>",
            2, "</entity> closes <attribute> (opened on line 1)"
        ),
        (
            "<model><entity name=\"A\" parentEntity=\"B\"/></model>", 1,
            "entity A has parent entity B, which is not an entity of the model"
        ),
        (
            "<model><entity name=\"A\"><attribute name=\"n\" attributeType=\"Integer 16\" defaultValueString=\"70000\"/></entity></model>",
            1, "A.n: defaultValueString \"70000\" is outside what an Integer 16 holds"
        ),
        ("<plist/>", 1, "the root element is <plist>"),
        // Issue 45, item 24: the relationship whose destination is missing is named, on its own
        // line, even when its inverse comes first in the file.
        (
            "<model><entity name=\"A\"><relationship name=\"b\" maxCount=\"1\" destinationEntity=\"B\" inverseName=\"as\"/></entity>\n"
                + "<entity name=\"B\">\n<relationship name=\"as\" toMany=\"YES\" destinationEntity=\"Nowhere\" inverseName=\"b\"/></entity></model>",
            3, "relationship B.as has destination Nowhere, which is not an entity of the model"
        ),
        // Issue 45, item 23: a DOCTYPE declaring entities is refused by name.
        (
            "<?xml version=\"1.0\"?>\n<!DOCTYPE model [ <!ENTITY e \"A\"> ]>\n<model><entity name=\"&e;\"/></model>",
            2, "the DOCTYPE declares entities or elements ([ … ])"
        ),
    ])
    func malformedModelsAreRefusedWithTheirLocation(text: String, line: Int, message: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(message), "\(error)")
            #expect(error.description.hasPrefix("m/contents:\(line): "))
        }
    }

    /// Issue 45, item 22: a hierarchy whose one table needs more columns than SQLite allows is
    /// refused when the model is read, at its root's line (65 on the command line), not by each
    /// repetition's CREATE TABLE; a hierarchy just within the limit is read.
    @Test func aHierarchyWiderThanSQLiteAllowsIsRefusedAtItsRoot() throws {
        func model(subEntities n: Int) -> String {
            "<model>\n<entity name=\"Root\"><attribute name=\"id\" attributeType=\"String\"/></entity>\n"
                + (0..<n).map {
                    "<entity name=\"E\($0)\" parentEntity=\"Root\"><attribute name=\"a\($0)\" attributeType=\"String\"/></entity>"
                }
                .joined(separator: "\n") + "</model>"
        }
        let fits = SQLIdentifier.maximumColumns - 4   // Z_PK, Z_ENT, Z_OPT and ZID beside them
        #expect(throws: Never.self) { try ModelFile.parse(model(subEntities: fits), path: "m/contents", name: "m") }
        do {
            _ = try ModelFile.parse(model(subEntities: fits + 1), path: "m/contents", name: "m")
            Issue.record("a table of \(fits + 5) columns was accepted")
        } catch {
            #expect(error.line == 2, "\(error)")
            #expect(
                error.message.contains("the table of Root and its sub-entities")
                    && error.message.contains("needs \(fits + 5) columns"),
                "\(error)")
        }
    }

    /// A chain of inheritance loads in linear work: each entity's order of inherited properties
    /// is worked out once and reused by its sub-entities (400 levels took 27 s, 800 over 300 s,
    /// when every entity recomputed its ancestors' orders for every kind of property). The
    /// deepest entity still keeps its ancestors' order first.
    @Test func aDeepInheritanceChainLoadsInLinearWork() throws {
        let depth = 300
        let entities = (0..<depth).map { i in
            "<entity name=\"E\(i)\"\(i == 0 ? "" : " parentEntity=\"E\(i - 1)\"")>"
                + "<attribute name=\"z\(i)\" attributeType=\"Integer 64\"/></entity>"
        }
        let model = try ModelFile.parse(
            "<model>" + entities.joined(separator: "\n") + "</model>", path: "m/contents", name: "m"
        ).model()
        let kinds = 4   // attributes, to-ones, one-to-manys, many-to-manys
        #expect(
            model.inheritanceListsRead <= kinds * depth,
            "read \(model.inheritanceListsRead) lists for \(depth) entities")
        let deepest = try #require(model.runtime.first { $0.name == "E\(depth - 1)" })
        #expect(
            deepest.attributes.map(\.name) == (0..<depth).map { "z\($0)" },
            "the parent's order first, then the entity's own")
    }

    /// A .xcdatamodeld folder's current version is the one .xccurrentversion names; without one,
    /// the only version; a version folder missing, or several without the marker, are refused.
    @Test func versionFoldersAreResolved() throws {
        let root = NSTemporaryDirectory() + "models-\(UUID().uuidString)/App.xcdatamodeld"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fm = FileManager.default
        for version in ["App.xcdatamodel", "App 2.xcdatamodel"] {
            try fm.createDirectory(atPath: root + "/" + version, withIntermediateDirectories: true)
            let entity = version == "App.xcdatamodel" ? "Old" : "New"
            try "<model><entity name=\"\(entity)\"><attribute name=\"n\" attributeType=\"String\"/></entity></model>"
                .write(toFile: root + "/" + version + "/contents", atomically: true, encoding: .utf8)
        }
        #expect(throws: ModelFileError.self) { try ModelFile.read(root) }   // two versions, no marker
        let marker = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>App 2.xcdatamodel</string></dict></plist>
            """
        try marker.write(toFile: root + "/.xccurrentversion", atomically: true, encoding: .utf8)
        let current = try ModelFile.read(root)
        #expect(current.name == "App" && current.entities.map(\.name) == ["New"])
        #expect(try ModelFile.read(root + "/App.xcdatamodel").entities.map(\.name) == ["Old"])
        #expect(try ModelFile.read(root + "/App.xcdatamodel/contents").name == "App")
        try marker.replacingOccurrences(of: "App 2", with: "App 3").write(
            toFile: root + "/.xccurrentversion", atomically: true, encoding: .utf8)
        do {
            _ = try ModelFile.read(root)
            Issue.record("a missing version was accepted")
        } catch {
            #expect(
                error.message.contains("names version App 3.xcdatamodel, which the folder does not hold"), "\(error)")
        }
        do {
            _ = try ModelFile.read(root + "/missing.xcdatamodeld")
            Issue.record("a missing model was accepted")
        } catch {
            #expect(error.isMissing)
        }
    }
}

/// Issue 41: what shipped models hold and Core Data loads, read as Core Data reads it.
@Suite struct ShippedModelFileTests {
    func parse(_ text: String) throws(ModelFileError) -> ModelFile {
        try ModelFile.parse(text, path: "m/contents", name: "M")
    }

    /// Item 2: integer defaults written "0.0", "NO", "YES" (an attribute whose type changed in
    /// Xcode) read as the model compiler converts them (Foundation's integerValue), with a note.
    @Test func integerDefaultsAreReadAsTheModelCompilerConvertsThem() throws {
        let integers: [String: Int64] = [
            "0.0": 0, "NO": 0, "YES": 0, "1.0": 1, " 12abc": 12, "-3.7": -3, "": 0, "x1": 0,
        ]
        for (text, expected) in integers { #expect(ModelReader.integerValue(text) == expected, "\(text)") }
        #expect(ModelReader.doubleValue("2.5x") == 2.5 && ModelReader.doubleValue("NO") == 0)
        let file = try parse(
            """
            <model><entity name="Line">
            <attribute name="taxID" optional="YES" attributeType="Integer 64" defaultValueString="0.0" usesScalarValueType="YES"/>
            <attribute name="muted" optional="YES" attributeType="Integer 32" defaultValueString="NO" usesScalarValueType="YES"/>
            <attribute name="count" optional="YES" attributeType="Integer 16" defaultValueString="1.0" usesScalarValueType="YES"/>
            <attribute name="rate" optional="YES" attributeType="Double" defaultValueString="NO" usesScalarValueType="YES"/>
            <attribute name="token" optional="YES" attributeType="UUID" defaultValueString="empy" usesScalarValueType="NO"/>
            </entity></model>
            """)
        let line = try #require(file.entity(named: "Line"))
        #expect(
            line.attribute("taxID")?.defaultValue == .integer(0) && line.attribute("muted")?.defaultValue == .integer(0)
        )
        #expect(
            line.attribute("count")?.defaultValue == .integer(1) && line.attribute("rate")?.defaultValue == .double(0))
        #expect(line.attribute("token")?.defaultValue == .null)
        #expect(
            file.notes.contains {
                $0.hasPrefix("m/contents:2: ")
                    && $0.contains("Line.taxID: defaultValueString \"0.0\" is not a Integer 64; read as 0")
            },
            "\(file.notes)")
        #expect(file.notes.count { $0.contains("is not a") } == 5)
        // A text that is no number of any kind is still refused where it cannot be read.
        #expect(throws: ModelFileError.self) {
            try parse(
                #"<model><entity name="A"><attribute name="d" attributeType="Date" defaultDateTimeInterval="soon"/></entity></model>"#
            )
        }
    }

    /// Item 3: a fetch index declared on a sub-entity naming an attribute it inherits (a music
    /// player's `Song.bySongIdIndex` on its abstract grandparent's `id`) lives on the root's table.
    @Test func anIndexOnAnInheritedAttributeIsOnTheRootsTable() throws {
        let file = try parse(
            """
            <model>
            <entity name="LibraryEntity" isAbstract="YES"><attribute name="id" attributeType="String"/></entity>
            <entity name="Playable" isAbstract="YES" parentEntity="LibraryEntity"><attribute name="title" optional="YES" attributeType="String"/></entity>
            <entity name="Song" parentEntity="Playable">
            <attribute name="track" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
            <fetchIndex name="bySongIdIndex"><fetchIndexElement property="id" type="Binary" order="ascending"/></fetchIndex>
            <fetchIndex name="byTitle"><fetchIndexElement property="title" type="Binary" order="descending"/></fetchIndex>
            </entity></model>
            """)
        let sql = StoreSchema.createStatements(for: try file.model()).joined(separator: "\n")
        #expect(sql.contains("CREATE INDEX Z_Song_bySongIdIndex ON ZLIBRARYENTITY (ZID COLLATE BINARY ASC)"), "\(sql)")
        #expect(sql.contains("CREATE INDEX Z_Song_byTitle ON ZLIBRARYENTITY (ZTITLE COLLATE BINARY DESC)"), "\(sql)")
    }

    /// Item 5: a transient relationship stores nothing: no column, no join table; its stored
    /// inverse (if any) has no inverse left.
    @Test func transientRelationshipsStoreNothing() throws {
        let file = try parse(
            """
            <model>
            <entity name="Message"><attribute name="nonce" optional="YES" attributeType="Binary"/>
            <relationship name="missingRecipients" optional="YES" toMany="YES" transient="YES" destinationEntity="Client" inverseName="messagesMissingRecipient" inverseEntity="Client"/>
            <relationship name="draftOf" optional="YES" maxCount="1" transient="YES" destinationEntity="Client" inverseName="drafts" inverseEntity="Client"/>
            <relationship name="sender" optional="YES" maxCount="1" destinationEntity="Client" inverseName="sent" inverseEntity="Client"/>
            </entity>
            <entity name="Client"><attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="messagesMissingRecipient" optional="YES" toMany="YES" transient="YES" destinationEntity="Message" inverseName="missingRecipients" inverseEntity="Message"/>
            <relationship name="drafts" optional="YES" toMany="YES" destinationEntity="Message" inverseName="draftOf" inverseEntity="Message"/>
            <relationship name="sent" optional="YES" toMany="YES" destinationEntity="Message" inverseName="sender" inverseEntity="Message"/>
            </entity></model>
            """)
        let sql = StoreSchema.createStatements(for: try file.model()).joined(separator: "\n")
        #expect(
            !sql.contains("Z_1MISSINGRECIPIENTS") && !sql.contains("Z_2MESSAGESMISSINGRECIPIENT")
                && !sql.contains("ZDRAFTOF"), "\(sql)")
        #expect(sql.contains("ZSENDER INTEGER"))
        #expect(file.entity(named: "Message")?.relationships.map(\.name) == ["sender"])
        #expect(
            file.entity(named: "Client")?.relationships.map(\.name) == ["sent"],
            "drafts' inverse is transient: left out with a note")
        #expect(
            file.notes.contains { $0.contains("Message.missingRecipients is transient: not stored") }, "\(file.notes)")
    }
}
