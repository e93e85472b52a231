import Foundation

/// The git revision loadgen was built from, for the `git_rev` column.
///
/// Found from the executable's own location (`.build/…/loadgen` inside the checkout), so it names
/// the code that ran, not whatever folder the user stands in. `LOADGEN_GIT_REV` overrides it (for
/// builds outside a checkout); "unknown" when neither tells.
enum GitRevision {
    static func current() -> String {
        if let forced = ProcessInfo.processInfo.environment["LOADGEN_GIT_REV"], !forced.isEmpty { return forced }
        guard let root = checkoutRoot() else { return "unknown" }
        guard let rev = git(["-C", root, "rev-parse", "--short=12", "HEAD"]), !rev.isEmpty else { return "unknown" }
        let dirty = git(["-C", root, "status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
        return dirty ? rev + "-dirty" : rev
    }

    private static func checkoutRoot() -> String? {
        var url = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                      ?? CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<8 {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
            url.deleteLastPathComponent()
        }
        return nil
    }

    private static func git(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
