import Foundation
import Testing

/// Reliability, round 5 (issue 45): no wrong exit 0, no crash on odd input, files read as
/// what they say. One test per item, named after what must hold; each failed on the code before
/// its fix. Item numbers are the issue's.
@Suite(.serialized) struct ReliabilityRound5Tests {
    /// A real results file (batch with its limit), made once, and edited copies of it.
    static let fixture = ResultsFixture.make(["--strategy", "batch", "--rows", "600"], name: "base.csv")

    // MARK: Data loss

    /// 1. `--store` replaces only a store loadgen wrote: a plain database holding the word
    /// Z_METADATA, and a Core Data store an app wrote (Z_METADATA without loadgen's mark), are
    /// refused (73) naming the file, and left as they were; loadgen's own store is replaced.
    @Test func theStoreReplacesOnlyLoadgensOwnStores() async throws {
        let dir = CLI.makeFolder()
        let plain = dir + "/plain.sqlite"
        let app = dir + "/app.sqlite"
        let own = dir + "/own.sqlite"
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE t(x)"); c.execute("INSERT INTO t VALUES ('Z_METADATA')"); c.commit()
            c = sqlite3.connect(sys.argv[2])
            c.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
            c.execute("INSERT INTO Z_METADATA VALUES (1, 'A1B2', x'62706c6973743030')"); c.commit()
            """, plain, app,
        ]
        try python.run()
        await CLI.exit(of: python)
        for path in [plain, app] {
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let r = try await CLI.run(
                ["run", "--strategy", "batch", "--rows", "100", "--no-limit", "--store", path, "--quiet"], tmpdir: dir)
            #expect(
                r.status == 73 && r.stderr.contains("--store \(path) exists and is not a store loadgen wrote"),
                "\(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            #expect(
                !FileManager.default.fileExists(atPath: path + "-wal")
                    && !FileManager.default.fileExists(atPath: path + "-shm"))
        }
        for rows in ["100", "200"] {
            let r = try await CLI.run(
                ["run", "--strategy", "batch", "--rows", rows, "--no-limit", "--store", own, "--quiet"], tmpdir: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
    }

    /// 2. `export --out` replaces only its own output: a results file reached through a hard
    /// link is refused (73) and kept; an export of the same format is replaced.
    @Test func exportReplacesOnlyItsOwnOutput() async throws {
        let base = try await Self.fixture.get()
        let linked = base.dir + "/linked.json"
        let copy = base.dir + "/copy.csv"
        try FileManager.default.copyItem(atPath: base.path, toPath: copy)
        try FileManager.default.linkItem(atPath: copy, toPath: linked)
        let before = try Data(contentsOf: URL(fileURLWithPath: copy))
        let r = try await CLI.run(["export", base.path, "--format", "bmf", "--out", linked])
        #expect(
            r.status == 73 && r.stderr.contains("--out \(linked) exists and is not bmf output export wrote"),
            "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
        for format in ["bmf", "github-smaller-is-better", "json", "markdown", "summary-csv"] {
            let out = base.dir + "/again." + format
            for _ in 0..<2 {
                let e = try await CLI.run(["export", base.path, "--format", format, "--out", out])
                #expect(e.status == 0, "\(format): \(e.stderr)")
            }
        }
    }

    /// 3. `ab --out DIR` (and `--judge`) refuse a DIR/ab.md the user wrote, before any round.
    @Test func abKeepsAnABPageItDidNotWrite() async throws {
        let dir = CLI.makeFolder()
        let suite = dir + "/s.suite"
        let out = dir + "/ab"
        try "--strategy batch --rows 200\n".write(toFile: suite, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try "my notes on the last A/B\n".write(toFile: out + "/ab.md", atomically: true, encoding: .utf8)
        for arguments in [["--base", CLI.binary, "--suite", suite], ["--judge"]] {
            let r = try await CLI.run(["ab"] + arguments + ["--out", out, "--rounds", "1"], tmpdir: dir)
            #expect(r.status == 73 && r.stderr.contains("ab.md exists and is not a file loadgen wrote"), "\(r.stderr)")
        }
        #expect(try String(contentsOfFile: out + "/ab.md", encoding: .utf8) == "my notes on the last A/B\n")
        #expect(!FileManager.default.fileExists(atPath: out + "/base"))
    }

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
        let base = try await Self.fixture.get()
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
        let base = try await Self.fixture.get()
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

    // MARK: Crash and hang

    /// 11. `--payload-bytes 0` (the help allows 0) stores empty values, in a run and a file.
    @Test func emptyPayloadsWork() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/r.csv"
        let r = try await CLI.run(
            [
                "run", "--dataset", "photos", "--add-constraint", "remoteURL", "--strategy", "batch,context-reset",
                "--rows", "100", "--payload-bytes", "0", "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLI.rows(out).allSatisfy { $0["status"] == "ok" })
        let g = try await CLI.run([
            "generate", "--dataset", "photos", "--rows", "5", "--payload-bytes", "0", "--out", dir + "/p.ndjson",
        ])
        #expect(g.status == 0, "\(g.stderr)")
        #expect(try String(contentsOfFile: dir + "/p.ndjson", encoding: .utf8).contains(#""imageData": """#))
    }

