import Foundation
import Host
import ObjectGraph
import Report
import Strategies

/// Where one repetition's store goes, and cleaning up after it.
///
/// By default a new temporary folder per repetition, removed afterwards. `--store PATH` keeps
/// the store for inspection: the child builds it beside PATH under a hidden name, and it
/// replaces an earlier loadgen store at PATH only once the repetition finished and was
/// verified, so an interrupted run leaves the previous complete store in place. Anything at
/// PATH that is not a loadgen store is refused. `--store memory` keeps it in the child's memory.
struct StoreLocation {
    /// A temporary folder for this repetition (the store, when not kept, and the timeline part).
    let folder: String
    /// Where the child builds the store.
    let options: StoreOptions
    /// `--store PATH`: where the store goes once verified (as given, for messages).
    let keptPath: String?
    /// The file `--store PATH` names: PATH, or what it links to, so that a symbolic link stays a
    /// link and the store is built on the file system it will live on.
    private let keptTarget: String?

    init(plan: RunPlan, configuration: RunConfiguration, runID: String) throws {
        folder = try TemporaryFolders.make()
        let path: String
        // The limit's runs (raw-sqlite, added or named) never replace a strategy's kept store
        // (in memory they stay in memory, as the strategy's: the limit must be measured alike).
        let isLimit = { (c: RunConfiguration) in c.writeStrategy?.isLimit ?? false }
        let keptByLimit =
            plan.storePath != "memory" && isLimit(configuration) && plan.configurations.contains { !isLimit($0) }
        switch keptByLimit ? nil : plan.storePath {
        case nil:
            path = folder + "/store.sqlite"
            (keptPath, keptTarget) = (nil, nil)
        case "memory":
            path = StoreOptions.memory(named: "loadgen-\(runID)").path
            (keptPath, keptTarget) = (nil, nil)
        case let kept?:
            try Self.check(kept)
            let target = Self.target(of: kept)
            let url = URL(fileURLWithPath: target)
            path =
                url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(runID)")
                .path
            (keptPath, keptTarget) = (kept, target)
        }
        // In memory there is no journal file and nothing to sync: SQLite ignores both there.
        var options = StoreOptions(
            path: path, journal: configuration.journal ?? .delete,
            synchronous: configuration.synchronous ?? .runDefault)
        options.persistentHistoryTracking = configuration.history
        options.pragmas = configuration.pragmas.sorted { $0.key < $1.key }.map { StoreOptions.Pragma($0.key, $0.value) }
        self.options = options
    }

    /// What to remove if the parent disappears mid-repetition (the child does it).
    var orphanPaths: [String] {
        [folder]
            + (keptPath == nil
                ? [] : Self.files(of: options.path) + [ExternalStorage.supportDirectory(forStore: options.path)])
    }

