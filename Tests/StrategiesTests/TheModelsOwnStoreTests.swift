import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Testing
import Workload

@testable import Strategies

/// Every strategy writes the model's own store (issue 54, item 1; decision 0039): its indexes and
/// uniqueness constraints exactly, plus the what-ifs the run asks for (`--add-index`,
/// `--add-constraint`), never one a strategy adds or drops. Checked on the built-in datasets and
/// three shipping apps' models, for every strategy the model does not refuse.
@Suite(.serialized) struct TheModelsOwnStoreTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Corpus")
        .standardized.path

    /// A model as a run names it, with the what-ifs.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var dataset: Dataset = .expenses
        var model: String?
        var entity: String?
        var key: [String]?
        var relationship: String?
        var addIndex: AddedIndex?
        var addConstraint: [String]?
        var testDescription: String {
            name + (addIndex.map { " --add-index \($0.text)" } ?? "")
                + (addConstraint.map { " --add-constraint \($0.joined(separator: "+"))" } ?? "")
        }
    }

    static let woo = "woocommerce-ios/Model 117.xcdatamodel"
    static let cases: [Case] = [
        Case(name: "expenses"),
        Case(name: "photos", dataset: .photos),
        Case(name: "photos", dataset: .photos, addConstraint: ["remoteURL"]),
        Case(name: "woo OrderItem", model: woo, entity: "OrderItem", key: ["itemID"], relationship: "order.orderID"),
        Case(
            name: "woo OrderItem", model: woo, entity: "OrderItem", key: ["itemID"], relationship: "order.orderID",
            addIndex: AddedIndex(attributes: ["itemID"])),
        Case(
            name: "woo OrderItem", model: woo, entity: "OrderItem", key: ["itemID"], relationship: "order.orderID",
            addIndex: AddedIndex(entity: "Order", attributes: ["orderID"]), addConstraint: ["itemID"]),
        Case(
            name: "loopkit CachedGlucoseObject", model: "loopkit/Modelv4.xcdatamodel", entity: "CachedGlucoseObject",
            key: ["uuid"]),
        Case(
            name: "amperfy Song", model: "amperfy/Amperfy v49.xcdatamodel", entity: "Song", key: ["id"],
            relationship: "album.id"),
    ]

    func configuration(_ c: Case, _ strategy: any WriteStrategy) -> RunConfiguration {
        var r = RunConfiguration()
        r.strategy = strategy.name
        r.operation = strategy.operation
        r.fraction = strategy.operation == .update || strategy.operation == .delete ? 0.2 : nil
        r.workload.dataset = c.dataset
        r.model.path = c.model.map { Self.corpus + "/" + $0 }
        r.model.entity = c.entity
        r.model.key = c.key
        r.model.relationship = c.relationship
        r.model.addedIndex = c.addIndex
        r.model.addedConstraint = c.addConstraint
        r.workload.usesModel = c.model != nil
        r.workload.modelParents = 7
        r.workload.payloadBytes = 32
        r.workload.rows = 120
        r.workload.dupRate = strategy.operation == .import ? 0.1 : 0
        r.batchSize = 50
        r.writers = 2
        return r
    }

    /// The indexes of `file` with the case's what-ifs, as Core Data creates them: what every
    /// store of the case must hold, computed from the model file, not from what a strategy ran.
    func expectedIndexes(_ c: Case, records: String) throws -> Set<String> {
        var file =
            try c.model.map { try ModelFile.read(Self.corpus + "/" + $0) }
            ?? BundledModels.file(named: c.dataset.bundledModelName)
        if let constraint = c.addConstraint { file = file.adding(constraint: constraint, to: records) }
        if let index = c.addIndex { file = file.adding(index: index.attributes, to: index.entity ?? records) }
        return Set(
            StoreSchema.createStatements(for: try file.model()).filter {
                $0.hasPrefix("CREATE") && $0.contains(" INDEX ")
            })
    }

    /// The store's own indexes (history's, which `--history` adds to every strategy alike, aside).
    func storeIndexes(_ path: String) throws -> Set<String> {
        let db = try Database(path: path)
        let s = try db.prepare(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
                + "AND tbl_name NOT IN ('\(HistorySchema.transactionTable)', '\(HistorySchema.changeTable)', "
                + "'\(HistorySchema.stringTable)')")
        var found: Set<String> = []
        while try s.step() { found.insert(s.text(at: 0) ?? "") }
        return found
    }

    @Test(arguments: cases)
    func everyStrategyWritesTheModelsIndexesExactly(_ c: Case) async throws {
        try await CorpusTests.onOwnThread { try self.checkEvery(c) }
    }

    private func checkEvery(_ c: Case) throws {
        ConcurrencyDebug.isEnabled = true
        var ran = 0
        for strategy in StrategyRegistry.all {
            let config = configuration(c, strategy)
            let source = try ImportSource.resolve(config)
            if source.refusal(of: strategy, shape: try source.shape(config.shapeOptions)) != nil { continue }
            let path = NSTemporaryDirectory() + "own-store-\(UUID().uuidString).sqlite"
            defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
            var options = StoreOptions(path: path)
            options.persistentHistoryTracking = strategy.requiresHistory
            options.busyTimeoutMilliseconds = 60_000
            var job = StrategyJob(configuration: config, store: options)
            if strategy.operation.needsFilledStore {
                job.operationTarget = try OperationSetup.prepare(job)
                job.prepared = try strategy.setUp(job)
            }
            _ = try strategy.run(job)
            job.prepared = nil
            let expected = try expectedIndexes(c, records: source.roles.entity)
            #expect(try storeIndexes(path) == expected, "\(c.testDescription) \(strategy.name)")
            ran += 1
        }
        #expect(ran >= 10, "\(c.testDescription): \(ran) strategies ran")
    }

    /// What the issue found, named: on WooCommerce's model no strategy adds the indexes the model
    /// lacks on the order item's and the order's keys; LoopKit's two unique indexes stay.
    @Test func theShippedModelsIndexesNamed() throws {
        let woo = Case(
            name: "woo", model: Self.woo, entity: "OrderItem", key: ["itemID"], relationship: "order.orderID")
        let wooIndexes = try expectedIndexes(woo, records: "OrderItem").joined(separator: "\n")
        #expect(!wooIndexes.contains("ZITEMID") && !wooIndexes.contains("ZORDERID"))
        let added = Case(name: "woo", model: Self.woo, addIndex: AddedIndex(attributes: ["itemID"]))
        #expect(
            try expectedIndexes(added, records: "OrderItem").contains(
                "CREATE INDEX Z_OrderItem_byItemIDIndex ON ZORDERITEM (ZITEMID COLLATE BINARY ASC)"))
        let loop = Case(name: "loopkit", model: "loopkit/Modelv4.xcdatamodel")
        let unique = try expectedIndexes(loop, records: "CachedGlucoseObject").filter {
            $0.contains("Z_CachedGlucoseObject_UNIQUE")
        }
        #expect(unique.count == 2, "\(unique)")
    }

    /// Where a lookup has no index, the run says so and names the what-if; where it has one, nothing.
    @Test func aLookupWithoutAnIndexIsNamedWithItsWhatIf() throws {
        let c = Case(name: "woo", model: Self.woo, entity: "OrderItem", key: ["itemID"], relationship: "order.orderID")
        let perRow = StrategyRegistry.strategy(named: "find-or-create-per-row")!
        let source = try ImportSource.resolve(configuration(c, perRow))
        #expect(source.scans(for: perRow).map(\.addIndex) == ["itemID", "Order.orderID"])
        #expect(
            source.scans(for: StrategyRegistry.strategy(named: "find-or-create-cached")!).map(\.addIndex) == [
                "Order.orderID"
            ])
        #expect(source.scans(for: StrategyRegistry.strategy(named: "raw-sqlite")!).isEmpty)
        var indexed = c
        indexed.addIndex = AddedIndex(attributes: ["itemID"])
        let withIndex = try ImportSource.resolve(configuration(indexed, perRow))
        #expect(withIndex.scans(for: perRow).map(\.addIndex) == ["Order.orderID"])
        let expenses = try ImportSource.resolve(configuration(Case(name: "expenses"), perRow))
        #expect(expenses.scans(for: perRow).isEmpty)
    }
}
