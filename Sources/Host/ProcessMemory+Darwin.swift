#if canImport(Darwin)
    import CDarwin
    import Darwin

    /// Darwin's answers (Apple's documented APIs; built by the macOS workflow, not yet run on a
    /// machine of ours): the resident size from `proc_pid_rusage`, the peak from `getrusage`, whose
    /// `ru_maxrss` is in bytes on macOS (in kilobytes on Linux).
    extension ProcessMemory {
        package static func residentBytes() -> Int { usage()?.ri_resident_size.toInt ?? 0 }

        package static func statusResidentBytes() -> Int { residentBytes() }

        package static func peakResidentBytes() -> Int {
            var usage = rusage()
            return getrusage(RUSAGE_SELF, &usage) == 0 ? Int(usage.ru_maxrss) : 0
        }

        private static func usage() -> rusage_info_v2? {
            var info = rusage_info_v2()
            let rc = withUnsafeMutablePointer(to: &info) { pointer in
                pointer.withMemoryRebound(to: rusage_info_t?.self, capacity: 1) {
                    proc_pid_rusage(getpid(), RUSAGE_INFO_V2, $0)
                }
            }
            return rc == 0 ? info : nil
        }
    }

    extension UInt64 {
        fileprivate var toInt: Int { Int(clamping: self) }
    }
#endif
