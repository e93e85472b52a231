import Foundation
import Testing

/// No file loadgen did not write is replaced (issue 45, "data loss"): a store, an export, an A/B
/// page of the user's stays as it was. Item numbers are the issue's; each test failed before its fix.
@Suite(.serialized) struct ReplacesOnlyItsOwnTests {
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
}
