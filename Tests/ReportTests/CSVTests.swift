import Foundation
import Testing

@testable import Report

@Suite struct CSVTests {
    @Test func quotingRoundTrips() throws {
        let rows = [
            ["plain", "with,comma", "with \"quote\"", "line\nbreak", "crlf\r\nbreak", "", "ünïcödé"],
            ["a", "b", "c", "d", "e", "f", "g"],
        ]
        let text = rows.map(CSV.line).joined()
        #expect(try CSV.parse(text) == rows)
    }

    @Test func linesEndWithCRLF() {
        #expect(CSV.line(["a", "b"]) == "a,b\r\n")
        #expect(CSV.quote("x,y") == "\"x,y\"")
        #expect(CSV.quote("say \"hi\"") == "\"say \"\"hi\"\"\"")
    }

    @Test func unterminatedQuoteIsAnError() {
        #expect(throws: CSVError.self) { try CSV.parse("a,\"b\r\nc") }
    }

    @Test func parsesLFFiles() throws {
        #expect(try CSV.parse("a,b\nc,d\n") == [["a", "b"], ["c", "d"]])
    }
}

@Suite struct ResultsFileTests {
    let folder: String = {
        let path = NSTemporaryDirectory() + "loadgen-tests-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    @Test func headerIsWrittenOnce() throws {
        let file = ResultsFile(path: folder + "/r.csv", header: ["a", "b"])
        try file.append([["1", "x,y"]])
        try file.append([["2", "z"], ["3", "w"]])
        #expect(try file.records() == [["a", "b"], ["1", "x,y"], ["2", "z"], ["3", "w"]])
    }

    @Test func foreignHeaderIsRefusedAndLeftUntouched() throws {
        let path = folder + "/foreign.csv"
        let original = "name,value\r\nx,1\r\n"
        try original.write(toFile: path, atomically: true, encoding: .utf8)
        let file = ResultsFile(path: path, header: ["a", "b"])
        #expect(throws: ResultsFileError.self) { try file.checkAppendable() }
        #expect(throws: ResultsFileError.self) { try file.append([["1", "2"]]) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == original)
    }

    @Test func missingFolderIsRefused() {
        let file = ResultsFile(path: folder + "/no/such/folder/r.csv")
        #expect(throws: ResultsFileError.missingFolder(folder + "/no/such/folder")) { try file.checkAppendable() }
    }

