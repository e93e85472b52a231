import Foundation
import Host

/// The process limits a run depends on, checked before anything runs so that a limit too low
/// is named instead of surfacing later as a crash or a misleading error.
enum ProcessLimits {
    /// Open files a run needs at least: the results files, the child's pipe, and in the child a
    /// store (file, WAL, shared memory) per connection, the verifier's, /proc readers. Measured:
    /// a batch run of 1,000 rows died with SIGILL at `ulimit -n` 14 and said "cannot write in the
    /// temporary folder" at 16 to 20; 30 was enough. Racing writers with a coordinator each need
    /// three more per writer.
    static let minimumOpenFiles: rlim_t = 64

    /// Called first thing: raises the soft open-file limit to the hard one (up to 4,096), and
    /// ignores SIGXFSZ so that a file-size limit (`ulimit -f`) makes writes fail with EFBIG,
    /// which every writer reports, instead of killing the process without a word.
    static func prepare() {
        Posix.ignore(SIGXFSZ)
        guard var limit = Posix.limit(of: .openFiles) else { return }
        let wanted = min(limit.rlim_max, 4_096)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = wanted
            Posix.setLimit(of: .openFiles, to: limit)
        }
    }

    /// Throws when fewer files than a run needs may be open, naming the limit and the fix.
    static func checkForRun() throws {
        guard let limit = Posix.limit(of: .openFiles), limit.rlim_cur < minimumOpenFiles else { return }
        throw CommandError(
            message: "run: only \(limit.rlim_cur) files may be open (ulimit -n); a run needs at least "
                + "\(minimumOpenFiles): raise the limit (ulimit -n 1024) and run again",
            exitCode: ExitCode.osError)
    }
}
