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
        let dirty = git(["-C", root, "status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
        return dirty ? rev + "-dirty" : rev
    }

    /// Runs git with `posix_spawn` and reads its output. Foundation's `Process` hung forever,
    /// deaf to Ctrl-C, when the system refused it a thread (`ulimit -v 100000`); this fails and
    /// the revision reads "unknown".
    private static func git(_ arguments: [String]) -> String? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        let started = Spawn.start("git", arguments: ["git"] + arguments,
                                  actions: [.duplicate(fds[1], to: 1), .close(fds[0]), .null(2)], searchPath: true)
        close(fds[1])
        defer { close(fds[0]) }
        guard case .success(let pid) = started else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n > 0 { output += buffer[0..<n]; continue }
            if n < 0 && errno == EINTR { continue }
            break
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { return nil }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
