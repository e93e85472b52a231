import Foundation
import Host

/// Reads an RFC 4180 CSV file record by record, a chunk at a time, without holding the file.
/// A class so that the file is closed when the last reader lets go of it; one thread reads it.
///
/// `compare` and `plot --history` read a year of nightlies (100 MB and more): parsing the whole
/// text into `[[String]]` and then dictionaries took two minutes and two gigabytes. This reads
/// bytes into one buffer that holds a few records at a time, and hands out each record's fields
/// as byte ranges; a field becomes a `String` only when a reader asks for it.
///
/// It reads with `read(2)`, so a pipe (`<(cat file)`, `/dev/stdin`) works as well as a file. A
/// UTF-8 byte-order mark (what spreadsheet programs write) is skipped. Line ends may be CRLF,
/// LF or CR; a quoted field may hold any of them.
package final class CSVStream {
    /// The path as given, for messages.
    package let path: String
    private let fd: Int32
    private var buffer: [UInt8]
    /// The unread bytes are `buffer[position..<filled]`.
    private var position = 0
    private var filled = 0
    private var atEnd = false
    private var first = true
    /// The physical line (1-based) the current record starts on, as an editor counts lines.
    package private(set) var line = 0
    private var nextLine = 1
    /// The current record's fields: the bytes between the delimiters (inside the quotes for a
    /// quoted field), and whether a field was quoted (its doubled quotes are undone on reading).
    private var ranges: [Range<Int>] = []
    private var quoted: [Bool] = []

    /// Bytes read per `read(2)`; the buffer grows past it only for a record longer than that.
    static let chunk = 1 << 20

    /// Opens `path` for reading (`chunk`: bytes per read; tests make it tiny to put every
    /// boundary inside a record). Throws `CSVStreamError.cannotOpen` with the system's reason.
    package init(path: String, chunk: Int = CSVStream.chunk) throws(CSVStreamError) {
        self.path = path
        let fd = Posix.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(path, errno: errno) }
        var info = stat()
        if Posix.fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            Posix.close(fd)
            throw .cannotOpen(path, errno: EISDIR)
        }
        self.fd = fd
        buffer = [UInt8](repeating: 0, count: max(1, chunk))
    }

    deinit { Posix.close(fd) }

    // MARK: Records

    /// Moves to the next record; false at the end of the file. Throws when the file ends
    /// inside a quoted field (it was cut short) or cannot be read.
    package func next() throws(CSVStreamError) -> Bool {
        while true {
            if position == filled {
                if atEnd { return false }
                try refill()
                continue
            }
            if let end = try parseRecord() {
                position = end
                first = false
                return true
            }
            // The record runs past the bytes read so far: read more and parse it again.
            try refill()
        }
    }

    /// Fields in the current record.
    package var count: Int { ranges.count }

    /// True when the record is a blank line (one empty, unquoted field).
    package var isBlankLine: Bool { ranges.count == 1 && ranges[0].isEmpty && !quoted[0] }

    /// Field `i` of the current record as text.
    package func string(_ i: Int) -> String {
        let range = ranges[i]
        let text = buffer.withUnsafeBufferPointer { String(decoding: $0[range], as: UTF8.self) }
        return quoted[i] && text.contains("\"") ? text.replacingOccurrences(of: "\"\"", with: "\"") : text
    }

    /// True when field `i` is empty.
    package func isEmpty(_ i: Int) -> Bool { ranges[i].isEmpty }

    /// Field `i`'s bytes (quotes inside a quoted field still doubled), for checks that need no
    /// `String`.
    package func withBytes<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let range = ranges[i]
        return buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Every field of the current record as text.
    package var strings: [String] { (0..<ranges.count).map { string($0) } }

    // MARK: Parsing

    /// Parses the record at `position`; nil when it does not end within the bytes read (and the
    /// file goes on). Returns where the next record starts.
    private func parseRecord() throws(CSVStreamError) -> Int? {
        ranges.removeAll(keepingCapacity: true)
        quoted.removeAll(keepingCapacity: true)
        var newlines = 0
        let end = filled
        let final = atEnd
        let result: Int? = buffer.withUnsafeBufferPointer { b -> Int? in
            var i = position
            while true {
                // One field.
                if i < end && b[i] == UInt8(ascii: "\"") {
                    let start = i + 1
                    guard let j = Self.closingQuote(b, from: start, end: end, final: final, newlines: &newlines) else {
                        return nil
                    }
                    ranges.append(start..<j)
                    quoted.append(true)
                    i = j + 1
                    // Anything between the closing quote and the delimiter belongs to the field
                    // in the old reader; keep it out (it cannot occur in a file loadgen wrote).
                    i = Self.delimiter(b, from: i, end: end)
                } else {
                    let start = i
                    i = Self.delimiter(b, from: i, end: end)
                    ranges.append(start..<i)
                    quoted.append(false)
                }
                // The delimiter after it.
                guard i < end else { return final ? end : nil }
                switch b[i] {
                case UInt8(ascii: ","):
                    i += 1
                case UInt8(ascii: "\r"):
                    guard i + 1 < end || final else { return nil }   // CR LF may straddle the chunk
                    newlines += 1
                    return i + 1 < end && b[i + 1] == UInt8(ascii: "\n") ? i + 2 : i + 1
                default:   // "\n"
                    newlines += 1
                    return i + 1
                }
            }
        }
        if result == nil && final {
            throw .unterminatedQuote(path, line: nextLine)
        }
        if result != nil {
            line = nextLine
            nextLine += newlines
        }
        return result
    }

    /// The first comma, CR or LF at or after `i` (or `end`).
    @inline(__always)
    private static func delimiter(_ b: UnsafeBufferPointer<UInt8>, from i: Int, end: Int) -> Int {
        var i = i
        while i < end && b[i] != UInt8(ascii: ",") && b[i] != UInt8(ascii: "\n") && b[i] != UInt8(ascii: "\r") {
            i += 1
        }
        return i
    }

    /// The closing quote of a quoted field whose text starts at `start` (a doubled quote is one
    /// quote of the text), counting the newlines inside; nil when the bytes read end first
    /// (more to read, or a cut file), or when a doubled quote may straddle the chunk.
    private static func closingQuote(
        _ b: UnsafeBufferPointer<UInt8>, from start: Int, end: Int, final: Bool,
        newlines: inout Int
    ) -> Int? {
        var j = start
        while true {
            guard j < end else { return nil }
            if b[j] == UInt8(ascii: "\"") {
                if j + 1 < end && b[j + 1] == UInt8(ascii: "\"") {
                    j += 2
                    continue
                }
                if j + 1 == end && !final { return nil }
                return j
            }
            if b[j] == UInt8(ascii: "\n") { newlines += 1 }
            j += 1
        }
    }

    /// Moves the unread bytes to the front and reads more after them (growing the buffer when
    /// one record fills it). Sets `atEnd` at the end of the file.
    private func refill() throws(CSVStreamError) {
        if position > 0 {
            let unread = filled - position
            if unread > 0 {
                buffer.withUnsafeMutableBufferPointer { b in
                    _ = memmove(b.baseAddress!, b.baseAddress! + position, unread)
                }
            }
            filled = unread
            position = 0
        }
        if filled == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
        let n: Int
        do {
            n = try buffer.withUnsafeMutableBufferPointer { b throws(Posix.Failure) in
                try Posix.read(fd, into: b.baseAddress! + filled, count: b.count - filled)
            }
        } catch {
            throw .cannotRead(path, errno: error.errno)
        }
        if n == 0 { atEnd = true }
        filled += n
        // The mark can only be the file's first three bytes: look once they are all read.
        if first && (filled >= 3 || atEnd) {
            first = false
            if filled >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { position = 3 }
        }
    }
}

/// Why a CSV file cannot be read.
package enum CSVStreamError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(String, errno: Int32)
    case cannotRead(String, errno: Int32)
    case unterminatedQuote(String, line: Int)

    package var description: String {
        switch self {
        case .cannotOpen(let path, let code): return "cannot read \(path): \(String(cString: strerror(code)))"
        case .cannotRead(let path, let code): return "cannot read \(path): \(String(cString: strerror(code)))"
        case .unterminatedQuote(let path, let line):
            return "\(path):\(line): the file ends inside a quoted field (cut short?)"
        }
    }
}
