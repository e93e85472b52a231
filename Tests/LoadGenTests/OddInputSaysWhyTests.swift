import Foundation
import Testing

/// Odd input is refused or handled, never crashed on (issue 45, "crash and hang", "late checks",
/// "messages"): each message names what is wrong and what to type, with its exit code.
@Suite(.serialized) struct OddInputSaysWhyTests {
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
            let feed = try ModelsAsUntrustedInputTests.feed(lines, in: dir)
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
            "export", try await ReplacesOnlyItsOwnTests.fixture.get().path, "--format", "bmf", "--out", long + ".json",
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
        let base = try await ReplacesOnlyItsOwnTests.fixture.get()
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
        let base = try await ReplacesOnlyItsOwnTests.fixture.get()
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
        let podcasts = ModelsAsUntrustedInputTests.podcasts
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
        let base = try await ReplacesOnlyItsOwnTests.fixture.get()
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
