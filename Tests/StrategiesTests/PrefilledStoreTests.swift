import Foundation
import ObjectGraph
import SQLiteKit
import Strategies
import Testing

/// Issue 56, item 3: an update, delete or read starts each repetition after the first from a
/// copy of the first's filled store; the copy must be the store a refill makes.
@Suite struct PrefilledStoreTests {
    func job(_ path: String, journal: StoreOptions.Journal) -> StrategyJob {
        var c = RunConfiguration()
        c.strategy = "fetch-update"
        c.operation = .update
        c.fraction = 0.3
        c.workload.rows = 600
        return StrategyJob(
            configuration: c, store: StoreOptions(path: path, journal: journal, synchronous: .coreDataDefault))
    }

    /// Every row of every table but the store's identity (`Z_METADATA`'s UUID is made per store,
    /// by Core Data as by loadgen), in order.
    func contents(_ path: String) throws -> [String] {
        let db = try Database(path: path)
        let tables = try db.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'Z_METADATA' ORDER BY name")
        var names: [String] = []
        while try tables.step() { names.append(tables.text(at: 0)!) }
        var lines = names
        for name in names {
            let rows = try db.prepare("SELECT quote(t.rowid), * FROM \(name) t ORDER BY t.rowid")
            while try rows.step() {
                lines.append(
                    name + ": " + (0..<rows.columnCount).map { rows.text(at: $0) ?? "NULL" }.joined(separator: "|"))
            }
        }
        return lines + (try db.scalarText("SELECT group_concat(sql, ';') FROM sqlite_master ORDER BY name")).map {
            [$0]
        }!
    }

    @Test(arguments: [StoreOptions.Journal.wal, .delete])
    func aCopyOfTheFilledStoreIsTheStoreARefillMakes(journal: StoreOptions.Journal) throws {
        let dir = NSTemporaryDirectory() + "prefill-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let template = dir + "/template.sqlite"
        let first = job(dir + "/first.sqlite", journal: journal)
        let target = try OperationSetup.prepare(first)
        PrefilledStore.save(first.store, target: target, as: template)
        let copied = job(dir + "/copied.sqlite", journal: journal)
        let restored = try #require(PrefilledStore.restore(template, into: copied.store))
        let refilled = job(dir + "/refilled.sqlite", journal: journal)
        let again = try OperationSetup.prepare(refilled)
        #expect(try contents(copied.store.path) == contents(refilled.store.path))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: copied.store.path))
                == Data(contentsOf: URL(fileURLWithPath: template)),
            "the copy is the template byte for byte")
        #expect(
            !FileManager.default.fileExists(atPath: copied.store.path + "-wal"),
            "the WAL was checkpointed into the template")
        #expect(
            restored.cutoff == again.cutoff && restored.expected == again.expected && restored.rows == again.rows
                && restored.untouchedDigest == again.untouchedDigest)
        // The copied store passes the strategy's own run and checks, as a refilled one does.
        var run = copied
        run.operationTarget = restored
        _ = try StrategyRegistry.strategy(named: "fetch-update")!.run(run)
        #expect(try run.verifyStore().problems(.complete).isEmpty)
    }
}
