import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Testing
import Workload

@testable import Strategies

/// Updates, deletes and reads of a filled store (issue 13): the SQL each idiom issues, what the
/// checks say, and what a screen holds after a merged batch request.
@Suite struct OperationTests {
    struct Outcome {
        var counters: StrategyCounters
        var sql: StatementCounters.Snapshot
        var target: OperationTarget
        var problems: [String]
        var job: StrategyJob
        /// The strategy's statements in order (the store's opening reads and PRAGMAs aside).
        var statements: [String] = []
    }

    /// Fills a store of `rows` expenses (7 categories), runs `strategy` as the child does.
    func run(
        _ strategy: any WriteStrategy, rows: Int = 1_000, fraction: Double = 0.2, batchSize: Int? = 100,
        keepPrepared: Bool = false, screen: ScreenKind? = nil, result: BatchResultType = .statusOnly
    ) throws -> Outcome {
        ConcurrencyDebug.isEnabled = true
        var c = RunConfiguration()
        c.strategy = strategy.name
        c.operation = strategy.operation
        c.fraction = strategy.operation == .read ? nil : fraction
        c.workload.rows = rows
        c.workload.categories = 7
        c.batchSize = batchSize
        c.screen = screen
        c.batchResult = result
        let path = NSTemporaryDirectory() + "operation-\(UUID().uuidString).sqlite"
        var job = StrategyJob(configuration: c, store: StoreOptions(path: path))
        job.operationTarget = try OperationSetup.prepare(job)
        job.prepared = try strategy.setUp(job)
        let before = job.counters.snapshot()
        job.counters.startRecording()
        let counters = try strategy.run(job)
        let statements = job.counters.stopRecording().filter {
            !$0.hasPrefix("PRAGMA") && !$0.contains("sqlite_master") && !$0.contains("Z_METADATA")
        }
        let sql = job.counters.snapshot() - before
        if !keepPrepared { job.prepared = nil }
        let problems = try OperationSetup.problems(job, job.operationTarget!, counters: counters)
        return Outcome(
            counters: counters, sql: sql, target: job.operationTarget!, problems: problems, job: job,
            statements: statements)
    }

    /// Opening a store reads `sqlite_master` and the metadata twice (model check, UUID), and
    /// looks for history tables (a store with history opened without tracking is read-only):
    /// four selects before a strategy's own. A read opens it in its window; an update or
    /// delete before it (its set-up, with the run's screen).
    let opening = 4

    @Test func theTargetsAreTheFractionOfTheKeys() throws {
        let o = try run(FetchUpdateStrategy(), rows: 2_000, fraction: 0.25)
        #expect(o.target.expected == 500 && o.target.rows == 2_000)
    }

    /// Without a screen the request returns what the app asks for, and only IDs cost a query
    /// (issue 54, item 3): a status or a count is the UPDATE alone.
    @Test(arguments: [BatchResultType.statusOnly, .count, .objectIDs])
    func batchUpdateCapturesIDsOnlyWhenAskedFor(result: BatchResultType) throws {
        let o = try run(BatchUpdateStrategy(), result: result)
        #expect(o.problems.isEmpty, "\(o.problems)")
        #expect(o.sql.update == 1 && o.sql.insert == 0 && o.sql.delete == 0)
        #expect(o.sql.select == (result == .objectIDs ? 1 : 0), "\(o.statements)")
        #expect(o.statements.contains { $0.contains("TEMP_CDBATCHUPDATEOBJECTIDS") } == (result == .objectIDs))
        #expect(o.counters.mergeMillisecondsTotal == nil && o.counters.viewObjects == nil)
    }

