import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Testing
import Workload

@testable import Strategies

/// A delete is verified against what the model's delete rules remove (issue 54, item 5): a
/// record's Cascade takes its related object, whose own rule takes (Cascade) or keeps (Nullify)
/// its other records; Deny refuses the delete, as Core Data refuses it (1600).
@Suite struct DeleteRulesFollowedTests {
    static func model(item: String, group: String) -> String {
        ModelRunTests.write(
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Item" syncable="YES">
                    <attribute name="sku" attributeType="String"/>
                    <attribute name="created" attributeType="Date"/>
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <relationship name="group" optional="YES" maxCount="1" deletionRule="\(item)" destinationEntity="Group" inverseName="items" inverseEntity="Group"/>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="sku"/></uniquenessConstraint></uniquenessConstraints>
                </entity>
                <entity name="Group" syncable="YES">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="\(group)" destinationEntity="Item" inverseName="group" inverseEntity="Item"/>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
                </entity>
            </model>
            """)
    }

    func configuration(_ strategy: any WriteStrategy, model: String) -> RunConfiguration {
        var c = RunConfiguration()
        c.strategy = strategy.name
        c.operation = .delete
        c.fraction = 0.1
        c.model.path = model
        c.model.entity = "Item"
        c.workload.usesModel = true
        c.workload.modelParents = 20
        c.workload.rows = 400
        c.workload.dupRate = 0
        c.batchSize = 50
        return c
    }

    /// Rows left, counted in the filled store before the delete (SQL on the file, not the checks'
    /// arithmetic): the records that are no target, less those whose group a target's cascade
    /// takes when the group takes its items.
    func expectedLeft(_ path: String, cutoff: Double, siblingsGo: Bool) throws -> Int {
        let db = try Database(path: path)
        let others = "SELECT count(*) FROM ZITEM WHERE ZCREATED >= \(cutoff)"
        let spared = siblingsGo ? " AND ZGROUP NOT IN (SELECT ZGROUP FROM ZITEM WHERE ZCREATED < \(cutoff))" : ""
        return try db.scalarInt(others + spared)
    }

    @Test(arguments: [("Cascade", "Cascade"), ("Cascade", "Nullify"), ("Nullify", "Cascade")])
    func aDeleteIsCheckedAgainstWhatTheRulesRemove(rules: (item: String, group: String)) throws {
        let model = Self.model(item: rules.item, group: rules.group)
        for strategy in [BatchDeleteStrategy() as any WriteStrategy, FetchDeleteStrategy()] {
            ConcurrencyDebug.isEnabled = true
            let path = NSTemporaryDirectory() + "delete-rules-\(UUID().uuidString).sqlite"
            defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
            let c = configuration(strategy, model: model)
            let source = try ImportSource.resolve(c)
            #expect(source.refusal(of: strategy, shape: try source.shape(c.shapeOptions)) == nil)
            var job = StrategyJob(configuration: c, store: StoreOptions(path: path))
            job.operationTarget = try OperationSetup.prepare(job)
            let target = try #require(job.operationTarget)
            let left = try expectedLeft(path, cutoff: target.cutoff, siblingsGo: rules == ("Cascade", "Cascade"))
            job.prepared = try strategy.setUp(job)
            _ = try strategy.run(job)
            job.prepared = nil
            let v = try job.verifyStore()
            let what = "\(rules) \(strategy.name)"
            #expect(v.lost == 0 && v.badLinks == 0 && v.unexpectedRows == 0 && v.storeRows == left, "\(what): \(v)")
            #expect(try OperationSetup.problems(job, target, counters: nil).isEmpty, "\(what)")
            if rules == ("Cascade", "Cascade") {
                #expect(target.collateral > 0 && left < 400 - target.expected, "\(what)")
            }
        }
    }

    /// Deny on the record's to-one (every record has its group) or behind a cascade: Core Data
    /// refuses the delete, so the run refuses both delete idioms by name before anything runs.
    @Test(arguments: [("Deny", "Nullify"), ("Cascade", "Deny")])
    func aDenyRuleRefusesTheDelete(rules: (item: String, group: String)) throws {
        let model = Self.model(item: rules.item, group: rules.group)
        for strategy in [BatchDeleteStrategy() as any WriteStrategy, FetchDeleteStrategy()] {
            let c = configuration(strategy, model: model)
            let source = try ImportSource.resolve(c)
            let refusal = source.refusal(of: strategy, shape: try source.shape(c.shapeOptions)) ?? ""
            #expect(refusal.contains("Core Data refuses") && refusal.contains("Deny"), "\(strategy.name): \(refusal)")
        }
    }
}
