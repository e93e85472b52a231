import Foundation
import Testing

/// A model file or a feed is untrusted input (issue 27): its names never reach SQL, its keys are
/// read exactly and kept within its limits, and an odd model, size or path is refused in one
/// line instead of crashed on; a model of thousands of entities runs.
@Suite(.serialized) struct ModelsAsUntrustedInputTests {
    static let podcasts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../examples/Podcasts.xcdatamodeld").standardized.path

    /// The probe's injection: an attribute whose name ends one statement and starts others. It is
    /// refused where the file says it, exit 65, before any repetition: no PWNED.DB, no row.
    @Test func aModelsNamesNeverReachSQL() async throws {
        let dir = CLI.makeFolder()
        let evil = "x VARCHAR); ATTACH DATABASE 'PWNED.DB' AS P; CREATE TABLE P.T(X); --"
        let text = ModelCommandTests.loose.replacingOccurrences(of: #"name="title""#, with: "name=\"\(evil)\"")
        let model = ModelCommandTests.model(text, in: dir)
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            [
                "run", "--model", model, "--entity", "Post", "--strategy", "one-writer,raw-sqlite", "--rows", "100",
                "--out", out,
            ], tmpdir: dir, cwd: dir)
        #expect(r.status == 65 && r.stderr.contains("contents:5: Post: property name \"x VARCHAR);"), "\(r.stderr)")
        #expect(r.stderr.contains("may hold only letters, digits and underscores"))
        #expect(
            !FileManager.default.fileExists(atPath: dir + "/PWNED.DB") && !FileManager.default.fileExists(atPath: out))
    }

    /// A to-one found by an attribute its destination does not keep unique, while another one
    /// is: refused when the roles are read, naming the constrained key, nothing run.
    @Test func aRelatedObjectIsFoundByItsConstrainedKey() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            [
                "run", "--model", Self.podcasts, "--entity", "Episode", "--relationship", "podcast.title",
                "--rows", "200", "--out", out,
            ], tmpdir: dir)
        #expect(
            r.status == 64 && r.stderr.contains("Podcast is kept unique by feedURL, not title")
                && r.stderr.contains("--relationship podcast.feedURL"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    static func feed(_ lines: [String], in dir: String) throws -> String {
        let path = dir + "/feed.ndjson"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func expense(_ id: String, _ category: String, amount: String = "1.5") -> String {
        #"{"id": "\#(id)", "amount": \#(amount), "date": "2025-01-01T00:00:00Z", "note": "x", "categoryName": "\#(category)"}"#
    }

    /// A feed whose repeated key changes category: each idiom keeps the copy its merge keeps
    /// (batch the first, find-or-create and upsert the last), and every one is ok (item 4).
    /// Keys that differ only in Unicode normalisation are two keys, as SQLite and Core Data
    /// see them (item 5).
    @Test func repeatsAndNormalisationAreVerifiedAsEachIdiomMerges() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let feed = try Self.feed(
            [
                Self.expense("a", "c1"), Self.expense("b", composed), Self.expense("a", "c2"),
                Self.expense("n\u{E9}", decomposed), Self.expense("ne\u{301}", composed),
            ], in: dir)
        for batchSize in ["1000", "1"] {
            let r = try await CLI.run(
                ["run", "--strategy", "all", "--input", feed, "--batch-size", batchSize, "--out", out, "--quiet"],
                tmpdir: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let rows = try CLI.rows(out)
        #expect(rows.count == 36)
        for row in rows where row["strategy"] != "batch-insert-only" {
            #expect(row["status"] == "ok" && row["bad_links"] == "0" && row["lost"] == "0", "\(row)")
            let deduplicates = !["raw-sqlite", "many-writers", "find-or-create-writers"].contains(row["strategy"]!)
            if deduplicates { #expect(row["store_rows"] == "4", "\(row)") }
        }
    }

    static let numbers = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Item" syncable="YES">
                <attribute name="id" attributeType="Integer 64"/>
                <attribute name="small" optional="YES" attributeType="Integer 16"/>
                <attribute name="size" optional="YES" attributeType="Double"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="id"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
        </model>
        """

    /// Integers are read from their digits, never through a double (items 3, 11); a value the
    /// type cannot hold is refused with its record (9, 22); a model's Double takes 1e15 (27); a
    /// byte-order mark is skipped (22).
    @Test func integersAreReadExactly() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let model = ModelCommandTests.model(Self.numbers, in: dir)
        func run(_ lines: [String], bom: Bool = false) async throws -> CLI.Result {
            let path = try Self.feed(lines, in: dir)
            if bom {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                try (Data([0xEF, 0xBB, 0xBF]) + data).write(to: URL(fileURLWithPath: path))
            }
            return try await CLI.run(
                [
                    "run", "--model", model, "--input", path, "--strategy", "batch,context-reset", "--out", out,
                    "--quiet",
                ],
                tmpdir: dir)
        }
        let exact = try await run(
            [
                #"{"id": 9007199254740993, "size": 1e15}"#, #"{"id": 9007199254740992}"#,
                #"{"id": 9007199254740994, "small": -32768}"#, #"{"id": 9223372036854775807}"#,
                #"{"id": -9223372036854775808}"#,
            ], bom: true)
        #expect(exact.status == 0, "\(exact.stderr)")
        for row in try CLI.rows(out) {
            #expect(row["status"] == "ok" && row["unique_keys"] == "5" && row["store_rows"] == "5", "\(row)")
        }
        let tooBig = try await run([#"{"id": 1}"#, #"{"id": 9223372036854775808}"#])
        #expect(
            tooBig.status == 65 && tooBig.stderr.contains("record 2")
                && tooBig.stderr.contains(
                    #"field "id" is 9223372036854775808, outside what an Integer 64 attribute holds"#),
            "\(tooBig.stderr)")
        let small = try await run([#"{"id": 1, "small": 40000}"#])
        #expect(
            small.status == 65
                && small.stderr.contains(
                    #"field "small" is 40000, outside what an Integer 16 attribute holds (-32768 … 32767)"#),
            "\(small.stderr)")
        let fraction = try await run([#"{"id": 1.5}"#])
        #expect(fraction.status == 65 && fraction.stderr.contains("not a whole number"), "\(fraction.stderr)")
    }

    /// Odd sizes, words and paths: one line naming the flag or the file and why, never a trap,
    /// never a silent replace (items 2, 8, 12, 21, 22, 23, 25).
    @Test func oddInputIsOneLineThatSaysWhy() async throws {
        let dir = CLI.makeFolder()
        let package = dir + "/package.json"
        try #"{"name": "app", "version": "1.0"}"#.write(toFile: package, atomically: true, encoding: .utf8)
        let generate = try await CLI.run(["generate", "--rows", "10", "--out", package], tmpdir: dir)
        #expect(
            generate.status == 73 && generate.stderr.contains("is not an import file of these records"),
            "\(generate.stderr)")
        #expect(try String(contentsOfFile: package, encoding: .utf8).contains("version"))
        let again = dir + "/e.json"
        #expect(try await CLI.run(["generate", "--rows", "10", "--out", again], tmpdir: dir).status == 0)
        #expect(
            try await CLI.run(["generate", "--rows", "20", "--out", again], tmpdir: dir).status == 0,
            "an earlier generate is replaced")
        let model = ModelCommandTests.model(ModelCommandTests.loose, in: dir)
        let length = try await CLI.run(
            ["run", "--model", model, "--entity", "Post", "--string-length", "-1-5", "--rows", "10"], tmpdir: dir)
        #expect(length.status == 64 && length.stderr.contains("--string-length"), "\(length.stderr)")
        for size in ["1e30", "1e19"] {
            let rss = try await CLI.run(["run", "--strategy", "batch", "--rows", "10", "--max-rss", size], tmpdir: dir)
            #expect(rss.status == 64 && rss.stderr.contains("at most 1000000G"), "\(rss.stderr)")
        }
        try FileManager.default.createSymbolicLink(atPath: dir + "/loop1", withDestinationPath: dir + "/loop2")
        try FileManager.default.createSymbolicLink(atPath: dir + "/loop2", withDestinationPath: dir + "/loop1")
        let loop = try await CLI.run(["run", "--model", dir + "/loop1", "--rows", "10"], tmpdir: dir)
        #expect(loop.status == 66 && loop.stderr.contains("is a loop of symbolic links"), "\(loop.stderr)")
        try FileManager.default.createDirectory(
            atPath: dir + "/F.xcdatamodel/contents", withIntermediateDirectories: true)
        let folder = try await CLI.run(["run", "--model", dir + "/F.xcdatamodel", "--rows", "10"], tmpdir: dir)
        #expect(
            folder.status == 65 && folder.stderr.contains("is a folder, not the model's XML file"), "\(folder.stderr)")
        let device = try await CLI.run(["run", "--model", "/dev/null", "--rows", "10"], tmpdir: dir)
        #expect(device.status == 65 && device.stderr.contains("is not a regular file"), "\(device.stderr)")
        let abstract = ModelCommandTests.model(
            #"<model><entity name="Base" isAbstract="YES"><attribute name="k" attributeType="String"/></entity></model>"#,
            in: dir + "/abstract")
        let onlyAbstract = try await CLI.run(["run", "--model", abstract, "--rows", "10"], tmpdir: dir)
        #expect(
            onlyAbstract.status == 64 && onlyAbstract.stderr.contains("every entity of the model is abstract (Base)")
                && !onlyAbstract.stderr.contains("one of: )"), "\(onlyAbstract.stderr)")
        let help = try await CLI.run(["list", "--help"])
        #expect(help.stdout.contains("  --help  show this help") && !help.stdout.contains("--show"), "\(help.stdout)")
        let extra = try await CLI.run(["list", "extra"])
        #expect(extra.status == 64 && extra.stderr.contains("unexpected argument 'extra'"), "\(extra.stderr)")
        let suite = dir + "/s.suite"
        try "--strategy batch --rows 100\n--strategy batch --rows 100 --model \(dir)/None.xcdatamodeld\n".write(
            toFile: suite, atomically: true, encoding: .utf8)
        let line = try await CLI.run(["run", "--suite", suite, "--out", dir + "/s.csv"], tmpdir: dir)
        #expect(line.status == 66 && line.stderr.contains("--suite \(suite):2: --model"), "\(line.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/s.csv"))
    }

    /// Generated keys keep the key attribute's limits, so no strategy is blamed for the
    /// generator's values (item 6): a text key's prefix is shortened to the Max Length, an
    /// integer key drawn from Min … Max; keys no limit can hold are refused before anything runs.
    @Test func generatedKeysKeepTheModelsLimits() async throws {
        let dir = CLI.makeFolder()
        let short = ModelCommandTests.loose.replacingOccurrences(
            of: #"<attribute name="slug" attributeType="String" indexed="YES"/>"#,
            with:
                #"<attribute name="slug" attributeType="String" minValueString="14" maxValueString="14" indexed="YES"/>"#
        )
        let text = ModelCommandTests.model(short, in: dir + "/text")
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            [
                "run", "--model", text, "--entity", "Post", "--strategy", "one-writer,raw-sqlite", "--rows", "300",
                "--key-order", "random", "--out", out, "--store", dir + "/text.sqlite", "--quiet",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        for row in try CLI.rows(out) { #expect(row["status"] == "ok" && row["store_rows"] == "300", "\(row)") }
        let ranged = """
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Item" syncable="YES">
                    <attribute name="id" attributeType="Integer 32" minValueString="1000" maxValueString="1999"/>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="id"/></uniquenessConstraint></uniquenessConstraints>
                </entity>
            </model>
            """
        let numbers = ModelCommandTests.model(ranged, in: dir + "/ranged")
        for order in ["ascending", "random"] {
            let feed = dir + "/ids-\(order).ndjson"
            #expect(
                try await CLI.run(
                    ["generate", "--model", numbers, "--rows", "1000", "--key-order", order, "--out", feed], tmpdir: dir
                ).status == 0)
            let ids = try String(contentsOfFile: feed, encoding: .utf8).split(whereSeparator: \.isNewline).compactMap {
                line in
                line.split(separator: ":").last.flatMap {
                    Int($0.trimmingCharacters(in: CharacterSet(charactersIn: " }")))
                }
            }
            #expect(
                ids.count == 1000 && Set(ids).count == 1000 && ids.allSatisfy { (1000...1999).contains($0) },
                "\(ids.prefix(5))")
            let run = try await CLI.run(
                ["run", "--model", numbers, "--input", feed, "--strategy", "context-reset", "--out", out, "--quiet"],
                tmpdir: dir)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let tooMany = try await CLI.run(["run", "--model", numbers, "--rows", "1001"], tmpdir: dir)
        #expect(
            tooMany.status == 64 && tooMany.stderr.contains("1001 unique keys do not fit Item.id"), "\(tooMany.stderr)")
        let zero = ModelCommandTests.model(
            short.replacingOccurrences(of: #"minValueString="14" maxValueString="14""#, with: #"maxValueString="0""#),
            in: dir + "/zero")
        let none = try await CLI.run(["run", "--model", zero, "--entity", "Post", "--rows", "10"], tmpdir: dir)
        #expect(none.status == 65 && none.stderr.contains("Post.slug holds at most 0 characters"), "\(none.stderr)")
        let generate = try await CLI.run(
            ["generate", "--model", zero, "--entity", "Post", "--rows", "10", "--out", dir + "/z.json"], tmpdir: dir)
        #expect(
            generate.status == 65 && generate.stderr.contains("generate: model: Post.slug holds at most 0"),
            "\(generate.stderr)")
        // An entity of 63 attributes (round 4 refused it past 32; Core Data has no such limit:
        // issue 41 item 1) is generated and imported.
        let wide =
            "<model><entity name=\"Wide\">"
            + (0..<63).map { "<attribute name=\"a\($0)\" optional=\"YES\" attributeType=\"String\"/>" }.joined()
            + "</entity></model>"
        let wideModel = ModelCommandTests.model(wide, in: dir + "/wide")
        let generated = try await CLI.run(
            ["generate", "--model", wideModel, "--rows", "10", "--out", dir + "/w.json"], tmpdir: dir)
        #expect(generated.status == 0, "\(generated.stderr)")
    }

    /// A model of thousands of entities is read, laid out and run (item 13: the run-time
    /// entities were built against the whole model once per entity, quadratic; 2,000 entities
    /// took 8.9 s, 10,000 hung). No time is asserted (the machine is shared): the note has the
    /// figures; this pins that such a model runs and verifies.
    @Test func aModelOfThousandsOfEntitiesRuns() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let others = (0..<5000).map {
            #"<entity name="E\#($0)"><attribute name="k" optional="YES" attributeType="String"/></entity>"#
        }
        let text =
            #"<model><entity name="Rec"><attribute name="key" attributeType="String"/><uniquenessConstraints><uniquenessConstraint><constraint value="key"/></uniquenessConstraint></uniquenessConstraints></entity>"#
            + others.joined() + "</model>"
        let model = ModelCommandTests.model(text, in: dir)
        let r = try await CLI.run(
            [
                "run", "--model", model, "--entity", "Rec", "--strategy", "batch", "--rows", "200", "--no-limit",
                "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try CLI.row(of: "batch", in: out)["status"] == "ok")
    }
}
