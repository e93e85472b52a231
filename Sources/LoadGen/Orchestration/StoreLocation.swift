import Foundation
import ObjectGraph
import Report

/// Where one repetition's store goes, and cleaning up after it.
///
/// By default a new temporary folder per repetition, removed afterwards. `--store PATH` keeps
/// the store for inspection: an earlier loadgen store at PATH is replaced, anything else there
/// is refused. `--store memory` keeps it in the child's memory.
struct StoreLocation {
    /// A temporary folder for this repetition (the store, when not kept, and the timeline part).
    let folder: String
    let options: StoreOptions

    init(plan: RunPlan, runID: String) throws {
        var template = Array((NSTemporaryDirectory() + "loadgen.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CommandError(message: "cannot create a temporary folder in \(NSTemporaryDirectory())",
                               exitCode: ExitCode.cannotCreate)
        }
        folder = String(cString: made)
        let path: String
        switch plan.storePath {
        case nil: path = folder + "/store.sqlite"
        case "memory": path = StoreOptions.memory(named: "loadgen-\(runID)").path
        case let kept?:
            try Self.removeStore(at: kept)
            path = kept
        }
        var options = StoreOptions(path: path, journal: plan.journal, synchronous: plan.synchronous)
        if plan.storePath == "memory" { options.journal = .delete }
        self.options = options
    }

    /// Removes the temporary folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Checks `--store PATH` before anything runs: its folder must exist and be writable, and a
    /// file already there must be a store loadgen (or Core Data) wrote.
    static func check(_ path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandError(message: "run: --store folder \(folder) does not exist; create it or choose another path",
                               exitCode: ExitCode.cannotCreate)
        }
        guard access(folder, W_OK) == 0, ResultsFile.canCreateFile(in: folder) else {
            throw CommandError(message: "run: --store folder \(folder) is not writable; choose another path",
                               exitCode: ExitCode.cannotCreate)
        }
        if FileManager.default.fileExists(atPath: path) && !isStore(path) {
            throw CommandError(message: "run: --store \(path) exists and is not a loadgen store; "
                               + "choose another path (loadgen only replaces its own stores)",
                               exitCode: ExitCode.cannotCreate)
        }
    }

    /// True for an SQLite file with Core Data's Z_METADATA table.
    static func isStore(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        guard head == Data("SQLite format 3\0".utf8) else { return false }
        let all = (try? handle.readToEnd()) ?? Data()
        return all.range(of: Data("Z_METADATA".utf8)) != nil
    }

    private static func removeStore(at path: String) throws {
        try check(path)
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let file = path + suffix
            if FileManager.default.fileExists(atPath: file) {
                do { try FileManager.default.removeItem(atPath: file) } catch {
                    throw CommandError(message: "run: cannot replace \(file): \(error.localizedDescription)",
                                       exitCode: ExitCode.cannotCreate)
                }
            }
        }
    }
}
