import Foundation

/// What the operating system provides, behind one seam: the executable's path, a process's start
/// time and whether it lives, the load average, the CPU model, resource limits and usage, threads,
/// the C library itself (re-exported by the platform files). Each is answered in
/// `Host+Linux.swift` and `Host+Darwin.swift` (package-benchmark's convention), beside the
/// target's other pairs (`ProcessMemory`, `Heap`, `InstructionCounter`), so that the rest of
/// loadgen names no `/proc` file, no glibc and no Mach call (issue 48, decision 0038).
///
/// Where a system cannot answer, the answer is nil and the caller says so; it never guesses (a
/// folder whose owner's start time cannot be read is kept, not removed).
package enum Host {
    /// The path `spawn` runs to start this binary again (a child of `loadgen run`). On Linux the
    /// kernel's link to the running image, so a binary rebuilt meanwhile is not the one started.
    package static var spawnableSelf: String { selfForSpawning }

    /// This binary's resolved path (where its checkout is, what `ab` names as the new side).
    package static var executablePath: String { resolvedExecutable ?? CommandLine.arguments[0] }

    /// A resource limit loadgen reads or raises (getrlimit/setrlimit).
    package enum Resource: Sendable {
        /// RLIMIT_NOFILE: open files (each store takes several).
        case openFiles
        /// RLIMIT_AS: address space (`ulimit -v`).
        case addressSpace
    }

    /// The resource's number for getrlimit and setrlimit on this system.
    package static func number(of resource: Resource) -> Int32 { resourceNumber(resource) }
}