    @Test func batchUpdateIsOneUpdateStatementAndTheScreenSeesIt() throws {
        let o = try run(BatchUpdateStrategy(), keepPrepared: true, screen: .list(1_000))
        #expect(o.problems.isEmpty, "\(o.problems)")
        #expect(o.sql.update == 1 && o.sql.insert == 0 && o.sql.delete == 0)
        // The screen needs the IDs whatever --result says: they come back from Core Data's capture
        // table (one SELECT), and the merge re-read the screen's targets (one IN query per 500):
        // they show the new note; the others are untouched.
        #expect(o.sql.select == 2)
        let screen = try #require(o.job.prepared?.screen as? Screen<Engine>)
        let notes = screen.withShownObjects { $0.map { $0.value(forKey: "note") } }
        #expect(notes.count == 1_000)
        #expect(notes.filter { $0 == .string(OperationTarget.updatedNote) }.count == o.target.expected)
        #expect(
            o.counters.mergeMillisecondsTotal != nil && o.counters.viewObjects == 1_000, "the merge time is measured")
        #expect(
            o.job.objectCounts(since: ObjectWork()).merged == o.target.expected, "refreshed objects are object work")
    }

    /// The same screen in front of the fetch-and-save idiom: its saves merge into it
    /// (automaticallyMergesChangesFromParent), so both sides pay for keeping it current.
    @Test func fetchUpdateKeepsTheSameScreenCurrent() throws {
        let o = try run(FetchUpdateStrategy(), keepPrepared: true, screen: .list(1_000))
        #expect(o.problems.isEmpty, "\(o.problems)")
        let screen = try #require(o.job.prepared?.screen as? Screen<Engine>)
        let notes = screen.withShownObjects { $0.map { $0.isFault ? nil : $0.value(forKey: "note") } }
        #expect(notes.count == 1_000)
        #expect(
            notes.filter { $0 == .string(OperationTarget.updatedNote) }.count + notes.filter { $0 == nil }.count
                >= o.target.expected)
        #expect(o.counters.mergeMillisecondsTotal != nil && o.counters.viewObjects == 1_000)
        #expect(
            o.job.objectCounts(since: ObjectWork()).merged >= o.target.expected, "refreshed objects are object work")
    }

    @Test func fetchUpdateFetchesKeysThenOneQueryPerBatch() throws {
        let o = try run(FetchUpdateStrategy())
        #expect(o.problems.isEmpty, "\(o.problems)")
        #expect(o.sql.select == 1 + 2)   // keys, then 200 targets in batches of 100
        #expect(o.sql.update == o.target.expected)   // one UPDATE per object
        #expect(o.counters.saves == 2)
    }

    @Test func updateByIDFiresOneFaultPerRow() throws {
        let o = try run(UpdateByIDStrategy())
        #expect(o.problems.isEmpty, "\(o.problems)")
        #expect(o.sql.select == o.target.expected)   // the N+1 of updates
        #expect(o.sql.update == o.target.expected)
    }

    @Test func batchDeleteIsOneStatementAndTheScreenLetsGo() throws {
        let o = try run(BatchDeleteStrategy(), keepPrepared: true, screen: .controller(nil))
        #expect(o.problems.isEmpty, "\(o.problems)")
        #expect(o.sql.delete == 1 && o.sql.update == 0)
        let screen = try #require(o.job.prepared?.screen as? Screen<Engine>)
        // The deleted expenses left the screen, and their categories' expenses (loaded now, from
        // the store and the screen's memory) no longer hold them.
        let (expenses, members) = screen.withShownObjects { shown -> (Int, Int) in
            let categories = Set(shown.compactMap { $0.object(forKey: "category") })
            return (shown.count, categories.reduce(0) { $0 + $1.objects(forKey: "expenses").count })
        }
        #expect(expenses == o.target.rows - o.target.expected && members == o.target.rows - o.target.expected)
        #expect(o.job.objectCounts(since: ObjectWork()).merged == o.target.expected, "removed objects are object work")
    }

    @Test func fetchDeleteDeletesEachTargetAndNothingElse() throws {
        let o = try run(FetchDeleteStrategy())
        #expect(o.problems.isEmpty, "\(o.problems)")
        #expect(o.sql.delete == o.target.expected)
        // Two full batches, then an empty one; in each batch, deleting an expense nullifies its
        // category's side of the relationship: the save reads the 7 category faults' versions in
        // one query and updates each once (Z_OPT alone).
        #expect(o.sql.select == 2 + 1 + 2)
        #expect(o.sql.update == 2 * 7)
    }

    @Test func readsIssueTheQueriesTheirIdiomNeeds() throws {
        let faulting = try run(ReadFaultingStrategy())
        #expect(faulting.problems.isEmpty && faulting.counters.objectsRead == 1_000)
        #expect(faulting.sql.select == opening + 1 + 7)   // the list, then one fault per category
        let prefetch = try run(ReadPrefetchStrategy())
        #expect(prefetch.problems.isEmpty && prefetch.sql.select == opening + 2)
        let batched = try run(ReadBatchedStrategy())
        #expect(batched.problems.isEmpty && batched.counters.objectsRead == 1_000)
        #expect(batched.sql.select == opening + 1 + 10 + 7)   // keys, one IN query per batch, the categories
        // A walk holds about one batch: objects left behind are faults again.
        #expect((batched.counters.peakRegisteredObjects ?? .max) <= 100 + 7)
        #expect((faulting.counters.peakRegisteredObjects ?? 0) >= 1_000)
        let count = try run(CountStrategy())
        let fetched = try run(CountFetchStrategy())
        #expect(
            count.sql.select == opening + 1 && count.counters.objectsRead == 1_000
                && count.counters.peakRegisteredObjects == 0)
        #expect(fetched.sql.select == opening + 1 && fetched.counters.objectsRead == 1_000)
        #expect(fetched.counters.peakRegisteredObjects == 1_000)   // the expenses (their 7 categories are faults)
    }

    /// Read tuning (issue 30), statement by statement on 1,000 expenses in 7 categories: only the
    /// cell's columns; dictionaries in one joined query; IDs, then a screenful by ID at a time;
    /// LIMIT/OFFSET pages in the key's order; keys alone, then a query per cell. Each shows every
    /// row with its values (the check compares what the screen showed with the store).
    @Test func readTuningIssuesTheSQLOfItsIdiom() throws {
        let properties = try run(ReadPropertiesStrategy())
        #expect(properties.problems.isEmpty && properties.counters.objectsRead == 1_000, "\(properties.problems)")
        #expect(properties.statements.first == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNOTE, t0.ZCATEGORY FROM ZEXPENSE t0")
        // the categories alone filled
        #expect(properties.statements.count == 1 + 7 && properties.counters.peakRegisteredObjects == 7)

        let dictionaries = try run(ReadDictionariesStrategy())
        #expect(dictionaries.problems.isEmpty && dictionaries.counters.objectsRead == 1_000, "\(dictionaries.problems)")
        #expect(
            dictionaries.statements == [
                "SELECT t0.ZNOTE, t1.ZNAME FROM ZEXPENSE t0 LEFT OUTER JOIN ZCATEGORY t1 ON t0.ZCATEGORY = t1.Z_PK"
            ])
        #expect(dictionaries.counters.peakRegisteredObjects == 0 && dictionaries.sql.rows == 1_000 + 6)

        let ids = try run(ReadIDsStrategy(), batchSize: 300)
        #expect(ids.problems.isEmpty && ids.counters.objectsRead == 1_000, "\(ids.problems)")
        #expect(ids.statements.first == "SELECT 0, t0.Z_PK FROM ZEXPENSE t0")
        // Four screenfuls by ID (300 padded to 512 placeholders), and the 7 categories once.
        #expect(
            ids.statements.filter { $0.contains("WHERE  t0.Z_PK IN (") }.count == 4
                && ids.sql.select == opening + 1 + 4 + 7)
        #expect((ids.counters.peakRegisteredObjects ?? .max) <= 300 + 7)

        let page = try run(ReadPageStrategy(), batchSize: 400)
        #expect(page.problems.isEmpty && page.counters.objectsRead == 1_000, "\(page.problems)")
        let pages = page.statements.filter { $0.contains("FROM ZEXPENSE") }
        #expect(
            pages.count == 3 && pages[0].hasSuffix("FROM ZEXPENSE t0 ORDER BY t0.ZEXTERNALID LIMIT 400")
                && pages[1].hasSuffix("ORDER BY t0.ZEXTERNALID LIMIT 400 OFFSET 400")
                && pages[2].hasSuffix("LIMIT 400 OFFSET 800"), "\(pages)")

        let without = try run(ReadWithoutValuesStrategy())
        #expect(without.problems.isEmpty && without.counters.objectsRead == 1_000, "\(without.problems)")
        #expect(
            without.statements.first == "SELECT 0, t0.Z_PK FROM ZEXPENSE t0"
                && without.sql.select == opening + 1 + 1_000 + 7)
    }

    /// The checks fail a store that is not what the operation must leave.
    @Test func theChecksSeeWhatWentWrong() throws {
        let o = try run(FetchUpdateStrategy())
        let db = try Database(path: o.job.store.path)
        try db.execute(
            "UPDATE ZEXPENSE SET ZNOTE = 'stale' WHERE Z_PK = (SELECT min(Z_PK) FROM ZEXPENSE WHERE ZDATE < \(o.target.cutoff))"
        )
        try db.execute(
            "UPDATE ZEXPENSE SET ZAMOUNT = ZAMOUNT + 1 WHERE Z_PK = (SELECT max(Z_PK) FROM ZEXPENSE WHERE ZDATE >= \(o.target.cutoff))"
        )
        let problems = try OperationSetup.problems(o.job, o.target, counters: o.counters)
        #expect(problems == ["rows the update must not touch changed", "1 of 200 targeted rows not updated"])
        var wrongCount = o.counters
        wrongCount.objectsRead = 3
        var read = try run(ReadPrefetchStrategy())
        read.counters.objectsRead = 3
        #expect(
            try OperationSetup.problems(read.job, read.target, counters: read.counters) == [
                "read 3 objects, expected 1000"
            ])
        _ = wrongCount
        // A screen that showed one note other than the store's: the digest of what it showed differs.
        let dictionaries = try run(ReadDictionariesStrategy())
        #expect(dictionaries.problems.isEmpty)
        try Database(path: dictionaries.job.store.path).execute("UPDATE ZEXPENSE SET ZNOTE = 'other' WHERE Z_PK = 5")
        #expect(
            try OperationSetup.problems(dictionaries.job, dictionaries.target, counters: dictionaries.counters)
                .contains("the screen showed other notes or related objects than the store holds"))
    }
}
