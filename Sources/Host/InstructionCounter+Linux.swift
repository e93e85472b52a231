#if os(Linux)
    import CLinux
    import Glibc

    /// perf_event_open's hardware instruction counter, inherited by the threads started afterwards
    /// (CLinux/shim+Linux.h holds the variadic syscall and ioctls Swift cannot call).
    extension Host.InstructionCounter {
        static let counterName = "perf"

        static func startCounting() -> Result<Host.InstructionCounter, Host.CounterUnavailable> {
            let fd = loadgen_instruction_counter_open()
            guard fd >= 0 else { return .failure(Host.CounterUnavailable(call: "perf_event_open", errno: -fd)) }
            let started = loadgen_instruction_counter_start(fd)
            guard started == 0 else {
                close(fd)
                return .failure(Host.CounterUnavailable(call: "perf_event_open", errno: -started))
            }
            return .success(Host.InstructionCounter(fd: fd, base: 0))
        }

        func stopCounting() -> UInt64? {
            defer { close(fd) }
            let value = loadgen_instruction_counter_stop(fd)
            return value >= 0 ? UInt64(value) : nil
        }
    }
#endif
