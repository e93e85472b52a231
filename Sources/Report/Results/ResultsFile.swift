import Foundation

/// A results CSV that runs append to: header once, rows appended atomically.
///
/// Atomic means a reader, or a killed writer, never sees half a row. Each append writes the
/// whole new file (old content and new rows) to a temporary file beside it, syncs it and renames
/// it over the old one, under an exclusive `flock` so two loadgen processes cannot interleave.
/// Results files are small (a row per repetition), so copying them is cheap.
public struct ResultsFile: Sendable {
    public let path: String
    public let header: [String]

    public init(path: String, header: [String] = ResultRow.header) {
        self.path = path
        self.header = header
    }

    /// Checks, before anything runs, that rows can be appended here: the folder exists and is
    /// writable, and an existing file is one of ours. Throws with a message naming the problem.
    public func checkAppendable() throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ResultsFileError.missingFolder(folder)
        }
        guard access(folder, W_OK) == 0, Self.canCreateFile(in: folder) else {
            throw ResultsFileError.notWritable(folder)
        }
        if FileManager.default.fileExists(atPath: path) {
            guard access(path, R_OK | W_OK) == 0 else { throw ResultsFileError.notWritable(path) }
            try checkHeader(of: try readContent())
        }
    }

    /// access(2) says yes to root everywhere; creating (and removing) a file is the real test.
    public static func canCreateFile(in folder: String) -> Bool {
        let probe = folder + "/.loadgen-probe-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { return false }
        close(fd)
        unlink(probe)
        return true
    }

    /// Appends `rows` (each a list of fields), writing the header first if the file is new.
    public func append(_ rows: [[String]]) throws {
        while true {
            let fd = open(path, O_RDWR | O_CREAT, 0o644)
            guard fd >= 0 else { throw ResultsFileError.cannotOpen(path, errno: errno) }
            defer { close(fd) }
            guard flock(fd, LOCK_EX) == 0 else { throw ResultsFileError.cannotOpen(path, errno: errno) }
            // Another writer may have renamed a new file over the one we locked: start again.
            var locked = stat(), current = stat()
            guard fstat(fd, &locked) == 0, stat(path, &current) == 0 else { continue }
            if locked.st_ino != current.st_ino { continue }

            let existing = try readContent()
            try checkHeader(of: existing)
            var text = existing
            if text.isEmpty { text = CSV.line(header) }
            for row in rows { text += CSV.line(row) }
            try replace(with: text)
            return
        }
    }

    /// Appends result rows.
    public func append(_ rows: [ResultRow]) throws {
        try append(rows.map(\.fields))
    }

    // MARK: Reading

    /// The file's records (header first), parsed.
    public func records() throws -> [[String]] {
        try CSV.parse(readContent())
    }

    private func readContent() throws -> String {
        guard FileManager.default.fileExists(atPath: path) else { return "" }
        guard let data = FileManager.default.contents(atPath: path) else { throw ResultsFileError.cannotRead(path) }
        return String(decoding: data, as: UTF8.self)
    }

    private func checkHeader(of content: String) throws {
        guard !content.isEmpty else { return }
        let firstLine = content.prefix { $0 != "\r" && $0 != "\n" && $0 != "\r\n" }
        let expected = header.joined(separator: ",")
        guard firstLine == expected else {
            throw ResultsFileError.foreignHeader(path, found: String(firstLine.prefix(60)))
        }
    }

    private func replace(with text: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw ResultsFileError.cannotOpen(temporary, errno: errno) }
        var ok = true
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; ok = false; return }
                offset += n
            }
        }
        ok = ok && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw ResultsFileError.cannotWrite(path, errno: code)
        }
    }
}

/// Why rows cannot be appended. Each message names the path and what to do.
public enum ResultsFileError: Error, CustomStringConvertible, Equatable {
    case missingFolder(String)
    case notWritable(String)
    case foreignHeader(String, found: String)
    case cannotOpen(String, errno: Int32)
    case cannotRead(String)
    case cannotWrite(String, errno: Int32)

    public var description: String {
        switch self {
        case .missingFolder(let folder):
            return "folder \(folder) does not exist; create it or choose another --out"
        case .notWritable(let path):
            return "\(path) is not writable; choose another --out"
        case .foreignHeader(let path, let found):
            return "\(path) is not a loadgen results file of this version (its header starts \"\(found)\"); "
                + "choose a new --out file"
        case .cannotOpen(let path, let code):
            return "cannot open \(path): \(String(cString: strerror(code)))"
        case .cannotRead(let path):
            return "cannot read \(path)"
        case .cannotWrite(let path, let code):
            return "cannot write \(path): \(String(cString: strerror(code)))"
        }
    }

    /// sysexits: 73 (cannot create output) for the file's own problems, 74 for I/O failures.
    public var exitCode: Int32 {
        switch self {
        case .missingFolder, .notWritable, .foreignHeader, .cannotOpen: return 73
        case .cannotRead, .cannotWrite: return 74
        }
    }
}
