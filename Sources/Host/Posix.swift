import Foundation

/// The system calls on file descriptors and children that a signal can interrupt, each retried
/// on `EINTR` here and nowhere else (swift-nio's `Posix`): SIGINT's handler or a child's SIGCHLD
/// arriving during a read, a write or a wait must neither end it early nor read as a failure.
/// Before, six files wrote the retry loop by hand. A test finds no `EINTR` outside Host.
package enum Posix {
    /// A call's failure: its `errno`, and the system's words for it.
    package struct Failure: Error, Equatable, CustomStringConvertible {
        package let errno: Int32
        package init(errno: Int32) { self.errno = errno }
        package var description: String { String(cString: strerror(errno)) }
    }

    /// Reads up to `count` bytes into `buffer`: how many (0 at the end of the file).
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) throws(Failure) -> Int {
        while true {
            let n = Host.read(fd, buffer, count)
            if n >= 0 { return n }
            if errno != EINTR { throw Failure(errno: errno) }
        }
    }

    /// Writes every byte of `bytes`, however many calls it takes. A write that takes nothing
    /// (a pipe whose reader has gone, with SIGPIPE ignored) fails with `EPIPE`.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = Host.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(errno: n < 0 ? errno : EPIPE) }
            offset += n
        }
    }

    /// Waits for child `pid` to end: its raw wait status (as `waitpid` gives it).
    package static func wait(_ pid: pid_t) throws(Failure) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { throw Failure(errno: errno) }
        }
        return status
    }

    /// How a wait status ended: exited with a code, or killed by a signal (WIFEXITED,
    /// WEXITSTATUS and WTERMSIG are macros Swift cannot import).
    package static func ending(_ status: Int32) -> (exited: Bool, code: Int32) {
        let signal = status & 0x7f
        return signal == 0 ? (true, (status >> 8) & 0xff) : (false, signal)
    }
}

// MARK: - File descriptors

extension Posix {
    /// open(2), retried when a signal interrupts it (opening a FIFO waits for the other end): the
    /// descriptor, or -1 with `errno` set, as open(2) answers.
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        while true {
            let fd = Host.openFile(path, flags, mode)
            if fd >= 0 || errno != EINTR { return fd }
        }
    }

    /// fsync(2), retried when interrupted: 0, or -1 with `errno` set.
    package static func fsync(_ fd: Int32) -> Int32 {
        while true {
            let result = Host.syncFile(fd)
            if result == 0 || errno != EINTR { return result }
        }
    }
}
