#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The monotonic clock: wall time that never jumps with NTP or the user's clock.
public enum Clock {
    /// Nanoseconds since an arbitrary fixed point.
    @inline(__always)
    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Seconds elapsed since `start` (a `nanoseconds()` reading).
    public static func seconds(since start: UInt64) -> Double {
        Double(nanoseconds() &- start) / 1e9
    }
}

/// CPU time the process has used, from getrusage.
public struct CPUTime: Sendable, Equatable {
    public var user: Double
    public var system: Double

    public static func now() -> CPUTime {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return CPUTime(user: Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
                       system: Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6)
    }

    public static func - (a: CPUTime, b: CPUTime) -> CPUTime {
        CPUTime(user: a.user - b.user, system: a.system - b.system)
    }
}