    /// 12. A FIFO with no writer, or a pipe, given as --input is refused up front (66) naming
    /// why: it would hang, or read as empty the second time.
    @Test func aPipeAsInputIsRefusedUpFront() async throws {
        let dir = CLI.makeFolder()
        let fifo = dir + "/feed.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let r = try await CLI.run(
            ["run", "--input", fifo, "--strategy", "batch", "--out", dir + "/r.csv"], tmpdir: dir)
        #expect(
            r.status == 66 && r.stderr.contains("--input \(fifo): is a pipe or a device")
                && r.stderr.contains("save it to a file"),
            "\(r.stderr)")
        let piped = Process()
        piped.executableURL = URL(fileURLWithPath: "/bin/bash")
        piped.arguments = [
            "-c",
            #"echo '{"id": "a", "amount": 1, "date": 0, "note": "n", "categoryName": "c"}' | "$0" run --input /dev/stdin "#
                + #"--strategy batch --out "$1" 2> "$2""#, CLI.binary, dir + "/p.csv", dir + "/p.err",
        ]
        try piped.run()
        await CLI.exit(of: piped)
        let said = try String(contentsOfFile: dir + "/p.err", encoding: .utf8)
        #expect(piped.terminationStatus == 66 && said.contains("--input /dev/stdin: is a pipe or a device"), "\(said)")
    }

    /// 13. A one-to-one feed where two records name the same related object is refused when
    /// read (65), naming both records; a repeated record may name it again.
    @Test func aOneToOneFeedNamingOneObjectTwiceIsRefused() async throws {
        let dir = CLI.makeFolder()
        let model = ModelCommandTests.model(
            """
            <model><entity name="Episode"><attribute name="guid" attributeType="String"/>\
            <relationship name="transcript" optional="YES" maxCount="1" destinationEntity="Transcript" inverseName="episode" \
            inverseEntity="Transcript"/><uniquenessConstraints><uniquenessConstraint><constraint value="guid"/></uniquenessConstraint>\
            </uniquenessConstraints></entity><entity name="Transcript"><attribute name="url" attributeType="String"/>\
            <relationship name="episode" optional="YES" maxCount="1" destinationEntity="Episode" inverseName="transcript" \
            inverseEntity="Episode"/><uniquenessConstraints><uniquenessConstraint><constraint value="url"/></uniquenessConstraint>\
            </uniquenessConstraints></entity></model>
            """, in: dir)
        func run(_ lines: [String]) async throws -> CLI.Result {
            let feed = try ReliabilityRound4Tests.feed(lines, in: dir)
            return try await CLI.run(
                [
                    "run", "--model", model, "--entity", "Episode", "--input", feed, "--strategy",
                    "batch,context-reset",
                    "--out", dir + "/r.csv", "--quiet",
                ], tmpdir: dir)
        }
        let twice = try await run([
            #"{"guid": "a", "transcriptUrl": "t1"}"#, #"{"guid": "b", "transcriptUrl": "t2"}"#,
            #"{"guid": "c", "transcriptUrl": "t1"}"#,
        ])
        #expect(
            twice.status == 65
                && twice.stderr.contains("record 3: names the same Transcript (by transcriptUrl) as record 1"),
            "\(twice.stderr)")
        let repeated = try await run([
            #"{"guid": "a", "transcriptUrl": "t1"}"#, #"{"guid": "a", "transcriptUrl": "t1"}"#,
        ])
        #expect(repeated.status == 0, "\(repeated.stderr)")
    }

    // MARK: Late checks

    /// 15. An output name too long for the files loadgen writes beside it is refused before
    /// anything runs (64), for every output; nothing is created.
    @Test func anOutputNameTooLongForItsNeighboursIsRefusedFirst() async throws {
        let dir = CLI.makeFolder()
        let long = dir + "/" + String(repeating: "n", count: 240)
        for flag in ["--out", "--store", "--markdown", "--summary-csv", "--timeline"] {
            let r = try await CLI.run(
                ["run", "--strategy", "batch", "--rows", "100", flag, long + ".x", "--quiet"], tmpdir: dir)
            #expect(
                r.status == 64 && r.stderr.contains("\(flag) \(long).x: the file name is 242 bytes")
                    && r.stderr.contains("at most"),
                "\(flag): \(r.stderr)")
        }
        let e = try await CLI.run([
            "export", try await Self.fixture.get().path, "--format", "bmf", "--out", long + ".json",
        ])
        #expect(e.status == 64 && e.stderr.contains("the file name is 245 bytes"), "\(e.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir).allSatisfy {
                !$0.hasPrefix("nnn") && !$0.hasPrefix(".nnn")
            })
    }

    // MARK: Messages

    /// 20. export meets a full disk as every command does (74, said), and `--out dir/` or a
    /// missing folder is named as such.
    @Test func exportSaysWhatWentWrongWithItsFile() async throws {
        let base = try await Self.fixture.get()
        let full = try await CLI.run(
            ["export", base.path, "--format", "json", "--out", base.dir + "/full.json"], limits: ["--fsize=100"])
        #expect(
            full.status == 74 && full.stderr.contains("the disk filled or a file-size limit was met"), "\(full.stderr)")
        #expect(!FileManager.default.fileExists(atPath: base.dir + "/full.json"))
        let folder = try await CLI.run(["export", base.path, "--format", "json", "--out", base.dir + "/"])
        #expect(folder.status == 64 && folder.stderr.contains("names a folder; give a file name"), "\(folder.stderr)")
        let missing = try await CLI.run([
            "export", base.path, "--format", "json", "--out", base.dir + "/nowhere/x.json",
        ])
        #expect(
            missing.status == 73 && missing.stderr.contains("the folder \(base.dir)/nowhere does not exist"),
            "\(missing.stderr)")
    }

    /// 16. A strategy name edited into a results file with a line break or a `|` (which would
    /// break review.md's headings and tables) is refused when read; ab's labels, typed by the
    /// user, are escaped in ab.md.
    @Test func namesThatWouldBreakMarkdownAreRefusedOrEscaped() async throws {
        let base = try await Self.fixture.get()
        for name in ["batch\n## injected", "batch | x"] {
            let edited = try base.write("name.csv") { row in if row["strategy"] == "batch" { row["strategy"] = name } }
            let r = try await CLI.run(["report", edited, "--out", base.dir + "/review-name"])
            #expect(
                r.status == 65 && r.stderr.contains("strategy:") && r.stderr.contains("is not a strategy name"),
                "\(r.stderr)")
        }
        let dir = CLI.makeFolder()
        let suite = dir + "/s.suite"
        let out = dir + "/ab"
        try "--strategy batch --rows 200\n".write(toFile: suite, atomically: true, encoding: .utf8)
        _ = try await CLI.run(
            [
                "ab", "--base", CLI.binary, "--suite", suite, "--out", out, "--rounds", "1",
                "--base-label", "v1 | old\n## x", "--new-label", "v2",
            ], tmpdir: dir)
        let page = try String(contentsOfFile: out + "/ab.md", encoding: .utf8)
        #expect(page.contains("v2 against v1 \\| old \\#\\# x,") && !page.contains("\n## x"), "\(page)")
    }

    /// 17. A shard past the suite's configurations says it is empty.
    @Test func anEmptyShardSaysSo() async throws {
        let dir = CLI.makeFolder()
        let suite = dir + "/two.suite"
        let out = dir + "/r.csv"
        try "--strategy batch --rows 100\n--strategy prefetch --rows 100\n".write(
            toFile: suite, atomically: true, encoding: .utf8)
        let r = try await CLI.run(["run", "--suite", suite, "--shard", "5/10", "--out", out], tmpdir: dir)
        #expect(
            r.status == 0 && r.stderr.contains("--shard 5/10 is empty: the run has 2 configurations"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// 18. One numbering: a feed's first record is record 1 wherever its error is found (the
    /// format's sniffing read it before the records were counted, and said "record 0").
    @Test func theFirstRecordIsRecordOneInEveryError() async throws {
        let dir = CLI.makeFolder()
        for (name, text) in [("cut.ndjson", #"{"amount": 1,"#), ("typed.ndjson", #"{"amount": "x", "id": "a"}"#)] {
            try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
            let r = try await CLI.run(
                ["run", "--input", dir + "/" + name, "--strategy", "batch", "--out", dir + "/o.csv", "--quiet"],
                tmpdir: dir)
            #expect(
                r.status == 65 && r.stderr.contains("\(name): record 1 (byte") && !r.stderr.contains("record 0"),
                "\(r.stderr)")
        }
    }

    /// 19. A nested feed's error in the element holding the records names the member as the
    /// file writes it, at the element's pointer, not a field the file does not have under a
    /// record's number.
    @Test func aHoldersMemberIsNamedAsWritten() async throws {
        let dir = CLI.makeFolder()
        let feed = dir + "/apps.json"
        let version =
            #"{"appBundleID": "x", "version": "1", "buildVersion": "1", "sourceID": "s", "date": "2025-01-01T00:00:00Z", "#
            + #""downloadURL": "https://example.com/a", "size": 3}"#
        try (#"{"apps": [{"bundleIdentifier": 7, "sourceIdentifier": "s", "versions": ["# + version + "]}]}")
            .write(toFile: feed, atomically: true, encoding: .utf8)
        let r = try await CLI.run(
            [
                "run", "--model", Self.altStore, "--entity", "AppVersion", "--relationship", "app", "--input", feed,
                "--input-path", "/apps/*/versions", "--strategy", "batch", "--out", dir + "/o.csv", "--quiet",
            ], tmpdir: dir)
        #expect(
            r.status == 65 && r.stderr.contains(#"/apps/0: member "bundleIdentifier" must be a string, found a number"#)
                && !r.stderr.contains("appBundleIdentifier") && !r.stderr.contains("record 0"), "\(r.stderr)")
    }

    /// 23. Each of these names what is wrong and what to type, with its exit code.
    @Test func oddFlagsAndFilesSayWhatIsWrong() async throws {
        let dir = CLI.makeFolder()
        let podcasts = ReliabilityRound4Tests.podcasts
        try Data([0x2D, 0x2D, 0x72, 0x6F, 0x77, 0x73, 0x20, 0x31, 0x30, 0x0A, 0xFF, 0xFE]).write(
            to: URL(fileURLWithPath: dir + "/latin.suite"))
        try #"{"apps": [{"bundleIdentifier": "b", "sourceIdentifier": "s", "versions": []}]}"#
            .write(toFile: dir + "/apps.json", atomically: true, encoding: .utf8)
        let model = ["--model", podcasts, "--entity", "Episode", "--strategy", "batch", "--rows", "10"]
        let feed = [
            "--model", Self.altStore, "--entity", "AppVersion", "--relationship", "app", "--input", dir + "/apps.json",
            "--strategy", "batch",
        ]
        let cases: [([String], Int32, String)] = [
            (
                model + ["--key", "guid,guid"], 64,
                "--key: 'guid,guid' is not accepted; expects attribute names, comma-separated, each once"
            ),
            (
                model + ["--relationship", "podcast."], 64,
                "--relationship: 'podcast.' is not accepted; expects NAME, NAME:ENTITY, NAME.KEY"
            ),
            (["--suite", dir + "/latin.suite"], 65, "latin.suite: byte 11 is not UTF-8 text"),
            (
                feed + ["--input-path", "/apps/0/versions"], 65,
                "/apps is an array, and loadgen reads every element of one, not element 0: "
                    + "give /apps/*/versions"
            ),
            (
                feed + ["--input-path", "/apps/~2x"], 64,
                #""~2x" has a '~' that is no escape: in a JSON Pointer ~0 stands for '~'"#
            ),
        ]
        for (arguments, status, mentions) in cases {
            let r = try await CLI.run(["run"] + arguments + ["--out", dir + "/o.csv", "--quiet"], tmpdir: dir)
            #expect(r.status == status && r.stderr.contains(mentions), "\(arguments): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/o.csv"))
        }
    }

    static let altStore = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Corpus/AltStore/AltStore 17.xcdatamodel").standardizedFileURL.path

    /// 21. A header repeated mid-file (two files joined with cat) is named as such.
    @Test func aRepeatedHeaderIsNamed() async throws {
        let base = try await Self.fixture.get()
        let text = try String(contentsOfFile: base.path, encoding: .utf8)
        let header = text.prefix { $0 != "\r\n" && $0 != "\n" }
        let joined = base.dir + "/joined.csv"
        try (text + header + "\r\n" + text.drop { $0 != "\r\n" && $0 != "\n" }.dropFirst()).write(
            toFile: joined, atomically: true,
            encoding: .utf8)
        let line = text.split(whereSeparator: \.isNewline).count + 1
        let r = try await CLI.run(["report", joined, "--out", base.dir + "/review-joined"])
        #expect(
            r.status == 65 && r.stderr.contains("joined.csv:\(line): the header is repeated at line \(line)"),
            "\(r.stderr)")
    }
}
