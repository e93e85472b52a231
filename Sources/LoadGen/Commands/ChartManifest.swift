import Foundation
import Host

/// What `plot` and `report` wrote into a charts folder, kept in the folder (`.loadgen-charts`,
/// one relative path a line), so that a later run replaces or removes only those files: a
/// `memory.png` the team drew by hand, or a `data/` folder of theirs, is never touched (issue 27).
struct ChartManifest {
    /// The manifest's file name inside the charts folder.
    static let fileName = ".loadgen-charts"

    let folder: String
    /// Paths relative to `folder`.
    private(set) var files: Set<String>

    /// The manifest of `folder` (ending in "/"), empty when there is none.
    init(folder: String) {
        self.folder = folder
        let text = (try? String(contentsOfFile: folder + Self.fileName, encoding: .utf8)) ?? ""
        files = Set(
            text.split(separator: "\n").map(String.init).filter {
                !$0.isEmpty && !$0.hasPrefix("/") && !$0.contains("..")
            })
    }

    /// Whether loadgen wrote `relative` here.
    func owns(_ relative: String) -> Bool { files.contains(relative) }

    /// The files of `relatives` that exist here and that loadgen did not write.
    func foreign(_ relatives: [String]) -> [String] {
        relatives.filter { !owns($0) && FileManager.default.fileExists(atPath: folder + $0) }
    }

    /// Removes `relative` when loadgen wrote it (and forgets it); leaves anything else.
    mutating func removeOwned(_ relative: String) {
        guard owns(relative) else { return }
        Posix.unlink(folder + relative)
        files.remove(relative)
    }

    mutating func record(_ relative: String) { files.insert(relative) }

    /// Writes the manifest: what loadgen wrote that is still there.
    mutating func save() throws {
        files = files.filter { FileManager.default.fileExists(atPath: folder + $0) }
        let text = files.sorted().joined(separator: "\n") + "\n"
        guard FileManager.default.createFile(atPath: folder + Self.fileName, contents: Data(text.utf8)) else {
            throw CommandError(
                message: "cannot write \(folder + Self.fileName): \(String(cString: strerror(errno)))",
                exitCode: ExitCode.ioError)
        }
    }
}
