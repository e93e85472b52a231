/// Resident memory of this process: now (sampled every 10 ms, so cheap), as the system's status
/// reports it, and its peak since the process started. Answered in `ProcessMemory+Linux.swift`
/// (/proc) and `ProcessMemory+Darwin.swift` (proc_pid_rusage, getrusage); 0 where a system gives
/// neither, which the results then show as a blank-worthy 0 rather than a guess.
package enum ProcessMemory {}
