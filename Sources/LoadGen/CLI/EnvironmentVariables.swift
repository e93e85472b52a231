/// Every environment variable loadgen reads, with what it does: `loadgen --help` and the manual
/// page's ENVIRONMENT section are made from this table, and a test checks that every
/// `LOADGEN_` name the sources read is in it.
enum EnvironmentVariables {
    static let all: [(name: String, meaning: String)] = [
        (
            DefaultResults.environmentVariable,
            "the folder a run given no --out writes results/run-<UTC>.csv into (default: results under the current folder)"
        ),
        (
            "LOADGEN_SQL_DEBUG",
            "1 (or more): log the engine's SQL to stderr as Core Data's -com.apple.CoreData.SQLDebug does"
        ),
        ("LOADGEN_KEEP_CALLGRIND", "a folder: keep each --instructions repetition's callgrind output there"),
        ("LOADGEN_GIT_REV", "the revision recorded in git_rev (default: the checkout's, read by git)"),
        (
            "LOADGEN_CONCURRENCY_DEBUG",
            "1: check every context access against its queue, as Core Data's concurrency debug flag"
        ),
        (Rerun.launcherVariable, "set by scripts/loadgen to its own full path: pages and a run's last lines name it"),
        ("LOADGEN_NO_JEMALLOC", "1 at build time (swift build): link the system's malloc instead of jemalloc"),
        ("TMPDIR", "where the stores of repetitions are made (default: /tmp)"),
    ]

    /// The `--help` section.
    static var help: String {
        let width = all.map(\.name.count).max()! + 2
        return "Environment:\n"
            + all.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.meaning }
            .joined(separator: "\n") + "\n"
    }
}
