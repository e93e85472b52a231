import Foundation
import Testing

/// `--model`: a team's own model end to end (issue 22): roles refused or found, strategies the
/// model cannot serve refused by name, the team's feed read with its extra, missing and mistyped
/// members, and the README's example.
@Suite(.serialized) struct ModelCommandTests {
    /// Post → Author, Post keyed by an unconstrained `slug` (found through its index).
    static let loose = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Post" syncable="YES">
                <attribute name="slug" attributeType="String" indexed="YES"/>
                <attribute name="title" attributeType="String"/>
                <attribute name="views" optional="YES" attributeType="Integer 32"/>
                <attribute name="postedAt" optional="YES" attributeType="Date"/>
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="posts" inverseEntity="Author"/>
            </entity>
            <entity name="Author" syncable="YES">
                <attribute name="handle" attributeType="String"/>
                <relationship name="posts" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Post" inverseName="author" inverseEntity="Post"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="handle"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
        </model>
        """

    static func model(_ text: String, in dir: String) -> String {
        let folder = dir + "/Blog.xcdatamodel"
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try! text.write(toFile: folder + "/contents", atomically: true, encoding: .utf8)
        return folder
    }

    /// A model without a uniqueness constraint on the records' key: the strategies that
    /// deduplicate through one are refused by name, the rest run and are recorded with the model.
    @Test func strategiesTheModelCannotServeAreRefusedByName() async throws {
        let dir = CLI.makeFolder()
        let model = Self.model(Self.loose, in: dir)
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            [
                "run", "--model", model, "--entity", "Post", "--strategy", "all", "--rows", "400", "--dup-rate", "0.1",
                "--out", out,
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.contains(
                "raw-sqlite-unique, batch, batch-upsert, context-reset, context-noreset, context-save-per-row, "
                    + "many-writers-constrained, n-plus-one, prefetch, history-consumer were not run: they need a "
                    + "uniqueness constraint on the key (Post.slug has none in Blog)"), "\(r.stdout)")
        #expect(r.stderr.contains("key: Post.slug (its index; no uniqueness constraint"), "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(
            Set(rows.map { $0["strategy"]! }) == [
                "raw-sqlite", "batch-insert-only", "one-writer", "many-writers", "find-or-create",
                "find-or-create-per-row", "find-or-create-cached", "find-or-create-writers",
            ])
        for row in rows {
            #expect(
                row["status"] == "ok" && row["lost"] == "0" && row["model"] == model && row["entity"] == "Post",
                "\(row)")
            #expect(row["key"] == "slug" && row["relationship"] == "author.handle" && row["dataset"] == "")
        }
        // Naming only refused strategies leaves nothing to run: a usage error that says why.
        let none = try await CLI.run(
            ["run", "--model", model, "--entity", "Post", "--strategy", "batch", "--rows", "400"], tmpdir: dir)
        #expect(
            none.status == 64 && none.stderr.contains("nothing to run: batch needs a uniqueness constraint"),
            "\(none.stderr)")
        // Issue 55, item 20: the refusal leads somewhere: the what-if that measures it, and the
        // idioms that need no constraint (it said "add one to the model").
        #expect(
            none.stderr.contains("--add-constraint slug measures it as if the model had one")
                && none.stderr.contains("find-or-create and find-or-create-per-row deduplicate without one"),
            "\(none.stderr)")
    }

    /// Roles the model leaves open, a model that is not there or not readable: one line each,
    /// naming the flag (64), the missing file (66), or the file and line (65).
    @Test func badModelsAndRolesAreOneLine() async throws {
        let dir = CLI.makeFolder()
        let model = Self.model(Self.loose, in: dir)
        let ambiguous = try await CLI.run(["run", "--model", model, "--rows", "100"], tmpdir: dir)
        #expect(
            ambiguous.status == 64 && ambiguous.stderr.contains("give --entity NAME (one of: Author, Post)"),
            "\(ambiguous.stderr)")
        let key = try await CLI.run(
            ["run", "--model", model, "--entity", "Post", "--key", "nope", "--rows", "100"], tmpdir: dir)
        #expect(
            key.status == 64
                && key.stderr.contains("--key nope is not an attribute of Post (one of: postedAt, slug, title, views)"),
            "\(key.stderr)")
        let stray = try await CLI.run(
            ["run", "--dataset", "photos", "--entity", "Album", "--rows", "100"], tmpdir: dir)
        #expect(stray.status == 64 && stray.stderr.contains("--entity applies only with --model"), "\(stray.stderr)")
        let both = try await CLI.run(
            ["generate", "--dataset", "photos", "--model", model, "--out", dir + "/x.json"], tmpdir: dir)
        #expect(
            both.status == 64 && both.stderr.contains("--dataset and --model both say what the records are"),
            "\(both.stderr)")
        let missing = try await CLI.run(["run", "--model", dir + "/None.xcdatamodeld", "--rows", "100"], tmpdir: dir)
        #expect(
            missing.status == 66 && missing.stderr.contains("None.xcdatamodeld: does not exist"), "\(missing.stderr)")
        let broken = Self.model(
            Self.loose.replacingOccurrences(of: "attributeType=\"Integer 32\"", with: "attributeType=\"Integer 24\""),
            in: dir + "/broken")
        let bad = try await CLI.run(["run", "--model", broken, "--entity", "Post", "--rows", "100"], tmpdir: dir)
        #expect(
            bad.status == 65
                && bad.stderr.contains("contents:6: attribute Post.views has attributeType \"Integer 24\""),
            "\(bad.stderr)")
        #expect(bad.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["Blog.xcdatamodel", "broken"])
    }

    /// The team's feed: members mapped to attributes by name, the related object's key by the
    /// member that names it; extra members ignored and listed, missing optional ones taking the
    /// model's default, a missing required one and a mistyped one refused with their record.
    @Test func theTeamsFeedIsReadByTheModel() async throws {
        let dir = CLI.makeFolder()
        let model = Self.model(Self.loose, in: dir)
        let feed = dir + "/feed.ndjson"
        let out = dir + "/runs.csv"
        let lines = [
            #"{"slug": "a", "title": "First", "views": 3, "postedAt": "2025-01-02T03:04:05Z", "authorHandle": "ann", "tags": ["x"]}"#,
            #"{"slug": "b", "title": "Second", "authorHandle": "bob", "mood": "calm"}"#,
            #"{"slug": "a", "title": "First", "views": 3, "postedAt": "2025-01-02T03:04:05Z", "authorHandle": "ann"}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: feed, atomically: true, encoding: .utf8)
        let r = try await CLI.run(
            [
                "run", "--model", model, "--entity", "Post", "--input", feed, "--strategy", "one-writer,raw-sqlite",
                "--out", out,
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("members no field reads, ignored: tags, mood"), "\(r.stderr)")
        let row = try CLI.row(of: "one-writer", in: out)
        #expect(
            row["rows"] == "3" && row["unique_keys"] == "2" && row["store_rows"] == "2" && row["bad_links"] == "0",
            "\(row)")
        let required = lines[1].replacingOccurrences(of: #""title": "Second", "#, with: "")
        try required.write(toFile: feed, atomically: true, encoding: .utf8)
        let missing = try await CLI.run(
            ["run", "--model", model, "--entity", "Post", "--input", feed, "--strategy", "one-writer"], tmpdir: dir)
        #expect(
            missing.status == 65 && missing.stderr.contains("record 1")
                && missing.stderr.contains(
                    #"missing field "title" (the model requires it and gives no default)"#),
            "\(missing.stderr)")
        try lines[0].replacingOccurrences(of: #""views": 3"#, with: #""views": "three""#).write(
            toFile: feed, atomically: true, encoding: .utf8)
        let mistyped = try await CLI.run(
            ["run", "--model", model, "--entity", "Post", "--input", feed, "--strategy", "one-writer"], tmpdir: dir)
        #expect(
            mistyped.status == 65 && mistyped.stderr.contains(#"field "views" must be a number, found a string"#),
            "\(mistyped.stderr)")
    }

    /// `generate --model` writes the feed `run --model --input` reads, with the same records.
    @Test func generateWritesTheModelsFeed() async throws {
        let dir = CLI.makeFolder()
        let model = Self.model(Self.loose, in: dir)
        let feed = dir + "/posts.json"
        let out = dir + "/runs.csv"
        let g = try await CLI.run([
            "generate", "--model", model, "--entity", "Post", "--rows", "500", "--dup-rate", "0.2", "--out", feed,
        ])
        #expect(g.status == 0 && g.stderr.contains("generated 500 Post records (400 unique keys)"), "\(g.stderr)")
        let text = try String(contentsOfFile: feed, encoding: .utf8)
        #expect(text.hasPrefix(#"{"posts": ["#) && text.contains(#""authorHandle": "Author "#))
        let r = try await CLI.run(
            ["run", "--model", model, "--entity", "Post", "--input", feed, "--strategy", "one-writer", "--out", out],
            tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let row = try CLI.row(of: "one-writer", in: out)
        #expect(
            row["store_rows"] == "400" && row["lost"] == "0" && row["duplicates"] == "0" && row["bad_links"] == "0",
            "\(row)")
    }

    /// The README's example model runs every strategy as the README says, status ok.
    @Test func theReadmeExampleRuns() async throws {
        let dir = CLI.makeFolder()
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../examples/Podcasts.xcdatamodeld"
        )
        .standardizedFileURL.path
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            [
                "run", "--model", example, "--strategy", "all", "--rows", "600", "--dup-rate", "0.1", "--batch-size",
                "200",
                "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(
            rows.count == 18 && rows.allSatisfy { $0["status"] == "ok" && $0["entity"] == "Episode" },
            "\(rows.map { $0["error"] ?? "" })")
    }

    /// A shipping model's one-to-one as the run explains it, with the size assumed for its binary
    /// values, and the store verified both ways (issue 28).
    @Test func aOneToOneRunSaysWhatItAssumed() async throws {
        let dir = CLI.makeFolder()
        let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Corpus/kiwix-apple/DataModel.xcdatamodel").standardizedFileURL.path
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            [
                "run", "--model", model, "--entity", "ZimFile", "--strategy", "context-reset,batch", "--rows", "300",
                "--dup-rate", "0.1", "--no-limit", "--out", out,
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "relationship: one-to-one (DownloadTask.zimFile points back): each record has a DownloadTask of its own"
            ),
            "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "assumed: generated Binary/Transformable values: DownloadTask.resumeData 4096 bytes, "
                    + "ZimFile.faviconData 4096 bytes, ZimFile.fileURLBookmark 4096 bytes"), "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(
            rows.count == 2
                && rows.allSatisfy { $0["status"] == "ok" && $0["bad_links"] == "0" && $0["store_rows"] == "270" },
            "\(rows)")
    }

    /// An app store's feed as it publishes an app (issue 28): a date-only version date, an empty
    /// key component, the source named by a nested object; members no attribute reads are listed
    /// with what they probably are, and the review page names the model's roles.
    @Test func aStoresFeedImportsAndTheReviewNamesTheRoles() async throws {
        let dir = CLI.makeFolder()
        let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Corpus/AltStore/AltStore 17.xcdatamodel").standardizedFileURL.path
        let feed = dir + "/apps.json"
        let text =
            #"{"storeapps": [{"bundleIdentifier": "com.example.app", "sourceIdentifier": "", "developerName": "D", "#
            + #""downloadURL": "https://example.com/a.ipa", "iconURL": "https://example.com/i.png", "localizedDescription": "x", "#
            + #""name": "A", "screenshotURLs": "AAAA", "version": "1.0", "versionDate": "2020-02-19", "#
            + #""source": {"identifier": "com.example.source", "name": "ignored"}, "versions": [{"version": "1.0"}], "Size": 3}]}"#
        try text.write(toFile: feed, atomically: true, encoding: .utf8)
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            [
                "run", "--model", model, "--entity", "StoreApp", "--relationship", "source", "--input", feed,
                "--strategy", "context-reset,batch", "--no-limit", "--out", out,
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "versions (the to-many StoreApp.versions → AppVersion: its objects import with --entity AppVersion "
                    + "--relationship app --input-path <this array>/*/versions)")
                && r.stderr.contains("members read by their name ignoring case and '_'")
                && r.stderr.contains("Size → size"), "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(
            rows.count == 2
                && rows.allSatisfy { $0["status"] == "ok" && $0["store_rows"] == "1" && $0["bad_links"] == "0" },
            "\(rows)")
        let review = try await CLI.run(["report", out, "--out", dir + "/review"], tmpdir: dir)
        #expect(review.status == 0, "\(review.stderr)")
        let page = try FileManager.default.contentsOfDirectory(atPath: dir + "/review").filter { $0.hasSuffix(".md") }
            .map { try String(contentsOfFile: dir + "/review/" + $0, encoding: .utf8) }.joined()
        #expect(
            page.contains("### Model")
                && page.contains(
                    "records are **StoreApp**, keyed by `sourceIdentifier + bundleIdentifier`, "
                        + "related through `source.identifier`"),
            "\(page.prefix(1500))")
    }

    /// A source document as an app store publishes it, its apps at /apps (issue 28): imported
    /// with --input-path, recorded in the input column as the file's fragment; a pointer that is
    /// not one, or without --input, is a usage error naming the flag.
    @Test func inputPathReadsTheRecordsInsideASourceDocument() async throws {
        let dir = CLI.makeFolder()
        let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Corpus/AltStore/AltStore 17.xcdatamodel").standardizedFileURL.path
        let app = { (i: Int) in
            #"{"bundleIdentifier": "com.example.app\#(i)", "sourceIdentifier": "com.example.source", "developerName": "D", "#
                + #""downloadURL": "https://example.com/a.ipa", "iconURL": "https://example.com/i.png", "localizedDescription": "x", "#
                + #""name": "A", "screenshotURLs": "AAAA", "version": "1.0", "versionDate": "2023-03-29T12:00:00-05:00", "#
                + #""source": {"identifier": "com.example.source"}}"#
        }
        let feed = dir + "/source.json"
        try
            (#"{"name": "Example", "identifier": "com.example.source", "apps": ["#
            + (1...3).map(app).joined(separator: ", ")
            + #"], "news": []}"#).write(toFile: feed, atomically: true, encoding: .utf8)
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            [
                "run", "--model", model, "--entity", "StoreApp", "--relationship", "source", "--input", feed,
                "--input-path", "/apps", "--strategy", "batch", "--no-limit", "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        #expect(
            rows.count == 1 && rows[0]["status"] == "ok" && rows[0]["store_rows"] == "3"
                && rows[0]["input"] == feed + "#/apps", "\(rows)")
        for (arguments, mentions) in [
            (["--input", feed, "--input-path", "apps"], "--input-path 'apps' is not a JSON Pointer"),
            (["--input-path", "/apps"], "--input-path applies only with --input"),
        ] {
            let bad = try await CLI.run(
                [
                    "run", "--model", model, "--entity", "StoreApp", "--relationship", "source", "--strategy", "batch",
                    "--out", dir + "/bad.csv",
                ] + arguments, tmpdir: dir)
            #expect(bad.status == 64 && bad.stderr.contains(mentions), "\(bad.stderr)")
        }
    }

    /// A to-many's array of objects imports as that many related objects (issue 28, item 4): a
    /// notifications server's subscriptions, each holding its notifications, read with
    /// /subscriptions/*/notifications run every strategy with each notification linked to its
    /// subscription (found by baseUrl + topic from the holder); a '*' member that is not the
    /// relationship's to-many is a usage error naming the right one; the flat reading of such a
    /// file says where the records are.
    @Test func aToManyArrayOfObjectsImportsAsThatManyRelatedObjects() async throws {
        let dir = CLI.makeFolder()
        let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Corpus/ntfy-ios/Model.xcdatamodel").standardizedFileURL.path
        let note = { (id: String) in #"{"id": "\#(id)", "message": "m", "time": 1700000000}"# }
        let feed = dir + "/subscriptions.json"
        try
            (#"{"server": "https://ntfy.sh", "subscriptions": [{"notifications": ["# + note("a") + ", " + note("b")
            + #"], "baseUrl": "https://ntfy.sh", "topic": "alerts"}, {"baseUrl": "https://ntfy.sh", "topic": "quiet", "notifications": []}, "#
            + #"{"baseUrl": "https://example.org", "topic": "alerts", "notifications": ["# + note("c") + "]}]}")
            .write(toFile: feed, atomically: true, encoding: .utf8)
        let out = dir + "/runs.csv"
        let base = [
            "run", "--model", model, "--entity", "Notification", "--relationship", "subscription", "--input", feed,
            "--no-limit",
        ]
        let r = try await CLI.run(
            base + [
                "--input-path", "/subscriptions/*/notifications", "--strategy", "context-reset,batch,prefetch",
                "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try CLI.rows(out)
        // The verifier reads each notification's subscription key from the store and compares it
        // with the holder the file nests it in: a wrong link is a bad link.
        #expect(
            rows.count == 3
                && rows.allSatisfy { $0["status"] == "ok" && $0["store_rows"] == "3" && $0["bad_links"] == "0" },
            "\(rows)")
        let wrong = try await CLI.run(
            base + ["--input-path", "/subscriptions/*/items", "--strategy", "batch", "--out", dir + "/bad.csv"],
            tmpdir: dir)
        #expect(wrong.status == 64 && wrong.stderr.contains("give …/*/notifications"), "\(wrong.stderr)")
        let flat = try await CLI.run(
            base + ["--input-path", "/subscriptions", "--strategy", "batch", "--out", dir + "/bad.csv"], tmpdir: dir)
        #expect(
            flat.status == 65 && flat.stderr.contains("--input-path /subscriptions/*/notifications"), "\(flat.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/bad.csv"))
    }
}
