import Foundation
import Host
import Report

/// A repetition that failed because of the machine, not the strategy: the disk filled (or a
/// file-size limit was met) or memory ran out (`ulimit -v`, the kernel refusing an allocation).
/// Its row stays failed — its store is not whole — but the run's exit status and last line say
/// it was the environment (74, 71), so that CI does not blame the code (issue 27).
struct EnvironmentFailure: Equatable {
    let exitCode: Int32
    /// What ran out, and what to do.
    let reason: String

    static let diskFull = EnvironmentFailure(
        exitCode: ExitCode.ioError,
        reason:
            "the disk filled or a file-size limit was met (SQLite: disk full or disk I/O error); free space, or raise ulimit -f"
    )
    static let memory = EnvironmentFailure(
        exitCode: ExitCode.osError,
        reason:
            "memory ran out (an allocation failed: ulimit -v, or the machine's memory); raise the limit or run fewer rows"
    )

    /// SQLite's result codes for a file that cannot grow or be written: 13 SQLITE_FULL, and the
    /// extended I/O errors EFBIG and ENOSPC give: 778 IOERR_WRITE, 1034 IOERR_FSYNC, 1546
    /// IOERR_TRUNCATE, 4618 IOERR_SHMOPEN, 4874 IOERR_SHMSIZE (the WAL index cannot grow), 5386
    /// IOERR_SHMMAP.
    static let diskCodes: [Int32] = [13, 778, 1034, 1546, 4618, 4874, 5386]

    /// What in a repetition's error says it was the environment: SQLite's codes for a full disk
    /// (`diskCodes`) and for no memory (7 SQLITE_NOMEM), the system's words, a thread the system
    /// had no memory for, and Swift's runtime when malloc fails.
    static func of(_ measurement: RunMeasurement) -> EnvironmentFailure? {
        guard measurement.status != .ok, let error = measurement.error else { return nil }
        let disk =
            diskCodes.map { "SQLite error \($0):" } + [
                "database or disk is full", "No space left on device", "File too large",
            ]
        let memory = [
            "SQLite error 7:", "failed to allocate", "out of memory", "Cannot allocate memory",
            ThreadStartError.memoryHint,
        ]
        if disk.contains(where: error.contains) { return .diskFull }
        if memory.contains(where: error.contains) { return .memory }
        // Swift's runtime aborts when malloc fails, and only the child's stderr says why: a
        // child that died under an address-space limit (inherited from this process) is taken
        // to have met it.
        if measurement.status == .crashed, let limit = addressSpaceLimit {
            return EnvironmentFailure(
                exitCode: ExitCode.osError,
                reason: "the child died under ulimit -v \(limit / 1024) (KB of address space): memory most likely "
                    + "ran out; raise the limit or run fewer rows")
        }
        return nil
    }

    /// This process's address-space limit in bytes (`ulimit -v`), nil when unlimited.
    static var addressSpaceLimit: UInt64? {
        // RLIM_INFINITY is all ones (a C macro of -1, which Swift cannot import as unsigned).
        guard let limit = Posix.limit(of: .addressSpace), limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur)
    }
}
