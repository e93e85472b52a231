import Foundation
import Testing

@testable import Report

/// The streaming reader against the whole-text parser: the same records from every chunk size,
/// so that no record, quote, doubled quote or line end is cut wrongly at a chunk's edge.
@Suite struct CSVStreamTests {
    let folder: String = {
        let path = NSTemporaryDirectory() + "loadgen-csvstream-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func write(_ text: String, _ name: String = "f.csv") throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func records(_ path: String, chunk: Int) throws -> [[String]] {
        let stream = try CSVStream(path: path, chunk: chunk)
        var out: [[String]] = []
        while try stream.next() { out.append(stream.strings) }
        return out
    }

    @Test func everyChunkSizeGivesTheRecordsOfTheWholeTextParser() throws {
        let rows = [
            ["plain", "with,comma", "with \"quote\"", "line\nbreak", "crlf\r\nbreak", "", "ünïcödé"],
            ["a", "\"", "\"\"", "", "e", "f,", "g"], ["1", "2", "3", "4", "5", "6", "7"],
        ]
        let text = rows.map(CSV.line).joined()
        let path = try write(text)
        for chunk in 1...text.utf8.count + 1 {
            #expect(try records(path, chunk: chunk) == CSV.parse(text), "chunk \(chunk)")
        }
        let lf = try write("a,b\nc,d\n\ne,\"f\ng\"\nh,i", "lf.csv")
        for chunk in 1...12 {
            #expect(try records(lf, chunk: chunk) == [["a", "b"], ["c", "d"], [""], ["e", "f\ng"], ["h", "i"]])
        }
    }

    @Test func linesAreCountedAsAnEditorShowsThem() throws {
        let path = try write("h1,h2\r\n\"two\nlines\",x\r\n\r\nlast,y\r\n")
        let stream = try CSVStream(path: path, chunk: 3)
        var lines: [Int] = []
        while try stream.next() { lines.append(stream.line) }
        #expect(lines == [1, 2, 4, 5])
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let path = try write("\u{FEFF}a,b\r\n1,2\r\n")
        for chunk in 1...4 { #expect(try records(path, chunk: chunk) == [["a", "b"], ["1", "2"]]) }
    }

    @Test func aFileCutInsideAQuoteIsRefusedWithItsLine() throws {
        let path = try write("a,b\r\n1,\"cut\r\nshort")
        #expect(throws: CSVStreamError.unterminatedQuote(path, line: 2)) { _ = try records(path, chunk: 4) }
    }

    @Test func aPipeIsReadLikeAFile() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let text = "a,b\r\n1,2\r\n"
        FileHandle(fileDescriptor: fds[1], closeOnDealloc: false).write(Data(text.utf8))
        close(fds[1])
        #expect(try records("/dev/fd/\(fds[0])", chunk: 2) == [["a", "b"], ["1", "2"]])
        close(fds[0])
    }

    @Test func aFolderOrAMissingFileIsRefusedWithTheReason() {
        #expect(throws: CSVStreamError.cannotOpen(folder, errno: EISDIR)) { _ = try CSVStream(path: folder) }
        #expect(throws: CSVStreamError.cannotOpen(folder + "/none", errno: ENOENT)) {
            _ = try CSVStream(path: folder + "/none")
        }
    }
}

/// Each column's domain: what a cell may hold, checked as a file is read.
@Suite struct CellDomainTests {
    func problem(_ domain: CellDomain, _ text: String) -> String? {
        Array(text.utf8).withUnsafeBufferPointer { domain.problem($0) }
    }

    @Test func numbersAsLoadgenWritesThemPassAndOthersAreNamed() {
        for good in ["", "0", "12", "0.5000", "123456.789"] { #expect(problem(.measured, good) == nil, "\(good)") }
        for bad in ["nan", "inf", "-1", "1e308", "1.", ".5", "1.2.3", " 1", "0x10", "+1"] {
            #expect(problem(.measured, bad) != nil, "\(bad)")
        }
        #expect(problem(.decimal(maximum: 1000), "1000.0000") == nil)
        #expect(problem(.decimal(maximum: 1000), "1000.0001")?.contains("above 1000") == true)
        #expect(problem(.measured, String(repeating: "9", count: 400))?.contains("above") == true)
        for good in ["", "0", "42", "18446744073709551"] { #expect(problem(.count, good) == nil, "\(good)") }
        for bad in ["-5", "1.5", "nan", "12345678901234567890", "1e3"] {
            #expect(problem(.count, bad) != nil, "\(bad)")
        }
        #expect(problem(.status, "ok") == nil && problem(.status, "") != nil && problem(.status, "OK") != nil)
        #expect(problem(.text, "anything, at all") == nil)
    }

    /// The table gives every numeric column a domain that refuses a non-number.
    @Test func everyColumnThatIsNotTextRefusesNaN() {
        for column in ResultRow.columns where !column.isText {
            #expect(problem(column.domain, "nan") != nil, "\(column.name)")
        }
        #expect(ResultRow.columns.first { $0.name == "vs_limit" }?.domain == .decimal(maximum: 1000))
        #expect(ResultRow.columns.first { $0.name == "status" }?.domain == .status)
    }
}
