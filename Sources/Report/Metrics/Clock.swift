import Host

/// The monotonic clock: wall time that never jumps with NTP or the user's clock.
package enum Clock {
    /// Nanoseconds since an arbitrary fixed point.
    @inline(__always)
    package static func nanoseconds() -> UInt64 {
        Posix.monotonicNanoseconds()
    }

    /// Seconds elapsed since `start` (a `nanoseconds()` reading).
    package static func seconds(since start: UInt64) -> Double {
        Double(nanoseconds() &- start) / 1e9
    }
}

/// CPU time the process has used, from getrusage.
package struct CPUTime: Sendable, Equatable {
    package var user: Double
    package var system: Double

    package static func now() -> CPUTime {
        let usage = Host.processUsage()
        return CPUTime(
            user: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
            system: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6)
    }

    package static func - (a: CPUTime, b: CPUTime) -> CPUTime {
        CPUTime(user: a.user - b.user, system: a.system - b.system)
    }
}
