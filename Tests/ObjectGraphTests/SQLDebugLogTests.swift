import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// `LOADGEN_SQL_DEBUG=1` beside a real `-com.apple.CoreData.SQLDebug 1` log of the same save
/// (issue 58, item 7; Tests/Logs/README.md says where the real log comes from).
@Suite struct SQLDebugLogTests {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift">
            <entity name="BudgetCategory" representedClassName="BudgetCategory" syncable="YES">
                <attribute name="amount" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    /// Times differ from run to run: `0.0002s` reads `#s` on both sides.
    static func normalized(_ log: String) -> [String] {
        log.split(separator: "\n").map {
            $0.replacingOccurrences(of: #"\d+\.\d{4}s"#, with: "#s", options: .regularExpression)
        }
    }

    /// One object saved into a new store: the same statements, in the same order, tagged and
    /// annotated as Core Data's, but for the two pragmas Core Data runs in the first save's
    /// key reservation (`pragma auto_vacuum`, `pragma auto_vacuum=2`): loadgen sets the
    /// incremental auto-vacuum when it creates the store, before any save (docs/ENGINE.md).
    @Test func aOneObjectSaveLogsAsCoreDataLogsIt() throws {
        let file = try ModelFile.parse(Self.model, path: "Budget.xcdatamodel/contents", name: "Budget")
        let container = try makeContainer(try file.model(), counters: StatementCounters(keepsSQLLog: true))
        let context = container.newBackgroundContext()
        _ = container.counters.takeSQLLog()   // the store's creation
        try context.performAndWait {
            let category = try context.insertNewObject(forEntityName: "BudgetCategory")
            category["title"] = .string("Groceries")
            category["amount"] = .double(250)
            try context.save()
        }
        let ours = Self.normalized(container.counters.takeSQLLog())
        let real = try String(
            contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
                + "/Logs/one-object-save.sqldebug", encoding: .utf8)
        var expected = Self.normalized(real)
        // The first save's auto_vacuum pragmas and their annotations: set at creation here.
        expected.removeAll { $0.contains("auto_vacuum") }
        expected.removeAll { line in line == "CoreData: annotation: sql execution time: #s" }
        let kept = ours.filter { $0 != "CoreData: annotation: sql execution time: #s" }
        #expect(kept == expected, "\(ours.joined(separator: "\n"))")
        // Every pragma is annotated as Core Data annotates it.
        let pragmas = ours.indices.filter { ours[$0].hasPrefix("CoreData: sql: pragma") }
        #expect(
            pragmas.count == 2 && pragmas.allSatisfy { ours[$0 + 1] == "CoreData: annotation: sql execution time: #s" },
            "\(ours)")
    }

    /// A fetch is written as Core Data writes one (`SELECT 0, t0.Z_PK, t0.Z_OPT, … FROM ZBOOK t0
    /// WHERE  t0.ZTITLE LIKE ? ORDER BY t0.ZTITLE`, the logs docs/ENGINE.md cites), and a fault
    /// fired by its own query ends with Core Data's `fault fulfilled from database` line.
    @Test func fetchesAndFaultsInCoreDatasForm() throws {
        let container = try makeContainer(counters: StatementCounters(keepsSQLLog: true))
        let ids = try seedExpenses(container.newBackgroundContext(), count: 3, categories: 1)
        let context = container.newBackgroundContext()
        _ = container.counters.takeSQLLog()
        try context.performAndWait {
            var request = FetchRequest(entityName: "Expense", predicate: try Predicate("amount >= %@", 1.0))
            request.sortDescriptors = [SortDescriptor(key: "amount")]
            _ = try context.fetch(request)
            context.reset()
            _ = context.object(with: ids[0])["amount"]
        }
        let log = Self.normalized(container.counters.takeSQLLog())
        let row = "0, t0.Z_PK, t0.Z_OPT, t0.ZCATEGORY, t0.ZAMOUNT, t0.ZDATE, t0.ZEXTERNALID, t0.ZNOTE FROM ZEXPENSE t0"
        #expect(log.contains("CoreData: sql: SELECT \(row) WHERE  t0.ZAMOUNT >= ? ORDER BY t0.ZAMOUNT"), "\(log)")
        let fault = try #require(log.firstIndex(of: "CoreData: sql: SELECT \(row) WHERE  t0.Z_PK = ?"), "\(log)")
        let uuid = StoreRegistry.uuid(of: ids[0].store)
        #expect(
            Array(log[(fault + 1)...]) == [
                "CoreData: annotation: sql connection fetch time: #s.",
                "CoreData: annotation: total fetch execution time: #s for 1 rows.",
                "CoreData: annotation: fault fulfilled from database for : <x-coredata://\(uuid)/Expense/p\(ids[0].primaryKey!)>",
            ], "\(log)")
    }

    /// A fetch and a count are annotated as Core Data annotates them; a connection that is not
    /// the engine's (the verifier's, a raw SQLite strategy's) is never tagged `CoreData:`.
    @Test func fetchesCountsAndOtherConnections() throws {
        let container = try makeContainer(counters: StatementCounters(keepsSQLLog: true))
        let context = container.newBackgroundContext()
        try seedExpenses(context, count: 5, categories: 2)
        _ = container.counters.takeSQLLog()
        try context.performAndWait {
            _ = try context.fetch(FetchRequest(entityName: "Expense"))
            _ = try context.count(for: FetchRequest(entityName: "Expense"))
        }
        let log = Self.normalized(container.counters.takeSQLLog())
        #expect(
            log.contains("CoreData: annotation: sql connection fetch time: #s.")
                && log.contains("CoreData: annotation: total fetch execution time: #s for 5 rows."), "\(log)")
        #expect(log.contains("CoreData: annotation: total count request execution time: #s for count of 5."), "\(log)")
        let counters = StatementCounters(keepsSQLLog: true)
        let other = try Database(path: container.path, counters: counters)
        _ = try other.scalarInt("SELECT count(*) FROM ZEXPENSE")
        let theirs = Self.normalized(counters.takeSQLLog())
        #expect(
            theirs == [
                "loadgen: sql: SELECT count(*) FROM ZEXPENSE",
                "loadgen: annotation: total count request execution time: #s for count of 5.",
            ], "\(theirs)")
    }
}