    /// A row's fields land under their own columns, rendered as documented.
    @Test func aKnownRowRendersItsValuesUnderTheirColumns() throws {
        let parameters = ParameterValues([
            "strategy": "batch", "rows": "1000", "unique_keys": "900", "dup_rate": "0.1000",
            "key_dist": "zipf", "seed": "7", "batch_size": "500", "zipf_s": "1.100",
        ])
        var m = RunMeasurement(status: .failed)
        m.wallSeconds = 0.5
        m.rowsDone = 1_000
        m.error = "verifier: 2 lost keys, 1 bad link"
        m.verification = Verification(
            storeRows: 998, duplicates: 0, lost: 2, badLinks: 1, integrity: "ok", storeBytes: 4096)
        m.verification?.unexpectedRows = 3
        m.leakedConnections = 0
        let row = ResultRow(
            identity: RunIdentity(
                runID: "r-1", startedAt: "2026-01-01T00:00:00Z",
                system: SystemInfo.current(gitRevision: "abc")),
            parameters: parameters, repetition: 2, repetitions: 3, configuration: "batch_size=500",
            measurement: m, vsLimit: 0.25)
        let fields = Dictionary(uniqueKeysWithValues: zip(ResultRow.header, row.fields))
        let expected = [
            "run_id": "r-1", "git_rev": "abc", "strategy": "batch", "rows": "1000", "unique_keys": "900",
            "dup_rate": "0.1000", "key_dist": "zipf", "seed": "7", "batch_size": "500", "writers": "",
            "repeat": "2", "repeats": "3", "status": "failed", "wall_s": "0.500000", "rows_per_s": "2000.0",
            "vs_limit": "0.2500", "store_rows": "998", "lost": "2", "bad_links": "1", "integrity": "ok",
            "unexpected_rows": "3", "leaked_connections": "0", "zipf_s": "1.100",
            "config": "batch_size=500", "error": "verifier: 2 lost keys, 1 bad link",
        ]
        for (column, value) in expected { #expect(fields[column] == value, "\(column)") }
        // The error holds a comma: quoted in the line, whole again when parsed.
        #expect(try CSV.parse(CSV.line(row.fields)) == [row.fields])
    }

    /// A file whose last row lost its line end gets one before the next row; a row cut short
    /// is refused (the next row would be glued to it) and the file left as it was.
    @Test func aLastRowWithoutItsLineEndIsEndedAndACutOneRefused() throws {
        let path = folder + "/unterminated.csv"
        try "a,b\r\n1,2".write(toFile: path, atomically: true, encoding: .utf8)
        let file = ResultsFile(path: path, header: ["a", "b"])
        try file.checkAppendable()
        try file.append([["3", "4"]])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a,b\r\n1,2\r\n3,4\r\n")
        let cut = folder + "/cut.csv"
        try "a,b\r\n1,2\r\n3".write(toFile: cut, atomically: true, encoding: .utf8)
        let refused = ResultsFile(path: cut, header: ["a", "b"])
        #expect(throws: ResultsFileError.truncatedRow(cut, line: 3, fields: 1, expected: 2)) {
            try refused.checkAppendable()
        }
        #expect(throws: ResultsFileError.truncatedRow(cut, line: 3, fields: 1, expected: 2)) {
            try refused.append([["5", "6"]])
        }
        #expect(try String(contentsOfFile: cut, encoding: .utf8) == "a,b\r\n1,2\r\n3")
    }

    /// Appending through a symbolic link keeps the link, and the file keeps its mode.
    @Test func aLinkStaysALinkAndTheModeIsKept() throws {
        let real = folder + "/real.csv"
        let link = folder + "/link.csv"
        let file = ResultsFile(path: real, header: ["a"])
        try file.append([["1"]])
        chmod(real, 0o600)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.csv")
        try ResultsFile(path: link, header: ["a"]).append([["2"]])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.csv")
        #expect(try file.records() == [["a"], ["1"], ["2"]])
        var info = stat()
        stat(real, &info)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test func aFolderIsRefusedAsCannotCreate() throws {
        let file = ResultsFile(path: folder)
        #expect(throws: ResultsFileError.isFolder(folder)) { try file.checkAppendable() }
        #expect(ResultsFileError.isFolder(folder).exitCode == 73)
    }

    @Test func everyColumnHasAValueInEveryRow() {
        let row = ResultRow(
            identity: RunIdentity(runID: "r", startedAt: "t", system: SystemInfo.current(gitRevision: "g")),
            parameters: ParameterValues(["strategy": "s"]), measurement: RunMeasurement(status: .crashed))
        #expect(row.fields.count == ResultRow.header.count)
        #expect(Set(ResultRow.header).count == ResultRow.header.count)
        // The brief's columns come first, in its order.
        let brief = [
            "run_id", "started_at", "git_rev", "host", "cpu_model", "cores", "os", "swift_version",
            "sqlite_version", "allocator", "strategy", "dataset", "rows", "unique_keys", "dup_rate", "key_dist",
            "seed", "batch_size", "writers", "producer_latency_us", "store", "journal", "synchronous", "repeat",
            "repeats", "status", "wall_s", "cpu_user_s", "cpu_sys_s", "rows_per_s", "vs_limit", "peak_rss_bytes",
            "end_rss_bytes", "peak_heap_bytes", "sql_statements", "sql_selects", "saves", "transactions",
            "busy_retries", "conflicts", "save_p50_ms", "save_p99_ms", "store_rows", "duplicates", "lost",
            "integrity", "store_bytes", "error",
        ]
        #expect(Array(ResultRow.header.prefix(brief.count)) == brief)
    }
}
