import Foundation
import Host

/// A results CSV that runs append to: header once, rows appended atomically.
///
/// Atomic means a reader, or a killed writer, never sees half a row. Each append writes the
/// whole new file (old content and new rows) to a temporary file beside it, syncs it and renames
/// it over the old one, under an exclusive `flock` so two loadgen processes cannot interleave.
/// Results files are small (a row per repetition), so copying them is cheap.
///
/// A symbolic link is followed: the file it names is replaced and the link stays a link. The
/// new file keeps the old one's mode and owner. A hard link cannot be kept: after an append the
/// other names still show the old content (documented in docs/decisions/0019).
package struct ResultsFile: Sendable {
    /// The path as given (what messages name).
    package let path: String
    package let header: [String]

    package init(path: String, header: [String] = ResultRow.header) {
        self.path = path
        self.header = header
    }

    /// The file appends go to: `path`, or what its symbolic links lead to (`OutputPath`: a loop
    /// leaves `path`, which `checkAppendable` refuses).
    var target: String { (try? OutputPath(path))?.target ?? path }

    /// Checks, before anything runs, that rows can be appended here: the path is no loop of
    /// links, the folder exists and is writable, and an existing file is one of ours and ends
    /// with a whole row. Throws with a message naming the problem.
    package func checkAppendable() throws {
        do { _ = try OutputPath(path) } catch { throw ResultsFileError.linkLoop(path) }
        let file = target
        if isStream { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ResultsFileError.isFolder(path)
        }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ResultsFileError.missingFolder(folder)
        }
        guard Posix.access(folder, W_OK) == 0, Self.canCreateFile(in: folder) else {
            throw ResultsFileError.notWritable(folder)
        }
        if FileManager.default.fileExists(atPath: file) {
            guard Posix.access(file, R_OK | W_OK) == 0 else { throw ResultsFileError.notWritable(path) }
            _ = try checkedContent(try readContent(file))
            try checkEveryRow(file)
        }
    }

    /// Every row has the header's fields: a row cut in the middle of the file (two appenders
    /// without loadgen's lock, an editor) would make the file unreadable by compare and plot
    /// after the run appended to it. Streamed, so a big history costs no memory.
    private func checkEveryRow(_ file: String) throws {
        do {
            let stream = try CSVStream(path: file)
            while try stream.next() {
                guard stream.isBlankLine || stream.count == header.count else {
                    throw ResultsFileError.truncatedRow(
                        path, line: stream.line, fields: stream.count, expected: header.count)
                }
            }
        } catch let error as CSVStreamError {
            switch error {
            case .unterminatedQuote(_, let line):
                throw ResultsFileError.truncatedRow(path, line: line, fields: 0, expected: header.count)
            default: throw ResultsFileError.cannotRead(path)
            }
        }
    }

    /// True when the path names a device or a pipe (`/dev/null`, a FIFO): rows are written to it
    /// as they come, header first, never by replacing it (renaming a file over /dev/null would
    /// replace the device).
    package var isStream: Bool {
        var info = stat()
        guard Posix.stat(target, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFCHR || kind == S_IFIFO
    }

    /// access(2) says yes to root everywhere; creating (and removing) a file is the real test.
    package static func canCreateFile(in folder: String) -> Bool {
        let probe = folder + "/.loadgen-probe-\(Posix.processID)"
        let fd = Posix.open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { return false }
        Posix.close(fd)
        Posix.unlink(probe)
        return true
    }

    /// Appends `rows` (each a list of fields), writing the header first if the file is new.
    package func append(_ rows: [[String]]) throws {
        let file = target
        while true {
            let fd = Posix.open(file, O_RDWR | O_CREAT, 0o644)
            guard fd >= 0 else {
                throw errno == EISDIR
                    ? ResultsFileError.isFolder(path) : ResultsFileError.cannotOpen(path, errno: errno)
            }
            defer { Posix.close(fd) }
            guard Posix.flock(fd, LOCK_EX) == 0 else { throw ResultsFileError.cannotOpen(path, errno: errno) }
            // Another writer may have renamed a new file over the one we locked: start again.
            var locked = stat()
            var current = stat()
            guard Posix.fstat(fd, &locked) == 0, Posix.stat(file, &current) == 0 else { continue }
            if locked.st_ino != current.st_ino { continue }

            var text = try checkedContent(try readContent(file))
            if text.isEmpty { text = CSV.line(header) }
            for row in rows { text += CSV.line(row) }
            try replace(file, with: text, keeping: locked)
            return
        }
    }

    /// Appends result rows.
    package func append(_ rows: [ResultRow]) throws {
        try append(rows.map(\.fields))
    }

    // MARK: Reading

    /// The file's records (header first), parsed.
    package func records() throws -> [[String]] {
        try CSV.parse(readContent(target))
    }

    private func readContent(_ file: String) throws -> String {
        guard FileManager.default.fileExists(atPath: file) else { return "" }
        guard let data = FileManager.default.contents(atPath: file) else { throw ResultsFileError.cannotRead(path) }
        return String(decoding: data, as: UTF8.self)
    }

    /// The content to append to: checked to be ours, and ending with a line end. A last row
    /// that lost only its line end (a writer that was not loadgen, an editor) is ended; one cut
    /// short is refused, since the next row would be glued to it.
    private func checkedContent(_ content: String) throws -> String {
        guard !content.isEmpty else { return content }
        // A spreadsheet program that saved the file may have put a byte-order mark first.
        let firstLine = content.drop { $0 == "\u{FEFF}" }.prefix { $0 != "\r" && $0 != "\n" && $0 != "\r\n" }
        guard firstLine == header.joined(separator: ",") else {
            let names = firstLine.split(separator: ",").map(String.init)
            let lacking = header.filter { !names.contains($0) }
            if !names.isEmpty && names.allSatisfy(header.contains) && !lacking.isEmpty {
                throw ResultsFileError.olderVersion(path, lacking: lacking)
            }
            throw ResultsFileError.foreignHeader(path, found: String(firstLine.prefix(60)))
        }
        guard let last = content.unicodeScalars.last, last != "\n" else { return content }
        let records: [[String]]
        do { records = try CSV.parse(content) } catch {
            throw ResultsFileError.truncatedRow(
                path, line: content.split(separator: "\n").count, fields: 0,
                expected: header.count)
        }
        let fields = records.last?.count ?? 0
        guard fields == header.count else {
            throw ResultsFileError.truncatedRow(path, line: records.count, fields: fields, expected: header.count)
        }
        return content + "\r\n"
    }

    /// Writes `text` to a temporary file beside `file` with `file`'s mode and owner, syncs it
    /// and renames it over `file`.
    private func replace(_ file: String, with text: String, keeping original: stat) throws {
        let temporary = file + ".tmp-\(Posix.processID)"
        let fd = Posix.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw ResultsFileError.cannotWrite(path, errno: errno) }
        // The new file takes the old one's place, so it takes its permissions too (a file kept
        // private stays private). Changing the owner needs privileges; without them it is ours.
        Posix.fchmod(fd, original.st_mode & 0o7777)
        if original.st_uid != Posix.userID || original.st_gid != Posix.groupID {
            _ = fchown(fd, original.st_uid, original.st_gid)
        }
        var code: Int32 = 0
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            do throws(Posix.Failure) { try Posix.writeAll(fd, buffer) } catch { code = error.errno }
        }
        var ok = code == 0
        if ok && Posix.fsync(fd) != 0 {
            ok = false
            code = errno
        }
        Posix.close(fd)
        guard ok, Posix.rename(temporary, file) == 0 else {
            if code == 0 { code = errno }
            Posix.unlink(temporary)
            throw ResultsFileError.cannotWrite(path, errno: code)
        }
    }
}

