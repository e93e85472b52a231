import Foundation

extension Host {
    /// A running count of the instructions this process retires while a repetition runs: the work
    /// figure that repeats from run to run, where the machine lets it be counted.
    ///
    /// What each system counts (`InstructionCounter+Linux.swift`, `+Darwin.swift`):
    /// - Linux: user-space instructions of the starting thread and the threads it starts afterwards
    ///   (perf_event_open; `ENOENT` in most virtual machines, which have no hardware counter);
    /// - Darwin: the whole process's retired instructions (`proc_pid_rusage`, `ri_instructions`),
    ///   the sampler's included; Apple silicon counts them, and where the value stays 0 the
    ///   counter says it is unavailable rather than report 0.
    package struct InstructionCounter: Sendable {
        /// The perf descriptor (Linux) or unused (Darwin).
        let fd: Int32
        /// The process's count when counting started (Darwin) or 0 (Linux).
        let base: UInt64

        /// What counts, as the CSV's `instructions_by` names it: "perf" (Linux) or "rusage"
        /// (Darwin). The two count differently and are never compared with each other.
        package var countedBy: String { Self.counterName }

        /// Starts counting, or explains why this machine cannot.
        package static func start() -> Result<InstructionCounter, CounterUnavailable> { startCounting() }

        /// Stops and returns the count, nil when the counter could not be read.
        package func stop() -> UInt64? { stopCounting() }
    }

    /// Why instructions cannot be counted here.
    package struct CounterUnavailable: Error, Sendable, CustomStringConvertible {
        /// The call that failed ("perf_event_open", "proc_pid_rusage").
        package let call: String
        package let errno: Int32
        package var description: String { call + ": " + String(cString: strerror(errno)) }
    }
}
