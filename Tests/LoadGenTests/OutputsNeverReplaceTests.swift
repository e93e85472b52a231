import Foundation
import Testing

/// What loadgen writes never replaces what it did not write (issue 55, items 1, 2, 3 and 8): CI and
/// many users run as root, for whom every file is writable. A device is written in place however
/// it is spelled, a symbolic link is written through, a loop of links is an error, a support folder
/// or an export another tool wrote is refused. Devices are made in the test's own folder (mknod
/// needs root, as CI has; without it those cases are skipped, never the real /dev touched).
@Suite(.serialized) struct OutputsNeverReplaceTests {
    static let fixture = ResultsFixture.make(
        ["--strategy", "batch", "--rows", "500", "--no-limit"], name: "outputs.csv")

    /// A character device like /dev/null (1, 3), inside `dir`; nil when mknod is not allowed.
    static func nullDevice(in dir: String) -> String? {
        let path = dir + "/null"
        return mknod(path, S_IFCHR | 0o666, (1 << 8) | 3) == 0 ? path : nil
    }

    static func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test func aDeviceIsWrittenInPlaceHoweverItIsSpelled() async throws {
        let results = try await Self.fixture.get().path
        let dir = CLI.makeFolder()
        guard let device = Self.nullDevice(in: dir) else { return }
        let export = try await CLI.run(["export", results, "--format", "json", "--out", device])
        #expect(export.status == 0 && Self.kind(device) == S_IFCHR, "\(export.stderr)")
        let doubled = try await CLI.run(["generate", "--rows", "10", "--out", dir + "//null"])
        #expect(doubled.status == 0 && Self.kind(device) == S_IFCHR, "\(doubled.stderr)")
        let relative = try await CLI.run(["generate", "--rows", "10", "--out", "null"], cwd: dir)
        #expect(relative.status == 0 && Self.kind(device) == S_IFCHR, "\(relative.stderr)")
        let markdown = try await CLI.run(
            [
                "run", "--strategy", "batch", "--rows", "100", "--no-limit", "--markdown", dir + "//null",
                "--quiet",
            ], tmpdir: dir)
        #expect(markdown.status == 0 && Self.kind(device) == S_IFCHR, "\(markdown.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["null"], "nothing left beside it")
    }

