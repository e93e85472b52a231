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

    /// `-`: standard output, as for every output of loadgen (issue 55, item 19).
    package var isStandardOutput: Bool { path == "-" }

    /// Checks, before anything runs, that the file can be written: a device is written in
    /// place, a link through (the file it leads to is checked), a loop of links refused, and a
    /// name without room for the temporary file beside it refused before the work, not after.
    package func check() throws {
        if isStandardOutput { return }
        let output: OutputPath
        do { output = try OutputPath(path) } catch { throw ResultsFileError.linkLoop(path) }
        if output.isStream { return }
        let target = output.target
        switch output.kind {
        case .folder: throw ResultsFileError.isFolder(path)
        case .other: throw ResultsFileError.notOurs(path)
        case .regular:
            let head = FileManager.default.contents(atPath: target).map {
                String(decoding: $0.prefix(signature.utf8.count), as: UTF8.self)
            }
            guard head == signature || head == "" else { throw ResultsFileError.notOurs(path) }
        case .missing, .stream: break
        }
        var isDirectory: ObjCBool = false
        let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ResultsFileError.missingFolder(folder)
        }
        guard ResultsFile.canCreateFile(in: folder) else { throw ResultsFileError.notWritable(folder) }
        if let problem = OutputName.problem(target) { throw ResultsFileError.nameTooLong(path, problem) }
    }

    /// Writes `text` as the whole file (`OutputPath`): a device or pipe (`/dev/null`) in place,
    /// a link through, a regular file by renaming a temporary file beside it over it.
    package func write(_ text: String) throws {
        if isStandardOutput {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        try check()
        do {
            try OutputPath(path).replace(with: Data(text.utf8))
        } catch .cannotWrite(_, let code) {
            throw ResultsFileError.cannotWrite(path, errno: code)
        } catch {
            throw ResultsFileError.notOurs(path)
        }
    }
}
