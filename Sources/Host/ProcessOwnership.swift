import Foundation

/// Who owns a temporary folder, and whether that owner is proven gone.
///
/// An owner is a pid and that process's start time: a pid alone may have been reused since. A
/// folder is removed only when its owner is proven gone — no such process, or one that started at
/// another time. A process that exists but whose start time cannot be read (no `/proc`, another
/// user's process on a system that hides it) may be the owner: its folder is kept. Before, a
/// failed read counted as gone, which removed a concurrent live run's store wherever that read
/// fails (issue 48).
package struct ProcessOwner: Equatable, Sendable {
    package let pid: Int32
    /// When it started (`Host.startTime`), 0 when it could not be read then.
    package let startTime: UInt64

    package init(pid: Int32, startTime: UInt64) {
        self.pid = pid
        self.startTime = startTime
    }

    /// This process.
    package static var current: ProcessOwner {
        let pid = getpid()
        return ProcessOwner(pid: pid, startTime: Host.startTime(of: pid) ?? 0)
    }

    /// "pid start\n": what an owner file holds.
    package var text: String { "\(pid) \(startTime)\n" }

    /// An owner file's text, nil when it is not one.
    package init?(text: String) {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let pid = Int32(fields[0]), let started = UInt64(fields[1]) else { return nil }
        self.init(pid: pid, startTime: started)
    }

    /// What the system says of this owner.
    package enum Status: Equatable, Sendable {
        /// No such process, or one that started at another time: its folder may go.
        case provenGone
        /// The process that made the folder, still running.
        case alive
        /// A process with its pid exists, but a start time (now, or when the folder was made)
        /// cannot be read: it may be the owner, so its folder stays, and is named.
        case unverifiable
    }

    /// The owner's status. `exists` and `startTime` are the system's answers (the tests give
    /// their own); the start time is read once.
    package func status(
        exists: (Int32) -> Bool = ProcessOwner.exists,
        startTime: (Int32) -> UInt64? = Host.startTime
    ) -> Status {
        guard exists(pid) else { return .provenGone }
        guard self.startTime != 0, let now = startTime(pid) else { return .unverifiable }
        return now == self.startTime ? .alive : .provenGone
    }

    /// Whether a process `pid` exists (signal 0; EPERM: it does, and is another user's).
    package static func exists(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno == EPERM }
}
