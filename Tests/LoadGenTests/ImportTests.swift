import Foundation
import Testing

/// `loadgen generate` and `loadgen run --input` end to end.
@Suite(.serialized) struct ImportTests {
    /// Issue 54, item 9: the app's feed as it arrives. GeoJSON nests each record's values in
    /// `features[*].properties` (Apple's large-data-feed sample, earthquakes), and counts time in
    /// milliseconds since 1970: key paths map the members, a unit on the mapping reads the time,
    /// and without it the run names the year the value would land in.
    @Test func aGeoJSONFeedReadsThroughKeyPathsAndATimeUnit() async throws {
        let dir = CLI.makeFolder()
        let model = ModelCommandTests.model(
            """
            <model><entity name="Quake"><attribute name="code" attributeType="String"/>\
            <attribute name="magnitude" attributeType="Double" defaultValueString="0"/>\
            <attribute name="place" optional="YES" attributeType="String"/><attribute name="time" attributeType="Date"/>\
            <uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints>\
            </entity></model>
            """, in: dir)
        let features = (0..<40).map { i in
            #"{"type": "Feature", "properties": {"mag": \#(Double(i) / 10), "place": "\#(i) km N of Somewhere", "#
                + #""time": \#(1_700_000_000_000 + i * 1000), "code": "q\#(i % 30)"}, "#
                + #""geometry": {"type": "Point", "coordinates": [-150.1, 61.2, 10]}}"#
        }
        let feed = dir + "/quakes.geojson"
        try #"{"type": "FeatureCollection", "metadata": {"count": 40}, "features": ["#.appending(
            features.joined(separator: ", ") + "]}"
        )
        .write(toFile: feed, atomically: true, encoding: .utf8)
        let map = "code=properties.code,magnitude=properties.mag,place=properties.place,time=properties.time"
        let base = [
            "run", "--model", model, "--input", feed, "--input-path", "/features", "--strategy", "batch-upsert",
            "--no-limit",
        ]
        let r = try await CLI.run(base + ["--map", map + ":ms", "--out", dir + "/r.csv", "--quiet"], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let row = try #require(try CLI.rows(dir + "/r.csv").first)
        // 40 features, 30 codes; each code's last copy's values in the store (the reader's own
        // test pins the values: WorkloadTests.ImportFileTests).
        #expect(
            row["status"] == "ok" && row["store_rows"] == "30" && row["duplicates"] == "0" && row["stale"] == "0",
            "\(row)")
        let seconds = try await CLI.run(base + ["--map", map, "--quiet"], tmpdir: dir)
        #expect(
            seconds.status == 65
                && seconds.stderr.contains("1700000000000, which as seconds since 1970 is in the year 55840")
                && seconds.stderr.contains("--map ATTRIBUTE=MEMBER:ms"), "\(seconds.stderr)")
        // Deeper: the code one object further in, read through both levels.
        let nested = dir + "/nested.geojson"
        try String(contentsOfFile: feed, encoding: .utf8)
            .replacingOccurrences(of: #""code": "q"#, with: #""ids": {"other": 1, "code": "q"#)
            .replacingOccurrences(of: #"}, "geometry""#, with: #"}}, "geometry""#)
            .write(toFile: nested, atomically: true, encoding: .utf8)
        let deeper = map.replacingOccurrences(of: "code=properties.code", with: "code=properties.ids.code")
        let deep = try await CLI.run(
            [
                "run", "--model", model, "--input", nested, "--input-path", "/features", "--strategy", "batch-upsert",
                "--no-limit", "--map", deeper + ":ms", "--out", dir + "/deep.csv", "--quiet",
            ], tmpdir: dir)
        #expect(deep.status == 0, "\(deep.stderr)")
        #expect(try CLI.rows(dir + "/deep.csv").first?["store_rows"] == "30")
        let empty = try await CLI.run(base + ["--map", "code=properties..code", "--quiet"], tmpdir: dir)
        #expect(empty.status == 64 && empty.stderr.contains("give no empty name between dots"), "\(empty.stderr)")
    }

    @Test func generateIsDeterministicAcrossProcesses() async throws {
        let dir = CLI.makeFolder()
        for format in ["json", "ndjson"] {
            for dataset in ["expenses", "photos"] {
                // One file per dataset: generate replaces only an earlier generate of the same records.
                let a = dir + "/a-\(dataset).\(format)"
                let b = dir + "/b-\(dataset).\(format)"
                for path in [a, b] {
                    let r = try await CLI.run([
                        "generate", "--dataset", dataset, "--rows", "3000", "--dup-rate", "0.2",
                        "--key-dist", "zipf", "--seed", "9", "--payload-bytes", "64", "--out", path, "--quiet",
                    ])
                    #expect(r.status == 0, "\(r.stderr)")
                }
                #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
            }
        }
    }

    @Test func importGivesTheGeneratedKeysAndValues() async throws {
        let dir = CLI.makeFolder()
        let file = dir + "/e.ndjson"
        let out = dir + "/runs.csv"
        let store = dir + "/kept.sqlite"
        #expect(
            try await CLI.run(["generate", "--rows", "2000", "--dup-rate", "0.1", "--seed", "4", "--out", file]).status
                == 0)
        let r = try await CLI.run(
            ["run", "--strategy", "prefetch", "--input", file, "--out", out, "--store", store, "--quiet"],
            tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let row = try CLI.row(of: "prefetch", in: out)
        #expect(row["rows"] == "2000" && row["unique_keys"] == "1800" && row["input"] == file)
        #expect(
            row["store_rows"] == "1800" && row["lost"] == "0" && row["duplicates"] == "0" && row["bad_links"] == "0")
        // The same spec generated directly lands the same values in a store.
        let direct = dir + "/direct.sqlite"
        #expect(
            try await CLI.run(
                [
                    "run", "--strategy", "prefetch", "--rows", "2000", "--dup-rate", "0.1", "--seed", "4",
                    "--store", direct, "--quiet",
                ], tmpdir: dir
            ).status == 0)
        await #expect(try dump(store) == dump(direct))
    }

    /// Every expense with its values and category, in key order.
    func dump(_ path: String) async throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            for r in c.execute('select e.ZEXTERNALID, e.ZAMOUNT, e.ZDATE, e.ZNOTE, c.ZNAME from ZEXPENSE e join ZCATEGORY c on c.Z_PK = e.ZCATEGORY order by 1'):
                print(r)
            """, path,
        ]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = await CLI.readToEnd(pipe)
        await CLI.exit(of: p)
        return String(decoding: data, as: UTF8.self)
    }

    static let good = #"{"id": "a", "amount": 1.5, "date": "2025-01-01T00:00:00Z", "note": "x", "categoryName": "c"}"#
    static let malformed: [(String, String, String)] = [
        ("bad-json", "{\"expenses\": [\n\(good),\n{\"id\": \"b\",, }]}", "record 2"),
        ("missing-key", good + "\n" + good.replacingOccurrences(of: #""id": "a", "#, with: "") + "\n", "record 2"),
        (
            "wrong-type",
            "{\"expenses\": [\(good), \(good), " + good.replacingOccurrences(of: #""x""#, with: "7") + "]}", "record 3"
        ),
        ("truncated", "{\"expenses\": [\n\(good),\n\(good.prefix(50))", "record 2"),
        ("empty", "", "empty"),
        ("binary", "\u{7f}ELF\u{2}\u{1}\u{1}\u{0}\u{0}", "byte 0"),
    ]

    @Test(arguments: malformed)
    func malformedInputExits65AndLeavesNothing(name: String, content: String, mentions: String) async throws {
        let dir = CLI.makeFolder()
        let file = dir + "/\(name).json"
        let out = dir + "/runs.csv"
        _ = FileManager.default.createFile(atPath: file, contents: Data(content.utf8))
        let r = try await CLI.run(["run", "--strategy", "context-reset", "--input", file, "--out", out], tmpdir: dir)
        #expect(r.status == 65, "\(name): \(r.stderr)")
        #expect(r.stderr.contains(file) && r.stderr.contains(mentions), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["\(name).json"])
    }

    @Test func inputRefusesGeneratorFlags() async throws {
        let r = try await CLI.run(["run", "--input", "/tmp/x.json", "--rows", "10"])
        #expect(r.status == 64 && r.stderr.contains("--rows does not apply with --input"))
        let missing = try await CLI.run(["run", "--input", "/no/such/file.json"])
        #expect(missing.status == 66)
    }

    @Test func openLoopRecordsLatencyAndTheScreen() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/runs.csv"
        let r = try await CLI.run(
            [
                "run", "--strategy", "context-reset", "--rows", "2000", "--rate", "40000", "--view-context",
                "--out", out, "--quiet",
            ], tmpdir: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let row = try CLI.row(of: "context-reset", in: out)
        for column in ["latency_p50_ms", "latency_p99_ms", "latency_max_ms", "merge_ms_total", "kept_up"] {
            #expect(!(row[column] ?? "").isEmpty, "\(column)")
        }
        #expect(row["rate"] == "40000.0" && row["view_objects"] == "2000" && row["view_missing"] == "0")
    }

    @Test func generateRefusesBadOutput() async throws {
        #expect(try await CLI.run(["generate", "--rows", "10"]).status == 64)
        #expect(try await CLI.run(["generate", "--rows", "10", "--out", "/no/such/dir/x.json"]).status == 73)
        #expect(try await CLI.run(["generate", "--rows", "10", "--format", "xml", "--out", "-"]).status == 64)
    }
}
