#if canImport(Glibc)
    import Glibc

    /// Linux's answers, from /proc: VmHWM is the kernel's exact peak, not a sample.
    extension ProcessMemory {
        /// Current resident set in bytes (/proc/self/statm), cheap enough to sample every 10 ms.
        package static func residentBytes() -> Int {
            guard let text = read("/proc/self/statm") else { return 0 }
            let fields = text.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        }

        /// Peak resident set in bytes since the process started (VmHWM).
        package static func peakResidentBytes() -> Int { statusField("VmHWM:") }

        /// Current resident set in bytes as /proc/self/status reports it (VmRSS).
        package static func statusResidentBytes() -> Int { statusField("VmRSS:") }

        private static func statusField(_ name: String) -> Int {
            guard let text = read("/proc/self/status") else { return 0 }
            for line in text.split(separator: "\n") where line.hasPrefix(name) {
                let kb =
                    line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap {
                        Int($0)
                    } ?? 0
                return kb * 1024
            }
            return 0
        }

        /// Reads a small /proc file without Foundation (no allocation beyond the result).
        static func read(_ path: String) -> String? {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return nil }
            return String(decoding: buffer[0..<n], as: UTF8.self)
        }
    }
#endif
