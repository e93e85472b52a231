import Foundation

// MARK: - Paths and descriptors

/// The rest of the C library's file calls, each named once here so that loadgen's other modules
/// call `Posix` and never libc (swift-nio's rule: one layer owns the system). Each answers as its
/// system call does (0, or -1 with `errno` set) so that a caller reads `errno` as before; those a
/// signal can interrupt while they block are retried on `EINTR` here.
extension Posix {
    /// close(2). Never retried: Linux frees the descriptor even when close reports EINTR, and a
    /// second close could close a descriptor another thread has just been given.
    @discardableResult
    package static func close(_ fd: Int32) -> Int32 { systemClose(fd) }

    /// unlink(2): removes a name (a file, a link, a device node; never a folder).
    @discardableResult
    package static func unlink(_ path: String) -> Int32 { systemUnlink(path) }

    /// rename(2): replaces `to` atomically when both are on one file system.
    package static func rename(_ from: String, _ to: String) -> Int32 { systemRename(from, to) }

    /// mkdir(2).
    package static func mkdir(_ path: String, _ mode: mode_t) -> Int32 { systemMkdir(path, mode) }

    /// rmdir(2): removes an empty folder.
    @discardableResult
    package static func rmdir(_ path: String) -> Int32 { systemRmdir(path) }

    /// access(2) with `F_OK`, `R_OK`, `W_OK` or `X_OK`: judged with the real user's rights.
    package static func access(_ path: String, _ mode: Int32) -> Int32 { systemAccess(path, mode) }

    /// stat(2): follows symbolic links.
    package static func stat(_ path: String, _ info: inout FileStatus) -> Int32 { systemStat(path, &info) }

    /// stat(2) of a path already in C's form.
    package static func stat(_ path: UnsafePointer<CChar>, _ info: inout FileStatus) -> Int32 {
        systemStat(path, &info)
    }

    /// lstat(2): the link itself.
    package static func lstat(_ path: String, _ info: inout FileStatus) -> Int32 { systemLstat(path, &info) }

    /// fstat(2).
    package static func fstat(_ fd: Int32, _ info: inout FileStatus) -> Int32 { systemFstat(fd, &info) }

    /// fchmod(2).
    @discardableResult
    package static func fchmod(_ fd: Int32, _ mode: mode_t) -> Int32 { systemFchmod(fd, mode) }

    /// fcntl(2)'s F_SETFL: a descriptor's status flags (O_NONBLOCK off, for a file opened without
    /// waiting for a FIFO's writer).
    @discardableResult
    package static func setStatusFlags(_ fd: Int32, _ flags: Int32) -> Int32 { systemSetFlags(fd, flags) }

    /// flock(2), retried when a signal interrupts a wait for the lock.
    package static func flock(_ fd: Int32, _ operation: Int32) -> Int32 {
        while true {
            let result = systemFlock(fd, operation)
            if result == 0 || errno != EINTR { return result }
        }
    }

    /// pipe(2): `fds[0]` reads what `fds[1]` writes.
    package static func pipe(_ fds: inout [Int32]) -> Int32 {
        fds.withUnsafeMutableBufferPointer { systemPipe($0.baseAddress!) }
    }

    /// mkdtemp(3): makes a new folder, mode 0700, from `template` ending in XXXXXX: its path, or
    /// nil with `errno` set.
    package static func makeTemporaryFolder(_ template: String) -> String? {
        var bytes = Array(template.utf8CString)
        return bytes.withUnsafeMutableBufferPointer { systemMkdtemp($0.baseAddress!) }.map { String(cString: $0) }
    }

    /// isatty(3): whether `fd` is a terminal.
    package static func isTerminal(_ fd: Int32) -> Bool { systemIsatty(fd) == 1 }
}

/// What stat(2) fills (`struct stat`): a name of its own, since inside `Posix` `stat` is the call.
package typealias FileStatus = stat

// MARK: - The C library's functions, named where `Posix`'s own names do not hide them

private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemUnlink(_ path: String) -> Int32 { unlink(path) }
private func systemRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
private func systemMkdir(_ path: String, _ mode: mode_t) -> Int32 { mkdir(path, mode) }
private func systemRmdir(_ path: String) -> Int32 { rmdir(path) }
private func systemAccess(_ path: String, _ mode: Int32) -> Int32 { access(path, mode) }
private func systemStat(_ path: UnsafePointer<CChar>, _ info: inout FileStatus) -> Int32 { stat(path, &info) }
private func systemLstat(_ path: String, _ info: inout FileStatus) -> Int32 { lstat(path, &info) }
private func systemFstat(_ fd: Int32, _ info: inout FileStatus) -> Int32 { fstat(fd, &info) }
private func systemFchmod(_ fd: Int32, _ mode: mode_t) -> Int32 { fchmod(fd, mode) }
private func systemSetFlags(_ fd: Int32, _ flags: Int32) -> Int32 { fcntl(fd, F_SETFL, flags) }
private func systemFlock(_ fd: Int32, _ operation: Int32) -> Int32 { flock(fd, operation) }
private func systemPipe(_ fds: UnsafeMutablePointer<Int32>) -> Int32 { pipe(fds) }
private func systemMkdtemp(_ template: UnsafeMutablePointer<CChar>) -> UnsafeMutablePointer<CChar>? {
    mkdtemp(template)
}
private func systemIsatty(_ fd: Int32) -> Int32 { isatty(fd) }
