import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

@Suite struct StoreSchemaTests {
    /// Pragmas an app passes (`NSSQLitePragmasOption`) are set on every connection, after Core
    /// Data's own; none by default (a connection's setup issues nothing beyond Core Data's).
    @Test func pragmasAnAppPassesAreSetOnEveryConnection() throws {
        let path = NSTemporaryDirectory() + "pragmas-\(UUID().uuidString).sqlite"
        var options = StoreOptions(path: path)
        let plain = try Database(path: path)
        try options.configure(plain)
        #expect(try plain.scalarInt("PRAGMA cache_size") == -2000)
        options.pragmas = [StoreOptions.Pragma("cache_size", -4000)]
        let tuned = try Database(path: path)
        try options.configure(tuned)
        #expect(try tuned.scalarInt("PRAGMA cache_size") == -4000)
    }

    /// The model's fingerprint spells each column's kind without printing it (printing an enum
    /// reflects on it: a quarter of a million instructions each time a container opened its store),
    /// and spells it as printing did, so a store made before still opens.
    @Test func theFingerprintSpellsEachColumnAsPrintingDid() {
        var kinds: [EntityDescription.Column.Kind] = AttributeType.allCases.map { .attribute($0) }
        kinds += [
            .toOne(destination: "Category"), .entityKey(relationship: "owner"), .orderKey(relationship: "items"),
            .toOne(destination: "Ünï \"quoted\" \\ tab\t"),
        ]
        for kind in kinds { #expect(kind.fingerprint == "\(kind)") }
    }

    @Test func expensesLayoutIsCoreDatas() {
        let sql = StoreSchema.createStatements(for: BundledModels.expenses(key: .none))
        #expect(
            sql.contains(
                "CREATE TABLE ZCATEGORY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )"))
        #expect(
            sql.contains(
                "CREATE TABLE ZEXPENSE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, "
                    + "ZCATEGORY INTEGER, ZAMOUNT FLOAT, ZDATE TIMESTAMP, ZEXTERNALID VARCHAR, ZNOTE VARCHAR )"))
        #expect(sql.contains("CREATE INDEX ZEXPENSE_ZCATEGORY_INDEX ON ZEXPENSE (ZCATEGORY)"))
        #expect(sql.contains { $0.hasPrefix("CREATE TABLE Z_PRIMARYKEY") })
        #expect(sql.contains { $0.hasPrefix("CREATE TABLE Z_METADATA") })
        #expect(!sql.contains { $0.contains("UNIQUE") })
    }

    @Test func constraintsBecomeUniqueIndexes() {
        let sql = StoreSchema.createStatements(for: BundledModels.expenses(key: .unique))
        #expect(
            sql.contains("CREATE UNIQUE INDEX Z_Expense_UNIQUE_externalID ON ZEXPENSE (ZEXTERNALID COLLATE BINARY ASC)")
        )
        #expect(sql.contains("CREATE UNIQUE INDEX Z_Category_UNIQUE_name ON ZCATEGORY (ZNAME COLLATE BINARY ASC)"))
        #expect(sql.last == "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        let indexed = StoreSchema.createStatements(for: BundledModels.expenses(key: .indexed))
        #expect(indexed.contains("CREATE INDEX ZEXPENSE_ZEXTERNALID_INDEX ON ZEXPENSE (ZEXTERNALID)"))
    }

    @Test func entitiesAreNumberedByName() {
        let model = BundledModels.photos(key: .none)
        #expect(model.entity(named: "Album")?.entityID == 1)
        #expect(model.entity(named: "Photo")?.entityID == 2)
        #expect(model.entity(named: "Photo")?.columns.map(\.name) == ["ZALBUM", "ZIMAGEDATA", "ZISSEEN", "ZREMOTEURL"])
    }

    @Test func openingChecksTheModel() throws {
        let path = NSTemporaryDirectory() + "schema-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let db = try Database(path: path)
        let uuid = try StoreSchema.create(in: db, model: BundledModels.expenses(key: .unique))
        #expect(try StoreSchema.check(db, model: BundledModels.expenses(key: .unique)) == uuid)
        #expect(throws: StoreError.self) { try StoreSchema.check(db, model: BundledModels.expenses(key: .none)) }
        #expect(throws: StoreError.self) { try StoreSchema.check(db, model: BundledModels.photos(key: .unique)) }
        #expect(try db.scalarInt("SELECT count(*) FROM Z_PRIMARYKEY WHERE Z_MAX = 0") == 2)
    }

    @Test func aPlainDatabaseIsNotAStore() throws {
        let db = try Database(path: ":memory:")
        #expect(throws: StoreError.notAStore(":memory:")) {
            try StoreSchema.check(db, model: BundledModels.expenses(key: .none))
        }
    }

    @Test func badModelsAreRejected() {
        #expect(throws: ModelError.self) {
            try ManagedObjectModel([
                EntityDescription("A", attributes: [], relationships: [.init("b", to: "B", inverse: nil)])
            ])
        }
        #expect(throws: ModelError.self) {
            try ManagedObjectModel([EntityDescription("A", attributes: [], uniquenessConstraints: [["x"]])])
        }
    }

    /// Z_METADATA holds a binary property list with Core Data's keys that Foundation reads back,
    /// for a small model and for one of 2,000 entities (two-byte object references).
    @Test(arguments: [2, 2_000])
    func theMetadataIsABinaryPlistWithCoreDatasKeys(entities: Int) throws {
        let model = try ManagedObjectModel(
            (0..<entities).map { EntityDescription("E\($0)", attributes: [AttributeDescription("name", .string)]) })
        let bytes = StoreMetadata.plist(model)
        #expect(Array(bytes.prefix(8)) == Array("bplist00".utf8))
        let plist = try #require(
            try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any])
        #expect(plist["NSStoreType"] as? String == "SQLite")
        #expect(plist["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect(plist["NSPersistenceFrameworkVersion"] as? Int == 1518)
        #expect(plist["_NSAutoVacuumLevel"] as? String == "2")
        #expect(plist["NSStoreModelVersionIdentifiers"] as? [String] == [""])
        let hashes = try #require(plist["NSStoreModelVersionHashes"] as? [String: Data])
        #expect(hashes.count == entities && hashes.values.allSatisfy { $0.count == 32 })
        #expect(plist[StoreMetadata.modelHashKey] as? String == model.versionHash)
        #expect(
            StoreMetadata.carries(model.versionHash, in: bytes) && !StoreMetadata.carries("0123456789abcdef", in: bytes)
        )
    }
}
