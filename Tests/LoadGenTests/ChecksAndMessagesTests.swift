import Foundation
import Testing

/// Outputs checked before the work, `-` as standard output everywhere, feeds refused when read
/// with both records named, and messages that lead somewhere (issue 55, items 15, 17, 19, 20).
@Suite(.serialized) struct ChecksAndMessagesTests {
    static let fixture = ResultsFixture.make(["--strategy", "batch", "--rows", "300", "--no-limit"], name: "base.csv")

    /// Two results files of two runs (their run ids differ).
    func twoRuns() async throws -> (base: String, now: String, dir: String) {
        let base = try await Self.fixture.get()
        let now = try base.write("now.csv") { row in
            row["run_id"] = "b0b0b0b0-" + (row["run_id"]?.split(separator: "-").last ?? "1")
        }
        return (base.path, now, base.dir)
    }

    /// 17. A legal name without room for the temporary file beside it fails before the work,
    /// with the flag and the longest name that fits.
    @Test func aNameWithoutRoomBesideItIsRefusedFirst() async throws {
        let (base, now, dir) = try await twoRuns()
        let long = dir + "/" + String(repeating: "n", count: 245) + ".json"
        let c = try await CLI.run(["compare", base, now, "--json", long])
        #expect(
            c.status == 64 && c.stderr.contains("compare: --json \(long): the file name is 250 bytes"), "\(c.stderr)")
        let g = try await CLI.run(["generate", "--rows", "10", "--out", long])
        #expect(
            g.status == 64 && g.stderr.contains("generate: --out \(long): the file name is 250 bytes")
                && g.stderr.contains("give a name of at most"), "\(g.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).allSatisfy { !$0.hasPrefix("nnnn") })
    }

    /// 19. `-` is standard output for compare's --json and --report, and run's --markdown: no
    /// file named `-` is written.
    @Test func aDashIsStandardOutputEverywhere() async throws {
        let (base, now, dir) = try await twoRuns()
        let c = try await CLI.run(["compare", base, now, "--json", "-", "--report", dir + "/report.md"], cwd: dir)
        #expect(c.status == 0 && c.stdout.contains("\"regressions\""), "\(c.stdout) \(c.stderr)")
        let r = try await CLI.run(
            ["run", "--strategy", "batch", "--rows", "100", "--no-limit", "--markdown", "-", "--out", dir + "/r.csv"],
            tmpdir: dir, cwd: dir)
        #expect(r.status == 0 && r.stdout.contains("| batch"), "\(r.stdout)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/-"))
        let two = try await CLI.run(
            ["run", "--strategy", "batch", "--rows", "100", "--markdown", "-", "--json"], cwd: dir)
        #expect(
            two.status == 64 && two.stderr.contains("--markdown - and --json both write to stdout"), "\(two.stderr)")
    }

    /// 19. A model file that cannot be read is no input (66, as a missing one), not a malformed
    /// model (65), and one behind a folder that cannot be entered is not called missing; a folder
    /// given as --input is called a folder. Root reads every file: as root the run drops to nobody
    /// (setpriv) to meet the permission.
    @Test func anUnreadableModelIsNoInputAndAFolderIsAFolder() async throws {
        let dir = CLI.makeFolder()
        chmod(dir, 0o755)
        let model = dir + "/Locked.xcdatamodel"
        try FileManager.default.createDirectory(atPath: model, withIntermediateDirectories: true)
        try "<model/>".write(toFile: model + "/contents", atomically: true, encoding: .utf8)
        chmod(model + "/contents", 0)
        // A copy of the binary in the test's folder: nobody may not reach the checkout's.
        let binary = dir + "/loadgen"
        try FileManager.default.copyItem(atPath: CLI.binary, toPath: binary)
        chmod(binary, 0o755)
        let m = try await runAsNobody(binary, ["run", "--model", model, "--rows", "10"])
        // Where setpriv itself may not switch users (a container without the capability), it
        // says so and nothing about the model can be learnt here.
        #expect((m.0 == 66 && m.1.contains("cannot be read: Permission denied")) || m.1.hasPrefix("setpriv:"), "\(m)")
        if getuid() == 0 {
            // A folder on the path that nobody may enter: the model is there, only out of reach.
            let closed = dir + "/closed"
            try FileManager.default.createDirectory(
                atPath: closed + "/Hidden.xcdatamodel", withIntermediateDirectories: true)
            try "<model/>".write(toFile: closed + "/Hidden.xcdatamodel/contents", atomically: true, encoding: .utf8)
            chmod(closed, 0o700)
            let h = try await runAsNobody(binary, ["run", "--model", closed + "/Hidden.xcdatamodel", "--rows", "10"])
            #expect(
                (h.0 == 66 && h.1.contains("cannot be read: Permission denied") && !h.1.contains("does not exist"))
                    || h.1.hasPrefix("setpriv:"), "\(h)")
        }
        let i = try await CLI.run(["run", "--input", dir, "--strategy", "batch"], tmpdir: dir)
        #expect(i.status == 66 && i.stderr.contains("is a folder; give the import file in it"), "\(i.stderr)")
    }

    /// Runs `binary` as nobody when the tests run as root (as itself otherwise): its exit status
    /// and standard error.
    private func runAsNobody(_ binary: String, _ arguments: [String]) async throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: getuid() == 0 ? "/usr/bin/setpriv" : binary)
        p.arguments =
            getuid() == 0 ? ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments : arguments
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: await CLI.readToEnd(err), as: UTF8.self)
        await CLI.exit(of: p)
        return (p.terminationStatus, text)
    }

    /// 15. A feed repeating a value of a second uniqueness constraint under two keys is refused
    /// when read (65), naming both records; the constraint on a non-key is noted, and a built-in
    /// dataset keeps its key (it led to "give --key", then "--key applies only with --model").
    @Test func aFeedBreakingASecondConstraintIsRefusedNamingBothRecords() async throws {
        let dir = CLI.makeFolder()
        let feed = dir + "/feed.ndjson"
        try """
        {"id": "a", "amount": 1.5, "date": 1700000000, "note": "rent", "categoryName": "Home"}
        {"id": "b", "amount": 2.5, "date": 1700000000, "note": "food", "categoryName": "Food"}
        {"id": "a", "amount": 1.5, "date": 1700000000, "note": "rent", "categoryName": "Home"}
        {"id": "c", "amount": 3.5, "date": 1700000000, "note": "rent", "categoryName": "Home"}

        """.write(toFile: feed, atomically: true, encoding: .utf8)
        let r = try await CLI.run(
            ["run", "--input", feed, "--add-constraint", "note", "--strategy", "batch"], tmpdir: dir)
        #expect(
            r.status == 65 && r.stderr.contains("record 4: has the same note as record 1 under another key"),
            "\(r.stderr)")
        let g = try await CLI.run(
            [
                "run", "--add-constraint", "note", "--strategy", "find-or-create", "--rows", "200", "--no-limit",
                "--out", dir + "/r.csv",
            ], tmpdir: dir)
        #expect(
            g.status == 0
                && (g.stdout + g.stderr).contains("--add-constraint note: a second uniqueness constraint on Expense"),
            "\(g.stderr)")
        // The model's own second constraint (LoopKit's syncIdentifier beside its uuid) likewise.
        let model = ModelCommandTests.model(
            """
            <model><entity name="Reading"><attribute name="uuid" attributeType="String"/>\
            <attribute name="syncIdentifier" attributeType="String"/>\
            <attribute name="value" optional="YES" attributeType="Double" defaultValueString="0"/>\
            <uniquenessConstraints><uniquenessConstraint><constraint value="uuid"/></uniquenessConstraint>\
            <uniquenessConstraint><constraint value="syncIdentifier"/></uniquenessConstraint></uniquenessConstraints>\
            </entity></model>
            """, in: dir)
        let readings = dir + "/readings.ndjson"
        try """
        {"uuid": "u1", "syncIdentifier": "s1", "value": 5.5}
        {"uuid": "u2", "syncIdentifier": "s1", "value": 6.5}

        """.write(toFile: readings, atomically: true, encoding: .utf8)
        let own = try await CLI.run(
            [
                "run", "--model", model, "--entity", "Reading", "--key", "uuid", "--input", readings, "--strategy",
                "batch",
            ],
            tmpdir: dir)
        #expect(
            own.status == 65
                && own.stderr.contains("record 2: has the same syncIdentifier as record 1 under another key"),
            "\(own.stderr)")
    }

    /// 18. A verdict file that is there but cannot be read (a link to nothing, a folder) is no
    /// input (66), not a part that did not run, which would let the gate pass.
    @Test func aVerdictFileThatCannotBeReadIsNoInput() async throws {
        let dir = CLI.makeFolder()
        try FileManager.default.createSymbolicLink(atPath: dir + "/work.json", withDestinationPath: dir + "/gone")
        let link = try await CLI.run(["verdict", "--work", dir + "/work.json"])
        #expect(link.status == 66 && link.stderr.contains("--work \(dir)/work.json cannot be read"), "\(link.stderr)")
        let folder = try await CLI.run(["verdict", "--time", dir])
        #expect(folder.status == 66 && folder.stderr.contains("--time \(dir) is a folder"), "\(folder.stderr)")
        // Nothing there at all is a part that did not run: the comment says so, and exits 0.
        let absent = try await CLI.run(["verdict", "--work", dir + "/none.json"])
        #expect(absent.status == 0 && !absent.stdout.isEmpty, "\(absent.stderr)")
    }

    /// 20. Two many-to-manys in one flag are refused saying a run takes one, not read as one
    /// name whose key is the rest.
    @Test func twoManyToManysSayARunTakesOne() async throws {
        let r = try await CLI.run([
            "run", "--dataset", "photos", "--many-to-many", "tags.name,albums.title", "--rows", "10",
        ])
        #expect(r.status == 64 && r.stderr.contains("expects one many-to-many (NAME or NAME.KEY)"), "\(r.stderr)")
    }
}