    @Test func aSymbolicLinkIsWrittenThroughAndStaysALink() async throws {
        let results = try await Self.fixture.get().path
        let dir = CLI.makeFolder()
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.json", withDestinationPath: "real.json")
        let export = try await CLI.run(["export", results, "--format", "json", "--out", dir + "/link.json"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(Self.kind(dir + "/link.json") == S_IFLNK && Self.kind(dir + "/real.json") == S_IFREG)
        try FileManager.default.createSymbolicLink(atPath: dir + "/feed.json", withDestinationPath: "records.json")
        let generate = try await CLI.run(["generate", "--rows", "10", "--out", dir + "/feed.json"])
        #expect(generate.status == 0, "\(generate.stderr)")
        let records = try Data(contentsOf: URL(fileURLWithPath: dir + "/records.json"))
        #expect(Self.kind(dir + "/feed.json") == S_IFLNK && records.count > 0)
    }

    @Test func aLoopOfSymbolicLinksIsRefusedAtEveryOutput() async throws {
        let results = try await Self.fixture.get().path
        let dir = CLI.makeFolder()
        try FileManager.default.createSymbolicLink(atPath: dir + "/a", withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: dir + "/b", withDestinationPath: "a")
        let loop = dir + "/a"
        for flag in ["--out", "--markdown", "--summary-csv", "--timeline", "--store"] {
            let r = try await CLI.run(
                ["run", "--strategy", "batch", "--rows", "100", "--no-limit", flag, loop, "--quiet"], tmpdir: dir)
            #expect(r.status == 73 && r.stderr.contains("loop of symbolic links"), "\(flag): \(r.status) \(r.stderr)")
        }
        let export = try await CLI.run(["export", results, "--format", "json", "--out", loop])
        #expect(export.status == 73 && export.stderr.contains("loop of symbolic links"), "\(export.stderr)")
        let generate = try await CLI.run(["generate", "--rows", "10", "--out", loop])
        #expect(generate.status == 73 && generate.stderr.contains("loop of symbolic links"), "\(generate.stderr)")
        for flag in ["--report", "--json"] {
            let compare = try await CLI.run(["compare", results, results, flag, loop])
            #expect(compare.status == 73 && compare.stderr.contains("loop of symbolic links"), "\(compare.stderr)")
        }
        // ab says so before its first round (--judge: no binaries are run).
        let ab = try await CLI.run(["ab", "--out", dir + "/ab", "--judge", "--json", loop])
        #expect(ab.status == 73 && ab.stderr.contains("loop of symbolic links"), "\(ab.status) \(ab.stderr)")
    }

    /// A support folder's name ignores the store's extension: `Model.lg`'s is an app's
    /// `Model.sqlite`'s. One loadgen did not make (no mark inside) is refused, never removed.
    @Test func anAppsExternalDataFolderIsNeverRemoved() async throws {
        let dir = CLI.makeFolder()
        let support = dir + "/.Model_SUPPORT/_EXTERNAL_DATA"
        try FileManager.default.createDirectory(atPath: support, withIntermediateDirectories: true)
        try Data("photo".utf8).write(to: URL(fileURLWithPath: support + "/ABC"))
        let r = try await CLI.run(
            ["run", "--strategy", "batch", "--rows", "100", "--no-limit", "--store", dir + "/Model.lg", "--quiet"],
            tmpdir: dir)
        #expect(r.status == 73 && r.stderr.contains("external data loadgen did not write"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: support + "/ABC"))
        // Its own (values past 128 KB of an attribute that allows external storage) is marked and replaced.
        let model = ModelCommandTests.model(
            """
            <model><entity name="Pic"><attribute name="url" attributeType="String"/>\
            <attribute name="data" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>\
            <uniquenessConstraints><uniquenessConstraint><constraint value="url"/></uniquenessConstraint></uniquenessConstraints>\
            </entity></model>
            """, in: dir)
        let own = dir + "/own.sqlite"
        for _ in 0..<2 {
            let kept = try await CLI.run(
                [
                    "run", "--model", model, "--strategy", "batch", "--rows", "5", "--payload-bytes", "200000",
                    "--no-limit", "--store", own, "--quiet",
                ], tmpdir: dir)
            #expect(kept.status == 0, "\(kept.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: dir + "/.own_SUPPORT/.loadgen-store-data"))
    }

    /// Another tool's BMF or JSON has the same shape as export's: only a mark of authorship lets
    /// export replace a file (its sidecar digest for BMF, `generator` in the JSON, `extra` in
    /// github-action-benchmark's entries).
    @Test(arguments: [
        ("bmf", #"{"bench": {"latency": {"value": 1.0}}}"#), ("json", #"{"recommendations": [], "summary": []}"#),
        ("github-smaller-is-better", #"[{"name": "x", "unit": "ms", "value": 1}]"#),
    ])
    func anotherToolsExportIsNeverReplaced(format: String, theirs: String) async throws {
        let results = try await Self.fixture.get().path
        let dir = CLI.makeFolder()
        let out = dir + "/dashboard.json"
        try theirs.write(toFile: out, atomically: true, encoding: .utf8)
        let refused = try await CLI.run(["export", results, "--format", format, "--out", out])
        let after = try String(contentsOfFile: out, encoding: .utf8)
        #expect(refused.status == 73 && after == theirs, "\(refused.stderr)")
        try FileManager.default.removeItem(atPath: out)
        for _ in 0..<2 {
            let ours = try await CLI.run(["export", results, "--format", format, "--out", out])
            #expect(ours.status == 0, "\(format): \(ours.stderr)")
        }
    }
}
