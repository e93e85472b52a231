/// What tells one version of a file from another without reading it: the file it is (device
/// and inode: a file renamed over it is another) and its last change (size, modification and
/// status-change times: the status change cannot be set back, as `touch` sets a modification).
///
/// An import file is read once for its counts and again by every repetition: a file replaced in
/// between would be measured as one the run never counted (issue 55, item 12).
package struct FileIdentity: Equatable, Sendable, CustomStringConvertible {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var modified: Timestamp
    package var changed: Timestamp

    /// Seconds and nanoseconds, as `stat` gives them.
    package struct Timestamp: Equatable, Sendable {
        package var seconds: Int
        package var nanoseconds: Int
    }

    /// The identity of what `path` names now (through links), nil when it cannot be read.
    package init?(path: String) {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        device = UInt64(s.st_dev)
        inode = UInt64(s.st_ino)
        size = Int64(s.st_size)
        (modified, changed) = Host.times(of: s)
    }

    /// "12,345 bytes, modified 2026-12-04 21:50:03 UTC": what a message shows of one version.
    package var description: String {
        var time = modified.seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let stamp =
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
        return "\(size) bytes, modified \(stamp) UTC"
    }
}
