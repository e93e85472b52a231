import Foundation

/// A file a run writes whole at its end (the Markdown summary, the summary CSV): replaced
/// atomically, and only when it is new or one loadgen wrote (its text starts with `signature`),
/// so a typo cannot overwrite a README or a spreadsheet.
package struct ReportFile: Sendable {
    package let path: String
    package let signature: String

    package init(path: String, signature: String) {
        self.path = path
        self.signature = signature
    }

    /// Checks, before anything runs, that the file can be written.
    package func check() throws {
        if ResultsFile(path: path).isStream { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw ResultsFileError.isFolder(path) }
            let head = FileManager.default.contents(atPath: path).map { String(decoding: $0.prefix(signature.utf8.count), as: UTF8.self) }
            guard head == signature || head == "" else { throw ResultsFileError.notOurs(path) }
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ResultsFileError.missingFolder(folder)
        }
        guard ResultsFile.canCreateFile(in: folder) else { throw ResultsFileError.notWritable(folder) }
    }

    /// Writes `text` to a temporary file beside the path and renames it into place; a device or
    /// pipe (`/dev/null`) is written to directly, never replaced.
    package func write(_ text: String) throws {
        try check()
        if ResultsFile(path: path).isStream {
            guard let handle = FileHandle(forWritingAtPath: path) else { throw ResultsFileError.cannotWrite(path, errno: errno) }
            defer { try? handle.close() }
            do { try handle.write(contentsOf: Data(text.utf8)) } catch { throw ResultsFileError.cannotWrite(path, errno: EIO) }
            return
        }
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw ResultsFileError.cannotWrite(path, errno: errno)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw ResultsFileError.cannotWrite(path, errno: code)
        }
    }
}
