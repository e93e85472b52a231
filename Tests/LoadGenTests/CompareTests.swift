import Foundation
import Testing

/// `loadgen compare` on synthetic results files (issue 10): what must match, what may wobble,
/// and what makes a file unreadable. The files are made from one real run, then edited.
@Suite(.serialized) struct CompareTests {
    /// A real results file (two strategies and a racing one, five repetitions each), made once.
    static let fixture = ResultsFixture.make(
        [
            "--strategy", "context-reset,prefetch,many-writers", "--rows", "1500",
            "--writers", "1,3", "--repeat", "5",
        ], name: "baseline.csv")
    static var base: ResultsFixture { get async throws { try await fixture.get() } }

    /// Writes the base rows (edited by `edit`) as a results file and returns its path.
    func write(_ name: String, edit: (inout [String: String]) -> Void = { _ in }) async throws -> String {
        try await Self.base.write(name, edit: edit)
    }

    func compare(_ arguments: [String]) async throws -> CLI.Result { try await CLI.run(["compare"] + arguments) }

    @Test func identicalFilesAreClean() async throws {
        await #expect(try Self.base.rows.count == 25)
        let r = try await compare([Self.base.path, try write("same.csv")])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasPrefix("## loadgen compare: no regression"))
        #expect(r.stdout.contains("Regressions (0)") && r.stdout.contains("in 5 configurations"))
    }

    @Test func aChangedExactFigureIsARegressionNamingIt() async throws {
        let statements = try await write("statements.csv") { row in
            if row["strategy"] == "prefetch" { row["sql_statements"] = String(Int(row["sql_statements"]!)! + 1) }
        }
        let r = try await compare([Self.base.path, statements])
        #expect(r.status == 1)
        #expect(
            r.stdout.contains("| prefetch") && r.stdout.contains("| sql_statements |")
                && r.stdout.contains("exact figure"))
        // A store that lost keys is never ok (a row saying so is refused as edited).
        let lost = try await write("lost.csv") { row in
            if row["strategy"] == "context-reset" {
                row["lost"] = "3"
                row["status"] = "failed"
            }
        }
        let l = try await compare([Self.base.path, lost])
        #expect(l.status == 1 && l.stdout.contains("| context-reset") && l.stdout.contains("| lost | 0 | 3 |"))
    }

    /// Racing writers' counts that vary in the baseline are compared by a band: a small move
    /// stays in it, a large one does not.
    @Test func racingWritersAreComparedByABand() async throws {
        let racing = { (row: [String: String]) in row["strategy"] == "many-writers" && row["writers"] == "3" }
        var k = 0
        let varied = try await write("varied.csv") { row in
            if racing(row) {
                k += 1
                row["sql_selects"] = String(Int(row["sql_selects"]!)! + k % 3)
            }
        }
        let wobble = try await write("wobble.csv") { row in
            if racing(row) { row["sql_selects"] = String(Int(row["sql_selects"]!)! + 1) }
        }
        await #expect(try compare([varied, wobble]).status == 0)
        let broken = try await write("racing.csv") { row in
            if racing(row) { row["sql_selects"] = String(Int(row["sql_selects"]!)! * 2) }
        }
        let r = try await compare([varied, broken])
        #expect(
            r.status == 1 && r.stdout.contains("| sql_selects |")
                && r.stdout.contains("writers race, compared by a band"),
            "\(r.stdout)")
    }

    /// A count that repeats in every repetition of a baseline of two nights is judged by a tight
    /// band where writers race (issue 19: one-writer at four writers repeats its statements
    /// exactly, and an extra statement per save passed the ±5 % band).
    @Test func aCountThatRepeatsGetsATightBandWhereWritersRace() async throws {
        let racing = { (row: [String: String]) in row["strategy"] == "many-writers" && row["writers"] == "3" }
        let same = try await write("same-statements.csv") { row in if racing(row) { row["sql_statements"] = "5000" } }
        // Two nights of five (ten repetitions) that agree.
        let twoNights = try await Self.base.dir + "/two-nights.csv"
        let lines = try String(contentsOfFile: same, encoding: .utf8).components(separatedBy: "\r\n").filter {
            !$0.isEmpty
        }
        let again = lines.dropFirst().map { "x" + $0 }   // another invocation's run ids
        try ((lines + again).joined(separator: "\r\n") + "\r\n").write(
            toFile: twoNights, atomically: true, encoding: .utf8)
        let more = try await write("ten-more.csv") { row in if racing(row) { row["sql_statements"] = "5010" } }
        let r = try await compare([twoNights, more])
        #expect(
            r.status == 1 && r.stdout.contains("| sql_statements | 5000 (in all 10) | 5010 |")
                && r.stdout.contains("it repeated in every baseline repetition, so within ±6"), "\(r.stdout)")
        // One night of five agreeing repetitions keeps the wide band: +0.2 % passes.
        await #expect(try compare([same, more]).status == 0)
    }

    /// Halved over every repetition. A debug build's vs_limit at 1,500 rows spreads widely, so the
    /// baseline here is made tight (as at real sizes) and the current file is it, halved.
    @Test func halvedSpeedOverEveryRepeatIsARegression() async throws {
        var k = 0.0
        let tight = try await write("tight.csv") { row in
            if row["strategy"] == "context-reset" {
                k += 1
                row["vs_limit"] = String(0.50 + 0.01 * k)
            }
        }
        k = 0
        let slow = try await write("slow.csv") { row in
            if row["strategy"] == "context-reset" {
                k += 1
                row["vs_limit"] = String((0.50 + 0.01 * k) / 2)
            }
        }
        let r = try await compare([tight, slow])
        #expect(
            r.status == 1 && r.stdout.contains("| vs_limit |")
                && r.stdout.contains("slower past ±10.0 % (Mann-Whitney p = 0.004"),
            "\(r.stdout)")
    }

    @Test func aWobbleInsideTheNoiseIsNotARegression() async throws {
        var flip = false
        let wobble = try await write("wobble3.csv") { row in
            flip.toggle()
            if let v = Double(row["vs_limit"]!) { row["vs_limit"] = String(v * (flip ? 0.97 : 1.03)) }
            if let v = Double(row["peak_rss_bytes"]!) { row["peak_rss_bytes"] = String(Int(v * 1.03)) }
        }
        let r = try await compare([Self.base.path, wobble])
        #expect(r.status == 0, "\(r.stdout)")
    }

    @Test func fivePercentMoreAllocationsIsARegression() async throws {
        let more = try await write("alloc.csv") { row in
            if row["strategy"] == "prefetch", let v = Double(row["allocations"]!) {
                row["allocations"] = String(Int(v * 1.05))
            }
        }
        let r = try await compare([Self.base.path, more])
        #expect(r.status == 1 && r.stdout.contains("| allocations |") && r.stdout.contains("more work"))
    }

    @Test func aConfigurationOnOneSideIsListed() async throws {
        let fewer = try await write("fewer.csv") { row in if row["strategy"] == "prefetch" { row["rows"] = "1600" } }
        let r = try await compare([Self.base.path, fewer])
        #expect(r.stdout.contains("- only in the baseline: prefetch rows=1500"))
        #expect(r.stdout.contains("- only now: prefetch rows=1600"))
    }

    @Test func shardsAreMergedBeforeComparing() async throws {
        let first = try await write("shard1.csv")
        let text = try String(contentsOfFile: first, encoding: .utf8).split(
            separator: "\r\n", omittingEmptySubsequences: false)
        let header = text[0]
        let rows = text.dropFirst().filter { !$0.isEmpty }
        try ([header] + rows.prefix(10)).joined(separator: "\r\n").appending("\r\n").write(
            toFile: first, atomically: true, encoding: .utf8)
        let second = try await Self.base.dir + "/shard2.csv"
        try ([header] + rows.dropFirst(10)).joined(separator: "\r\n").appending("\r\n").write(
            toFile: second, atomically: true, encoding: .utf8)
        let r = try await compare([Self.base.path, first, second])
        #expect(
            r.status == 0 && r.stdout.contains("in 5 configurations") && !r.stdout.contains("Not compared"),
            "\(r.stdout)")
    }

    /// Each as the exit-status table says: 65 malformed, 66 missing, 64 misused, 2 not judged (other machines).
    @Test func foreignTruncatedAndMixedFilesExitAsTheTableSaysNamingFileAndLine() async throws {
        let dir = try await Self.base.dir
        let foreign = dir + "/foreign.csv"
        try "name,value\r\na,1\r\n".write(toFile: foreign, atomically: true, encoding: .utf8)
        let f = try await compare([Self.base.path, foreign])
        #expect(f.status == 65 && f.stderr.contains("\(foreign):1: not a loadgen results file"))

        let cut = dir + "/cut.csv"
        let full = try await String(contentsOfFile: Self.base.path, encoding: .utf8)
        let lines = full.split(separator: "\r\n")
        try (lines.prefix(3).joined(separator: "\r\n") + "\r\n" + lines[3].prefix(40)).write(
            toFile: cut, atomically: true, encoding: .utf8)
        let c = try await compare([Self.base.path, cut])
        #expect(c.status == 65 && c.stderr.contains("\(cut):4: the row has"), "\(c.stderr)")

        let other = try await write("other.csv") { row in row["cpu_model"] = "Another CPU" }
        let m = try await compare([Self.base.path, other])
        #expect(m.status == 2 && m.stderr.contains("different machines") && m.stderr.contains("--cross-machine"))
        let allowed = try await compare([Self.base.path, other, "--cross-machine"])
        #expect(allowed.status == 0 && allowed.stdout.contains("Compared across machines"))

        await #expect(try compare([Self.base.path]).status == 64)
        await #expect(try compare([Self.base.path, dir + "/missing.csv"]).status == 66)
    }

    /// The allocation requests of a single-writer strategy agree in two runs of one configuration
    /// (counts, not times), so the gate can be strict about them; VM steps repeat exactly.
    /// Measured with 3,000 rows: the release binary (what the nightly gate runs) repeated its
    /// counts exactly in 6 of 6 runs (batch 73,593, prefetch 57,021); the debug binary these tests
    /// run wanders by up to ~150 requests in 142,000 (0.11 % seen in CI). The wander stays when the
    /// child is pinned to one CPU, with jemalloc's thread caches off (`MALLOC_CONF=tcache:false`)
    /// and with the sampler silenced, and raw-sqlite (no engine) repeats exactly in debug too; the
    /// cause inside the debug engine is not pinned down. The bound is 0.5 %: four times below the
    /// gate's 2 % default, and far below what a per-row or per-tick allocation would add.
    @Test func allocationCountsRepeat() async throws {
        let dir = CLI.makeFolder()
        let out = dir + "/twice.csv"
        for _ in 0..<2 {
            let r = try await CLI.run(
                ["run", "--strategy", "batch,prefetch", "--rows", "3000", "--no-limit", "--out", out, "--quiet"],
                tmpdir: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let rows = try CLI.rows(out)
        for strategy in ["batch", "prefetch"] {
            let counts = rows.filter { $0["strategy"] == strategy }.map { $0["allocations"]! }
            let a = Double(counts[0]) ?? 0
            let b = Double(counts[1]) ?? -1
            #expect(counts.count == 2 && a > 0 && abs(a - b) / a < 0.005, "\(strategy): \(counts)")
            let steps = rows.filter { $0["strategy"] == strategy }.map { $0["sql_vm_steps"]! }
            #expect(steps[0] == steps[1] && Int(steps[0])! > 0)
        }
    }

    /// Issue 47, 4: the nightly suite's four shards carry costs within 20 % of each other
    /// (records × repetitions, fifty times under callgrind), where every fourth configuration gave
    /// 1.46 M, 4.26 M, 1.48 M and 4.58 M record-repetitions. Read from `--dry-run --no-estimate`,
    /// which lists a shard without running or calibrating anything.
    @Test func theNightlySuitesShardsAreBalanced() async throws {
        let suite = NightlyGateTests.checkout + "/bench/suites/nightly"
        var loads: [Double] = []
        for k in 1...4 {
            let r = try await CLI.run(["run", "--suite", suite, "--shard", "\(k)/4", "--dry-run", "--no-estimate"])
            #expect(r.status == 0 && !r.stdout.contains("estimated duration"), "\(r.stderr)")
            var load = 0.0
            var repetitions = 1.0
            var factor = 1.0
            for line in r.stdout.split(separator: "\n") {
                if let times = line.range(of: " configurations × ") ?? line.range(of: " configuration × ") {
                    repetitions = Double(line[times.upperBound...].split(separator: " ")[0]) ?? 1
                    factor = line.contains("callgrind") ? 50 : 1
                }
                guard line.hasPrefix("  configuration"), !line.contains("(limit, added"),
                    let rows = line.range(of: #"rows=(\d+)"#, options: .regularExpression)
                else { continue }
                load += (Double(line[rows].dropFirst(5)) ?? 0) * repetitions * factor
            }
            loads.append(load)
        }
        let (low, high) = (loads.min()!, loads.max()!)
        #expect(low > 0 && high / low < 1.2, "\(loads)")
    }

    /// Issue 58, item 2: by the committed baseline's times (`--shard-by`), the nightly suite's
    /// four shards carry times within 25 % of each other, every configuration found there, and
    /// every shard says the same split. A suite line the file lacks costs its records.
    @Test func theNightlySuitesShardsAreBalancedByTime() async throws {
        let suite = NightlyGateTests.checkout + "/bench/suites/nightly"
        let baseline = NightlyGateTests.checkout + "/results/baseline.csv"
        var said: Set<String> = []
        var loads: [Double] = []
        for k in 1...4 {
            let r = try await CLI.run([
                "run", "--suite", suite, "--shard", "\(k)/4", "--shard-by", baseline, "--dry-run", "--no-estimate",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let line = try #require(
                r.stderr.split(separator: "\n").first { $0.contains("--shard \(k)/4: about") }.map(String.init))
            let shards = try #require(
                line.components(separatedBy: "(shards: ").dropFirst().first?.components(separatedBy: ";").first)
            said.insert(shards)
            // "102.85 s", "1 min 42 s", "950.0 ms": value and unit pairs.
            loads = shards.components(separatedBy: ", ").map { part in
                let words = part.split(separator: " ").map(String.init)
                return stride(from: 0, to: words.count - 1, by: 2).reduce(0.0) { total, i in
                    let units: [String: Double] = ["h": 3600, "min": 60, "s": 1, "ms": 0.001]
                    let unit = units[words[i + 1]] ?? 0
                    return total + (Double(words[i]) ?? 0) * unit
                }
            }
            #expect(line.contains("configurations found there") && !line.contains(" 0 of "), "\(line)")
        }
        #expect(said.count == 1, "\(said)")
        #expect(loads.count == 4 && loads.min()! > 0 && loads.max()! / loads.min()! <= 1.25, "\(loads)")
        let alone = try await CLI.run(["run", "--rows", "10", "--shard-by", baseline])
        #expect(alone.status == 64 && alone.stderr.contains("--shard-by apply only with --suite"), "\(alone.stderr)")
    }

    /// Every configuration of a suite lands in exactly one shard.
    @Test func shardsCoverEveryConfigurationOnce() async throws {
        let dir = CLI.makeFolder()
        let suite = dir + "/suite"
        try
            "# two runs\n--strategy batch,prefetch --rows 1k,2k,3k\n\n--strategy many-writers --writers 1,2,3 --no-limit\n"
            .write(toFile: suite, atomically: true, encoding: .utf8)
        func configurations(_ extra: [String]) async throws -> [String] {
            let r = try await CLI.run(["run", "--suite", suite, "--dry-run"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").filter {
                $0.hasPrefix("  configuration") && !$0.contains("(limit, added")
            }
            .map { String($0.split(separator: ":", maxSplits: 1)[1]) }
        }
        let all = try await configurations([])
        #expect(all.count == 6 + 3)
        var seen: [String] = []
        for k in 1...4 { await seen += try configurations(["--shard", "\(k)/4"]) }
        #expect(seen.sorted() == all.sorted())
        let bad = try await CLI.run(["run", "--suite", suite, "--shard", "5/4"])
        #expect(bad.status == 64 && bad.stderr.contains("--shard"))
        let stray = try await CLI.run(["run", "--suite", suite, "--rows", "10"])
        #expect(stray.status == 64 && stray.stderr.contains("--rows goes in the suite's lines"))
    }
}
