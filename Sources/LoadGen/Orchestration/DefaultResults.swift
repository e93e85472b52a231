import Foundation
import Host

/// Where a run given no `--out` keeps its rows (issue 58, item 6): `results/run-<UTC time>.csv`
/// under the current folder, or under `LOADGEN_RESULTS`. The README's first command printed a
/// table and kept nothing: the rows were gone once the terminal scrolled.
///
/// The file is created empty and exclusively before the first repetition, so two runs started
/// in the same second take two names and nothing is ever replaced; a run that records no row
/// removes it again.
enum DefaultResults {
    /// The folder's environment variable (documented in `loadgen --help`'s ENVIRONMENT).
    static let environmentVariable = "LOADGEN_RESULTS"

    /// Creates and returns a new results file's path.
    static func create(now: Date = Date()) throws -> String {
        let given = ProcessInfo.processInfo.environment[environmentVariable] ?? ""
        let folder = given.isEmpty ? "results" : given
        try Charts.makeFolders(folder)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = formatter.string(from: now)
        for n in 1...100 {
            let path = folder + "/run-" + stamp + (n == 1 ? "" : "-\(n)") + ".csv"
            let fd = Posix.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 {
                Posix.close(fd)
                return path
            }
            guard errno == EEXIST else {
                throw CommandError(
                    message: "run: cannot create \(path) for the results (\(String(cString: strerror(errno)))); "
                        + "give --out FILE, or set \(environmentVariable) to a folder you can write",
                    exitCode: ExitCode.cannotCreate)
            }
        }
        throw CommandError(
            message: "run: \(folder) already holds 100 results files named run-\(stamp)…; give --out FILE",
            exitCode: ExitCode.cannotCreate)
    }

    /// Removes the file `create` made when no row was written into it.
    static func removeIfEmpty(_ path: String) {
        var info = stat()
        if Posix.stat(path, &info) == 0, info.st_size == 0 { Posix.unlink(path) }
    }

    /// The last lines of a run that chose its file: where the rows are and what to do next.
    static func footer(_ path: String) -> String {
        let command = Rerun.invocation
        return
            "\nresults: \(path)\nnext: \(command) report \(Runner.shellQuoted(path)) --out review/   (a design-review page)\n"
            + "      \(command) plot \(Runner.shellQuoted(path)) --out plots/     (the charts)\n"
    }
}
