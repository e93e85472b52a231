import Foundation
import SQLiteKit
import Testing

@testable import Report

/// The verifier's findings decide a repetition's status.
@Suite struct VerdictTests {
    func verification(
        lost: Int = 0, duplicates: Int = 0, badLinks: Int = 0, integrity: String = "ok",
        unexpected: Int = 0
    ) -> Verification {
        var v = Verification(
            storeRows: 10, duplicates: duplicates, lost: lost, badLinks: badLinks, integrity: integrity,
            storeBytes: 1)
        v.unexpectedRows = unexpected
        return v
    }

    @Test func aWholeStoreHasNoProblems() {
        #expect(verification().problems(.complete).isEmpty)
    }

    @Test func everyFindingIsAProblemForTheFullIdiom() {
        #expect(verification(lost: 2).problems(.complete) == ["2 lost keys"])
        #expect(verification(badLinks: 1).problems(.complete) == ["1 bad link"])
        #expect(
            verification(integrity: "row 3 missing from index").problems(.complete)
                == ["integrity check: row 3 missing from index"])
        #expect(verification(unexpected: 1).problems(.complete) == ["1 row with a key the workload never produced"])
        #expect(verification(duplicates: 4).problems(.complete) == ["4 duplicates where the strategy promises none"])
    }

    /// What a strategy does not promise is not held against it; what every strategy must do is.
    @Test func promisesDecideWhatCounts() {
        let bare = StoreExpectations(uniqueKeys: false, linked: false)
        #expect(verification(duplicates: 4, badLinks: 10).problems(bare).isEmpty)
        #expect(verification(lost: 1, duplicates: 4).problems(bare) == ["1 lost key"])
        #expect(verification(duplicates: 4).problems(StoreExpectations(uniqueKeys: false)).isEmpty)
    }

    @Test func failingKeepsTheFirstStatusAndJoinsTheReasons() {
        var m = RunMeasurement(status: .ok)
        m.fail("left 2 SQLite connections open")
        m.fail("verifier: 1 lost key")
        #expect(m.status == .failed && m.error == "left 2 SQLite connections open; verifier: 1 lost key")
        var crashed = RunMeasurement(status: .crashed)
        crashed.fail("x")
        #expect(crashed.status == .crashed)
    }
}

/// The verifier on stores built by hand.
@Suite struct VerifierFindingsTests {
    func store(_ rows: [(key: String?, category: Int?)]) throws -> String {
        let path = NSTemporaryDirectory() + "verify-\(UUID().uuidString).sqlite"
        let db = try Database(path: path)
        try db.execute(
            """
            CREATE TABLE ZCATEGORY (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR);
            CREATE TABLE ZEXPENSE (Z_PK INTEGER PRIMARY KEY, ZCATEGORY INTEGER, ZEXTERNALID VARCHAR);
            INSERT INTO ZCATEGORY VALUES (1, 'food'), (2, 'rent');
            """)
        let insert = try db.prepare("INSERT INTO ZEXPENSE (ZCATEGORY, ZEXTERNALID) VALUES (?, ?)")
        for row in rows {
            if let c = row.category { insert.bind(c, at: 1) } else { insert.bindNull(at: 1) }
            if let k = row.key { insert.bind(k, at: 2) } else { insert.bindNull(at: 2) }
            try insert.run()
        }
        return path
    }

    func verify(_ path: String, expected: [(String, String)]) throws -> Verification {
        let layout = StoreVerifier.Layout.expenses
        return try StoreVerifier(path: path, layout: layout).verify { sink in
            for (key, parent) in expected {
                try sink {
                    $0.bind(key, at: 1)
                    $0.bind(parent, at: 2)
                }
            }
        }
    }

    /// Rows without a key are not duplicates of each other: they are rows the workload never
    /// produced, and so are rows with keys it never made.
    @Test func nullAndForeignKeysAreUnexpectedNotDuplicates() throws {
        let path = try store([("a", 1), (nil, 1), (nil, 2), ("zz", 2), ("b", 2), ("b", 2)])
        let v = try verify(path, expected: [("a", "food"), ("b", "rent")])
        #expect(v.storeRows == 6)
        #expect(v.duplicates == 1)   // b twice; the NULL keys are not counted
        #expect(v.unexpectedRows == 3)   // two without a key, one with "zz"
        #expect(v.lost == 0 && v.badLinks == 0)
        #expect(
            v.problems(.complete) == [
                "3 rows with a key the workload never produced",
                "1 duplicate where the strategy promises none",
            ])
    }

    @Test func aRecordWithoutItsParentIsABadLink() throws {
        let path = try store([("a", 1), ("b", nil)])
        let v = try verify(path, expected: [("a", "food"), ("b", "rent"), ("c", "food")])
        #expect(v.badLinks == 1 && v.lost == 1)
        #expect(v.problems(.complete) == ["1 lost key", "1 bad link"])
    }
}
