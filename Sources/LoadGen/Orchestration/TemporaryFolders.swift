import Foundation

/// loadgen's temporary folders (`$TMPDIR/loadgen.XXXXXX`), each with an `owner` file naming
/// the `run` process that made it, so that a folder left by a process that died (`kill -9`,
/// a power cut) can be told from one in use and removed by the next `run`.
///
/// Ownership is a pid and that process's start time (from `/proc/<pid>/stat`): a pid alone may
/// have been reused by another process since. A folder is never removed for its age alone, nor
/// when it has no owner file (it may belong to an older loadgen, or to someone else).
enum TemporaryFolders {
    static let prefix = "loadgen."
    static let ownerFile = "owner"

    /// Creates a new folder owned by this process.
    static func make() throws -> String {
        var template = Array((NSTemporaryDirectory() + prefix + "XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CommandError(message: "run: cannot create a temporary folder in \(NSTemporaryDirectory()): "
                               + String(cString: strerror(errno)), exitCode: ExitCode.cannotCreate)
        }
        let folder = String(cString: made)
        let pid = getpid()
        let owner = "\(pid) \(startTime(of: pid) ?? 0)\n"
        let fd = open(folder + "/" + ownerFile, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        let written = fd >= 0 ? owner.withCString { write(fd, $0, strlen($0)) } : -1
        let code = errno
        if fd >= 0 { close(fd) }
        guard written == owner.utf8.count else {
            unlink(folder + "/" + ownerFile)
            rmdir(folder)
            throw CommandError(message: "run: cannot write in the temporary folder \(NSTemporaryDirectory()): "
                               + String(cString: strerror(code)), exitCode: ExitCode.cannotCreate)
        }
        return folder
    }

    /// Removes the folders whose owner is gone. Returns how many were removed.
    @discardableResult
    static func sweepStale() -> Int {
        let base = NSTemporaryDirectory()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(prefix) {
            let folder = base + (base.hasSuffix("/") ? "" : "/") + name
            guard let text = try? String(contentsOfFile: folder + "/" + ownerFile, encoding: .utf8) else { continue }
            let fields = text.split(whereSeparator: \.isWhitespace)
            guard fields.count == 2, let pid = Int32(fields[0]), let started = UInt64(fields[1]) else { continue }
            if isAlive(pid: pid, startedAt: started) { continue }
            if (try? FileManager.default.removeItem(atPath: folder)) != nil { removed += 1 }
        }
        return removed
    }

    /// True while process `pid` exists and is the one that started at `startedAt`.
    static func isAlive(pid: Int32, startedAt: UInt64) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let now = startTime(of: pid) else { return false }
        return startedAt == 0 || now == startedAt
    }

    /// A process's start time in clock ticks since boot (field 22 of `/proc/<pid>/stat`).
    static func startTime(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm)" come fields 3, 4, …: the start time is the 20th of them.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }
}
