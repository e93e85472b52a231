/// Exit statuses, as sysexits(3) defines them, so scripts can tell a typo from a full disk.
enum ExitCode {
    static let success: Int32 = 0
    /// Something measured went wrong (a failed or crashed repetition), or a gate found a regression.
    static let failure: Int32 = 1
    /// compare and ab (as diff and cmp): what they were given could not be judged, in part or at all.
    static let notJudged: Int32 = 2
    /// EX_USAGE: a command, flag or value is wrong.
    static let usage: Int32 = 64
    /// EX_DATAERR: an input file is malformed.
    static let dataError: Int32 = 65
    /// EX_NOINPUT: an input file does not exist or cannot be read.
    static let noInput: Int32 = 66
    /// EX_UNAVAILABLE: a tool loadgen needs (gnuplot, valgrind) is not installed.
    static let unavailable: Int32 = 69
    /// EX_SOFTWARE: a bug in loadgen.
    static let software: Int32 = 70
    /// EX_OSERR: the system refuses what loadgen needs (a process limit too low).
    static let osError: Int32 = 71
    /// EX_CANTCREAT: an output file or store cannot be created.
    static let cannotCreate: Int32 = 73
    /// EX_IOERR: reading or writing failed midway.
    static let ioError: Int32 = 74
    /// 128 + SIGINT: stopped by Ctrl-C.
    static let interrupted: Int32 = 130

    /// Every status with its name and meaning, in one table: the man page's EXIT STATUS and the
    /// table in docs/COMMANDS.md are made from it (a test checks that table).
    static let documented: [(code: Int32, name: String, meaning: String)] = [
        (success, "success", "done; compare and ab: nothing regressed"),
        (failure, "failure", "a repetition failed or crashed; compare and ab: a regression"),
        (
            notJudged, "not judged",
            "compare and ab: part of what was given could not be judged (nothing in common, a "
                + "configuration one side lacks, too few pairs)"
        ),
        (usage, "EX_USAGE", "a command, flag or value is wrong: the message names the flag and what to type"),
        (dataError, "EX_DATAERR", "an input file is malformed (a results file, a model, an import file)"),
        (noInput, "EX_NOINPUT", "an input file does not exist or cannot be read"),
        (unavailable, "EX_UNAVAILABLE", "a tool loadgen needs (gnuplot, valgrind) is not installed"),
        (software, "EX_SOFTWARE", "a bug in loadgen"),
        (osError, "EX_OSERR", "the system refuses what loadgen needs (a process limit too low)"),
        (cannotCreate, "EX_CANTCREAT", "an output file or store cannot be created (or is not loadgen's to replace)"),
        (ioError, "EX_IOERR", "reading or writing failed midway (a full disk)"),
        (interrupted, "interrupted", "stopped by Ctrl-C (128 + SIGINT)"),
    ]
}

/// An error that ends the command with one line on stderr and a chosen exit status.
struct CommandError: Error, CustomStringConvertible {
    let message: String
    let exitCode: Int32

    static func usage(_ message: String) -> CommandError { CommandError(message: message, exitCode: ExitCode.usage) }

    var description: String { message }
}