/// Why rows cannot be appended. Each message names the path and what to do; the caller adds
/// the option it came from (`--out`, `--timeline`).
package enum ResultsFileError: Error, CustomStringConvertible, Equatable {
    case missingFolder(String)
    case notWritable(String)
    case isFolder(String)
    case foreignHeader(String, found: String)
    /// Written by an older loadgen: readable, but rows of this version cannot be appended.
    case olderVersion(String, lacking: [String])
    case truncatedRow(String, line: Int, fields: Int, expected: Int)
    case notOurs(String)
    case cannotOpen(String, errno: Int32)
    case cannotRead(String)
    case cannotWrite(String, errno: Int32)
    case linkLoop(String)
    case nameTooLong(String, String)

    package var description: String {
        switch self {
        case .nameTooLong(let path, let problem):
            return "\(path): \(problem)"
        case .linkLoop(let path):
            return "\(path) is a loop of symbolic links (or a link that cannot be read); give another path"
        case .missingFolder(let folder):
            return "folder \(folder) does not exist; create it or choose another path"
        case .notWritable(let path):
            return "\(path) is not writable; choose another path"
        case .isFolder(let path):
            return "\(path) is a folder; give a file name"
        case .foreignHeader(let path, let found):
            return "\(path) is not a loadgen results file of this version (its header starts \"\(found)\"); "
                + "choose a new file"
        case .olderVersion(let path, let lacking):
            return "\(path) was written by an older loadgen (it lacks \(lacking.prefix(4).joined(separator: ", "))"
                + (lacking.count > 4 ? " and \(lacking.count - 4) more" : "")
                + "); choose a new file (compare, plot and "
                + "report still read it)"
        case .truncatedRow(let path, let line, let fields, let expected):
            return "\(path) has a cut-off row (line \(line) has \(fields) of \(expected) fields); "
                + "remove that line or choose a new file"
        case .notOurs(let path):
            return "\(path) exists and is not a file loadgen wrote; choose another path"
        case .cannotOpen(let path, let code):
            return "cannot open \(path): \(String(cString: strerror(code)))"
        case .cannotRead(let path):
            return "cannot read \(path)"
        case .cannotWrite(let path, let code):
            return "cannot write \(path): \(String(cString: strerror(code)))"
        }
    }

    /// sysexits: 73 (cannot create output) for the file's own problems, 74 for I/O failures.
    package var exitCode: Int32 {
        switch self {
        case .missingFolder, .notWritable, .isFolder, .foreignHeader, .olderVersion, .truncatedRow, .notOurs,
            .cannotOpen,
            .linkLoop:
            return 73
        case .nameTooLong: return 64
        case .cannotRead, .cannotWrite: return 74
        }
    }
}
