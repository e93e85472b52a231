import Foundation
import Host

/// The git revision loadgen was built from, for the `git_rev` column.
///
/// Found from the executable's own location (`.build/…/loadgen` inside the checkout), so it names
/// the code that ran, not whatever folder the user stands in. `LOADGEN_GIT_REV` overrides it (for
/// builds outside a checkout); "unknown" when neither tells.
enum GitRevision {
    static func current() -> String {
        if let forced = ProcessInfo.processInfo.environment["LOADGEN_GIT_REV"], !forced.isEmpty { return forced }
        guard let root = Checkout.root else { return "unknown" }
        guard let rev = git(["-C", root, "rev-parse", "--short=12", "HEAD"]), !rev.isEmpty else { return "unknown" }
        // not a results column: git status
        let dirty = git(["-C", root, "status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
        return dirty ? rev + "-dirty" : rev
    }

    /// Runs git with `posix_spawn` and reads its output. Foundation's `Process` hung forever,
    /// deaf to Ctrl-C, when the system refused it a thread (`ulimit -v 100000`); this fails and
    /// the revision reads "unknown".
    private static func git(_ arguments: [String]) -> String? {
        guard case .success(let run) = Spawn.output("git", arguments: ["git"] + arguments, searchPath: true),
            run.status == 0
        else {
            return nil
        }
        return String(decoding: run.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