    /// Removes the temporary folder and a store that was not kept.
    func remove() {
        for path in orphanPaths { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Moves the finished store to `--store PATH`, replacing the previous one and its journal
    /// files. Nothing to do without `--store PATH`. The old journal files go first (SQLite would
    /// replay an old WAL into the new file), then the new file is renamed over the old one, so
    /// that PATH never names no store. A link at PATH stays a link to the new store.
    func keep() throws {
        guard let given = keptPath, let kept = keptTarget else { return }
        try Self.check(given)
        for file in Self.files(of: kept).dropFirst() where FileManager.default.fileExists(atPath: file) {
            guard Posix.unlink(file) == 0 else {
                throw CommandError(
                    message: "run: cannot replace \(file): \(String(cString: strerror(errno)))",
                    exitCode: ExitCode.cannotCreate)
            }
        }
        // The child closed every connection, so the WAL was merged and removed; if one is left
        // it belongs to the new store and moves with it.
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: options.path + suffix) {
            guard Posix.rename(options.path + suffix, kept + suffix) == 0 else {
                throw CommandError(
                    message: "run: cannot move the store to \(kept + suffix): \(String(cString: strerror(errno)))",
                    exitCode: ExitCode.cannotCreate)
            }
        }
        try? FileManager.default.removeItem(atPath: options.path + "-shm")
        try moveSupportDirectory(to: kept)
    }

    /// The store's external binary data (`.<name>_SUPPORT`) goes with it, marked as loadgen's
    /// (`supportMark`): the previous store's is replaced only when it carries the mark, and a store
    /// without any leaves none behind. A support folder's name ignores the store's extension, so
    /// `Model.lg`'s is an app's `Model.sqlite`'s too: one without the mark is never removed.
    private func moveSupportDirectory(to kept: String) throws {
        let built = ExternalStorage.supportDirectory(forStore: options.path)
        let target = ExternalStorage.supportDirectory(forStore: kept)
        if FileManager.default.fileExists(atPath: target) {
            guard Self.isOurs(support: target) else { throw Self.foreignSupport(kept, target) }
            try? FileManager.default.removeItem(atPath: target)
        }
        guard FileManager.default.fileExists(atPath: built) else { return }
        // Without its mark a later run would refuse to replace the folder, never remove it: no harm.
        _ = FileManager.default.createFile(atPath: built + "/" + Self.supportMark, contents: Data())
        guard Posix.rename(built, target) == 0 else {
            throw CommandError(
                message: "run: cannot move the store's external data to \(target): \(String(cString: strerror(errno)))",
                exitCode: ExitCode.cannotCreate)
        }
    }

    /// What `path` names: the file a chain of symbolic links ends at (which may not exist
    /// yet), or `path` itself (`OutputPath`; `check` refuses a loop first).
    static func target(of path: String) -> String { (try? OutputPath(path))?.target ?? path }

    /// The file inside a support folder that says loadgen made it (`moveSupportDirectory`).
    static let supportMark = ".loadgen-store-data"

    /// A support folder loadgen made (its mark inside).
    static func isOurs(support: String) -> Bool { FileManager.default.fileExists(atPath: support + "/" + supportMark) }

    static func foreignSupport(_ given: String, _ support: String) -> CommandError {
        CommandError(
            message:
                "run: --store \(given): \(support) is external data loadgen did not write (an app's store of the same "
                + "name keeps its large values there); choose another path", exitCode: ExitCode.cannotCreate)
    }

    /// A store file and the journal files SQLite keeps beside it.
    static func files(of path: String) -> [String] {
        ["", "-wal", "-shm", "-journal"].map { path + $0 }
    }

    /// Checks `--store PATH` before anything runs: its folder must exist and be writable, and a
    /// file already there must be a store loadgen (or Core Data) wrote.
    static func check(_ given: String) throws {
        do { _ = try OutputPath(given) } catch {
            throw CommandError(message: "run: --store \(error)", exitCode: ExitCode.cannotCreate)
        }
        let path = target(of: given)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandError(
                message: "run: --store folder \(folder) does not exist; create it or choose another path",
                exitCode: ExitCode.cannotCreate)
        }
        guard Posix.access(folder, W_OK) == 0, ResultsFile.canCreateFile(in: folder) else {
            throw CommandError(
                message: "run: --store folder \(folder) is not writable; choose another path",
                exitCode: ExitCode.cannotCreate)
        }
        if FileManager.default.fileExists(atPath: path) && !isStore(path) {
            throw CommandError(
                message: "run: --store \(given) exists and is not a store loadgen wrote (an app's own store, or "
                    + "another database); choose another path (loadgen only replaces its own stores)",
                exitCode: ExitCode.cannotCreate)
        }
        let support = ExternalStorage.supportDirectory(forStore: path)
        if FileManager.default.fileExists(atPath: support) && !isOurs(support: support) {
            throw foreignSupport(given, support)
        }
    }

    /// True for a store loadgen wrote (its mark in the metadata): the only kind `--store` replaces.
    static func isStore(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        return head == Data("SQLite format 3\0".utf8) && StoreSchema.isLoadgenStore(at: path)
    }
}
