import Foundation
import Testing

/// No wrong exit 0 (issue 45, "wrong answers"): a question that cannot be answered as asked is
/// refused before it runs, and a result that contradicts itself is refused when read.
@Suite(.serialized) struct RefusedBeforeAWrongAnswerTests {
    // MARK: Wrong answers

    /// 4. A fraction that targets no stored record is refused before anything runs: it would
    /// measure nothing and call it ok.
    @Test func aFractionThatTargetsNoRecordIsRefused() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/r.csv"
        let r = try await CLI.run(
            [
                "run", "--operation", "update", "--strategy", "all", "--rows", "10", "--fraction", "0.01",
                "--out", out,
            ], tmpdir: dir)
        #expect(
            r.status == 64 && r.stderr.contains("--fraction 0.0100 of 10 stored records targets none")
                && r.stderr.contains("--fraction 0.1000"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let one = try await CLI.run(
            [
                "run", "--operation", "update", "--strategy", "fetch-update", "--rows", "10", "--fraction", "0.1",
                "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(one.status == 0, "\(one.stderr)")
    }

    /// 5. An abstract parent holding a uniqueness constraint: every strategy on its concrete
    /// sub-entity, raw-sqlite included (the inherited constraint is the store's, so its INSERT
    /// ignores the repeats: decision 0039), gives its verdict with vs_limit.
    @Test func anInheritedConstraintRunsEveryStrategy() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/r.csv"
        let model = ModelCommandTests.model(
            """
            <model><entity name="Item" isAbstract="YES"><attribute name="sku" attributeType="String"/>\
            <attribute name="title" attributeType="String"/><uniquenessConstraints><uniquenessConstraint><constraint value="sku"/>\
            </uniquenessConstraint></uniquenessConstraints></entity>\
            <entity name="Book" parentEntity="Item"><attribute name="pages" attributeType="Integer 32" defaultValueString="0"/></entity></model>
            """, in: dir)
        let r = try await CLI.run(
            [
                "run", "--model", model, "--entity", "Book", "--dup-rate", "0.2", "--rows", "300",
                "--strategy", "raw-sqlite,batch,context-reset", "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(
            rows.count == 3 && rows.allSatisfy { $0["status"] == "ok" && !($0["vs_limit"] ?? "").isEmpty }, "\(rows)")
        #expect(rows.first { $0["strategy"] == "raw-sqlite" }?["duplicates"] == "0")
        #expect(rows.first { $0["strategy"] == "raw-sqlite" }?["store_rows"] == "240")
    }

    /// 6. A file-size limit met by the WAL index (SQLite 4874, IOERR_SHMSIZE) is the
    /// environment's failure: exit 74, said as such.
    @Test func aWALIndexThatCannotGrowIsTheEnvironment() async throws {
        let dir = CLI.makeFolder()
        let r = try await CLI.run(
            ["run", "--strategy", "batch", "--rows", "300", "--out", dir + "/r.csv"], tmpdir: dir,
            limits: ["--fsize=20000"])
        #expect(r.status == 74 && r.stderr.contains("failed on the environment, not the strategy"), "\(r.stderr)")
    }

    /// 7. `ab` with too few pairs for its test to flag anything fails (2), saying how many (6: wall
    /// and CPU time are two tests, each at 0.025).
    @Test func anABThatCouldNotJudgeFails() async throws {
        let dir = CLI.makeFolder()
        let suite = dir + "/s.suite"
        try "--strategy batch --rows 200\n".write(toFile: suite, atomically: true, encoding: .utf8)
        let r = try await CLI.run(
            ["ab", "--base", CLI.binary, "--suite", suite, "--out", dir + "/ab", "--rounds", "1"], tmpdir: dir)
        #expect(
            r.status == 2 && r.stderr.contains("could not be judged") && r.stderr.contains("--rounds 6 or more"),
            "\(r.stderr)")
    }

    /// 8. New results holding only the baseline's runs (a misconfigured path) are refused (64).
    @Test func compareRefusesTheBaselineAsTheNewResults() async throws {
        let base = try await ReplacesOnlyItsOwnTests.fixture.get()
        let r = try await CLI.run(["compare", base.path, base.path])
        #expect(
            r.status == 64 && r.stderr.contains("holds no run the baseline") && r.stderr.contains("does not"),
            "\(r.stderr)")
        let renamed = try base.write("new.csv")
        #expect(try await CLI.run(["compare", base.path, renamed]).status == 0)
    }

    /// 9. An impossible calendar date is refused with its record and byte, not moved to the
    /// next month; 29 February of a leap year is a date.
    @Test func anImpossibleDateIsRefused() async throws {
        let dir = CLI.makeFolder()
        let feed = dir + "/f.ndjson"
        func run(_ date: String) async throws -> CLI.Result {
            try
                (#"{"id": "a", "amount": 1.5, "date": "2025-01-01T00:00:00Z", "note": "n", "categoryName": "c"}"# + "\n"
                + #"{"id": "b", "amount": 2.5, "date": "\#(date)", "note": "n", "categoryName": "c"}"# + "\n")
                .write(toFile: feed, atomically: true, encoding: .utf8)
            return try await CLI.run(
                ["run", "--input", feed, "--strategy", "batch", "--out", dir + "/r.csv", "--quiet"], tmpdir: dir)
        }
        for bad in ["2025-02-30T08:47:02Z", "2025-04-31", "2023-02-29T00:00:00Z"] {
            let r = try await run(bad)
            #expect(
                r.status == 65 && r.stderr.contains("record 2 (byte") && r.stderr.contains("is not a date: \"\(bad)\""),
                "\(bad): \(r.stderr)")
        }
        #expect(try await run("2024-02-29T12:00:00Z").status == 0)
    }

    /// 10. A row whose own figures contradict its status (ok with lost keys, or a damaged file)
    /// is refused when read, with its file and line.
    @Test func aRowThatContradictsItsStatusIsRefused() async throws {
        let base = try await ReplacesOnlyItsOwnTests.fixture.get()
        let lost = try base.write("lost.csv") { row in if row["strategy"] == "batch" { row["lost"] = "900" } }
        let r = try await CLI.run(["report", lost, "--out", base.dir + "/review-lost"])
        #expect(
            r.status == 65 && r.stderr.contains("lost.csv:") && r.stderr.contains("status ok with lost 900"),
            "\(r.stderr)")
        let damaged = try base.write("damaged.csv") { row in row["integrity"] = "*** in database main ***" }
        let d = try await CLI.run(["compare", base.path, damaged])
        #expect(d.status == 65 && d.stderr.contains("damaged.csv:2: status ok with integrity"), "\(d.stderr)")
    }

    /// 14. `ab --base` naming a program that is not loadgen is refused before any round.
    @Test func abChecksTheBaseBinaryFirst() async throws {
        let dir = CLI.makeFolder()
        let suite = dir + "/s.suite"
        try "--strategy batch --rows 200\n".write(toFile: suite, atomically: true, encoding: .utf8)
        let r = try await CLI.run(["ab", "--base", "/bin/false", "--suite", suite, "--out", dir + "/ab"], tmpdir: dir)
        #expect(r.status == 66 && r.stderr.contains("--base /bin/false is not a loadgen"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/ab/base"))
    }
}
