import Foundation
import ObjectGraph
import Report
import Testing
import Workload

@testable import Strategies

/// DESIGN.md's "add a strategy", followed in a test target (issue 57, item 5): a strategy
/// defined here (its file), registered (its line: `StrategyRegistry.added` stands in for the
/// line in `builtIn`), found by name as a run finds it, run through the engine on a real file,
/// its store checked by the verifier, and its catalogue entry and SQL pinned in a golden file
/// (`scripts/golden` writes it). What the recipe says follows from the registry, this shows.
@Suite struct StrategyRecipeTests {
    /// The recipe's strategy: a background-context import that saves every half batch and
    /// resets after each whole one (an app that saves more often than it frees memory).
    struct HalfBatchSaveStrategy: WriteStrategy {
        var name: String { "half-batch-save" }
        var summary: String { "as context-reset, saving every half batch and resetting after each batch" }
        var idiom: String { "background context import that saves twice per reset" }
        var keyNeed: KeyNeed { .uniqueness }

        func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters {
            let size = job.batchSize(for: self)
            return try ContextImport(
                batchSize: size, resetsAfterSave: true, saveEvery: max(1, size / 2), lookup: .refetchAfterReset
            ).run(job, on: engine)
        }
    }

    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Golden/recipe").standardizedFileURL.path

    @Test func aStrategyAddedAsTheRecipeSaysIsFoundRunCheckedAndPinned() throws {
        let strategy = HalfBatchSaveStrategy()
        #expect(StrategyRegistry.strategy(named: strategy.name) == nil)
        try StrategyRegistry.$added.withValue([strategy]) {
            // Registered: found by name as a configuration finds its strategy, listed last.
            #expect(StrategyRegistry.names.last == strategy.name)
            var configuration = RunConfiguration()
            configuration.strategy = strategy.name
            let found = try #require(configuration.writeStrategy)
            // Run: 300 expenses (20 % repeats: 240 keys) in batches of 100, on a file.
            var spec = WorkloadSpec()
            spec.rows = 300
            spec.dupRate = 0.2
            spec.categories = 7
            var job = StrategyJob(
                workload: spec, store: StoreOptions(path: NSTemporaryDirectory() + "recipe-\(UUID().uuidString).sqlite")
            )
            job.batchSize = 100
            job.counters.startRecording()
            let counters = try found.run(job)
            let sql = job.counters.stopRecording()
            let v = try job.verifyStore(repeated: found.repeatedKey)
            #expect(v.storeRows == 240 && v.duplicates == 0 && v.lost == 0 && v.badLinks == 0, "\(v)")
            #expect(counters.saves == 6, "two saves per batch of 100: \(counters.saves)")
            try Self.check("\(strategy.name).txt", Self.page(found, sql: sql, verification: v))
        }
        #expect(StrategyRegistry.strategy(named: strategy.name) == nil, "registered for the test's task only")
    }

    /// The catalogue entry as `list` reads it, and the statements by kind.
    static func page(_ s: any WriteStrategy, sql: [String], verification v: Verification) -> String {
        var kinds: [String: Int] = [:]
        for statement in sql { kinds[statement.split(separator: " ").first.map(String.init) ?? "", default: 0] += 1 }
        return """
            name: \(s.name)
            summary: \(s.summary)
            idiom: \(s.idiom)
            operation: \(s.operation.rawValue); batch size \(s.defaultBatchSize.map(String.init) ?? "none")
            statements: \(kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            store: \(v.storeRows) rows, \(v.duplicates) duplicates, \(v.lost) lost

            """
    }

    /// As GoldenTests checks its files: equal, or written under `LOADGEN_GOLDEN=write`.
    static func check(_ name: String, _ actual: String) throws {
        let path = golden + "/" + name
        if ProcessInfo.processInfo.environment["LOADGEN_GOLDEN"] == "write" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try? String(contentsOfFile: path, encoding: .utf8)
        #expect(expected == actual, "Tests/Golden/recipe/\(name) differs (scripts/golden rewrites it):\n\(actual)")
    }
}
