import Foundation
import Host
import SQLiteKit

/// The machine and software a run was measured on.
package struct SystemInfo: Codable, Sendable, Equatable {
    package var gitRevision: String
    package var host: String
    package var cpuModel: String
    package var cores: Int
    package var os: String
    package var swiftVersion: String
    package var sqliteVersion: String
    package var allocator: String

    /// Reads everything once, at the start of an invocation.
    package static func current(gitRevision: String) -> SystemInfo {
        SystemInfo(
            gitRevision: gitRevision,
            host: ProcessInfo.processInfo.hostName,
            cpuModel: cpuModel(),
            cores: ProcessInfo.processInfo.activeProcessorCount,
            os: osName(),
            swiftVersion: swiftVersion,
            sqliteVersion: Database.libraryVersion,
            allocator: Heap.allocatorName)
    }

    /// The compiler that built loadgen.
    static var swiftVersion: String {
        #if compiler(>=6.4)
            return "6.4+"
        #elseif compiler(>=6.3)
            return "6.3"
        #elseif compiler(>=6.2)
            return "6.2"
        #elseif compiler(>=6.1)
            return "6.1"
        #else
            return "6.0"
        #endif
    }

    static func cpuModel() -> String { Host.cpuModel() ?? "unknown" }

    static func osName() -> String {
        var name = "unknown"
        if let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
                name = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        var uts = utsname()
        uname(&uts)
        let release = withUnsafeBytes(of: &uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(name) (Linux \(release))"
    }
}
