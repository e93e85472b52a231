#if canImport(Darwin)
    import CDarwin
    import Darwin

    /// The process's retired instructions from `proc_pid_rusage` (libproc.h, `RUSAGE_INFO_V4`,
    /// macOS 10.15 and later). The count is per process, so the difference over the measured window
    /// includes the sampler's few instructions too; valgrind, the Linux fallback, does not run on
    /// Apple silicon, and this needs no privilege. Written against Apple's headers; built by the
    /// macOS workflow, not yet run on a machine of ours.
    extension Host.InstructionCounter {
        static let counterName = "rusage"

        static func startCounting() -> Result<Host.InstructionCounter, Host.CounterUnavailable> {
            switch processInstructions() {
            case .failure(let error): return .failure(error)
            case .success(let count) where count == 0:
                // Intel Macs and virtual machines may leave the field at 0: not a count.
                return .failure(Host.CounterUnavailable(call: "proc_pid_rusage", errno: ENOTSUP))
            case .success(let count): return .success(Host.InstructionCounter(fd: -1, base: count))
            }
        }

        func stopCounting() -> UInt64? {
            guard case .success(let now) = Self.processInstructions(), now >= base else { return nil }
            return now - base
        }

        private static func processInstructions() -> Result<UInt64, Host.CounterUnavailable> {
            var info = rusage_info_v4()
            let rc = withUnsafeMutablePointer(to: &info) { pointer in
                pointer.withMemoryRebound(to: rusage_info_t?.self, capacity: 1) {
                    proc_pid_rusage(getpid(), RUSAGE_INFO_V4, $0)
                }
            }
            return rc == 0
                ? .success(info.ri_instructions)
                : .failure(Host.CounterUnavailable(call: "proc_pid_rusage", errno: errno))
        }
    }
#endif
