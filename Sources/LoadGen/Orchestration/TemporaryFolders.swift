import Foundation
import Host

/// loadgen's temporary folders (`$TMPDIR/loadgen.XXXXXX`), each with an `owner` file naming
/// the `run` process that made it, so that a folder left by a process that died (`kill -9`,
/// a power cut) can be told from one in use and removed by the next `run`.
///
/// Ownership is a pid and that process's start time (`ProcessOwner`): a pid alone may have been
/// reused by another process since. A folder is removed only when its owner is proven gone; never
/// for its age alone, nor when it has no owner file (it may belong to an older loadgen, or to
/// someone else), nor when its owner lives but its start time cannot be read.
enum TemporaryFolders {
    static let prefix = "loadgen."
    static let ownerFile = "owner"

    /// Creates a new folder owned by this process.
    static func make() throws -> String {
        guard let folder = Posix.makeTemporaryFolder(NSTemporaryDirectory() + prefix + "XXXXXX") else {
            throw CommandError(
                message: "run: cannot create a temporary folder in \(NSTemporaryDirectory()): "
                    + String(cString: strerror(errno)), exitCode: ExitCode.cannotCreate)
        }
        let owner = ProcessOwner.current.text
        let fd = Posix.open(folder + "/" + ownerFile, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        var text = owner
        let written = fd >= 0 && text.withUTF8 { (try? Posix.writeAll(fd, UnsafeRawBufferPointer($0))) != nil }
        let code = errno
        if fd >= 0 { Posix.close(fd) }
        guard written else {
            Posix.unlink(folder + "/" + ownerFile)
            Posix.rmdir(folder)
            throw CommandError(
                message: "run: cannot write in the temporary folder \(NSTemporaryDirectory()): "
                    + String(cString: strerror(code)), exitCode: ExitCode.cannotCreate)
        }
        return folder
    }

    /// Removes the folders whose owner is proven gone; returns how many, and the folders kept
    /// because their owner exists but cannot be proven to be another process (said in a note).
    @discardableResult
    static func sweepStale() -> (removed: Int, kept: [String]) {
        OwnedFolders.sweep(in: NSTemporaryDirectory(), prefix: prefix, ownerFile: ownerFile)
    }
}
