import Foundation

/// Whether an output's file name leaves room for the files loadgen writes beside it: a
/// temporary copy renamed over it (`NAME.tmp-PID`, `NAME.partial-PID`), a store's partial copy
/// and its journals (`.NAME.partial-RUN-journal`). A name that fits but whose neighbours do not
/// would be found out only when the run ends, its rows lost (issue 45, item 15).
package enum OutputName {
    /// The most bytes loadgen adds to an output's name for a file beside it: a store's
    /// `.` + `.partial-` + run id (8 hex digits, `-`, up to 6 digits of sequence) + `-journal`.
    package static let reserve = 1 + 9 + 15 + 8

    /// Why `path`'s file name is too long for its folder's file system, or nil when it fits.
    package static func problem(_ path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent.utf8.count
        let limit = pathconf(url.deletingLastPathComponent().path, Int32(_PC_NAME_MAX))
        let maximum = limit > 0 ? limit : 255
        guard name + reserve > maximum else { return nil }
        return
            "the file name is \(name) bytes, and loadgen writes files beside it with names up to \(reserve) bytes longer, "
            + "where this file system allows \(maximum): give a name of at most \(maximum - reserve) bytes"
    }
}
