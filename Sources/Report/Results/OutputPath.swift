import Foundation
import Host

/// Where a file loadgen writes lands, and how it may be written: one rule for every output (the
/// results CSV, the summaries, `export`, `generate`, compare's reports; issue 55, item 1).
///
/// - A symbolic link is written through: the file it leads to is the target, and the link stays
///   a link. Links are followed one hop at a time, at most `maximumHops` (the kernel's own limit
///   for a path, `ELOOP`): a loop is an error, never unbounded recursion.
/// - A device or FIFO (`/dev/null`, however it is spelled: `//dev/null`, `null` in `/dev`) is
///   written in place, never replaced.
/// - Only a regular file (or nothing) is replaced, by renaming a complete temporary file beside
///   the target over it; anything else (a block device, a socket) is refused.
///
/// CI and many users run as root, for whom every file is writable: these rules, not
/// permissions, keep loadgen from replacing what it did not write.
package struct OutputPath: Sendable {
    /// The path as given (what messages name).
    package let path: String
    /// The file the path leads to through its symbolic links (the path itself when it is none).
    package let target: String
    package let kind: Kind

    /// What the target is now.
    package enum Kind: Sendable, Equatable {
        case missing, regular, folder
        /// A character device or a FIFO: written in place.
        case stream
        /// A block device, a socket: never loadgen's to write.
        case other
    }

    /// Links followed before a path is taken for a loop: Linux's `MAXSYMLINKS`.
    package static let maximumHops = 40

    package init(_ path: String) throws(OutputPathError) {
        self.path = path
        var current = path
        for _ in 0...Self.maximumHops {
            var info = stat()
            guard Posix.lstat(current, &info) == 0 else {
                (target, kind) = (current, .missing)
                return
            }
            guard (info.st_mode & S_IFMT) == S_IFLNK else {
                (target, kind) = (current, Self.kind(of: info.st_mode & S_IFMT))
                return
            }
            guard let next = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                throw OutputPathError.unreadableLink(path)
            }
            current =
                next.hasPrefix("/")
                ? next
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(next).path
        }
        throw OutputPathError.linkLoop(path)
    }

    private static func kind(of type: mode_t) -> Kind {
        switch type {
        case S_IFREG: return .regular
        case S_IFDIR: return .folder
        case S_IFCHR, S_IFIFO: return .stream
        default: return .other
        }
    }

    /// Written in place rather than replaced.
    package var isStream: Bool { kind == .stream }

    /// Writes `data` as the whole file: into a device or FIFO in place; else to a temporary file
    /// beside the target, synced, then renamed over it (a failure leaves what was there). Throws
    /// the errno of what failed.
    package func replace(with data: Data) throws(OutputPathError) {
        switch kind {
        case .stream:
            let fd = Posix.open(target, O_WRONLY)
            guard fd >= 0 else { throw OutputPathError.cannotWrite(path, errno: errno) }
            defer { Posix.close(fd) }
            try Self.writeAll(data, to: fd, path: path)
        case .missing, .regular:
            let temporary = target + ".tmp-\(Posix.processID)"
            let fd = Posix.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL, 0o644)
            guard fd >= 0 else { throw OutputPathError.cannotWrite(path, errno: errno) }
            do throws(OutputPathError) {
                try Self.writeAll(data, to: fd, path: path)
                guard Posix.fsync(fd) == 0 else { throw OutputPathError.cannotWrite(path, errno: errno) }
            } catch {
                Posix.close(fd)
                Posix.unlink(temporary)
                throw error
            }
            Posix.close(fd)
            guard Posix.rename(temporary, target) == 0 else {
                let code = errno
                Posix.unlink(temporary)
                throw OutputPathError.cannotWrite(path, errno: code)
            }
        case .folder:
            throw OutputPathError.isFolder(path)
        case .other:
            throw OutputPathError.notAFile(path)
        }
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws(OutputPathError) {
        var failure: Int32 = 0
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            do throws(Posix.Failure) { try Posix.writeAll(fd, bytes) } catch { failure = error.errno }
        }
        if failure != 0 { throw OutputPathError.cannotWrite(path, errno: failure) }
    }
}

/// An output that cannot be written where it was named.
package enum OutputPathError: Error, CustomStringConvertible, Equatable {
    case linkLoop(String)
    case unreadableLink(String)
    case isFolder(String)
    case notAFile(String)
    case cannotWrite(String, errno: Int32)

    package var description: String {
        switch self {
        case .linkLoop(let path): return "\(path) is a loop of symbolic links; give another path"
        case .unreadableLink(let path): return "\(path) is a symbolic link that cannot be read; give another path"
        case .isFolder(let path): return "\(path) is a folder; give a file name"
        case .notAFile(let path):
            return
                "\(path) is neither a file nor a device loadgen writes (a socket or a block device); give another path"
        case .cannotWrite(let path, let code): return "cannot write \(path): \(String(cString: strerror(code)))"
        }
    }

    /// A full disk or a size limit is the environment's (74); the rest is the path's (73).
    package var isDiskFull: Bool {
        if case .cannotWrite(_, let code) = self {
            return code == ENOSPC || code == EFBIG || code == EIO || code == EDQUOT
        }
        return false
    }
}
