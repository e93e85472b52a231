#if canImport(Glibc)
import CMalloc
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The heap as the allocator counts it: bytes currently allocated by the application.
///
/// The `loadgen` executable links jemalloc as the process allocator (see Package.swift), so
/// every malloc made by Swift, Foundation and SQLite is counted, exactly, at the moment it is
/// read (`stats.allocated`). jemalloc is found at run time (`dlsym`), not linked into this
/// library: test binaries run on glibc's malloc, which the thread sanitizer needs, and read
/// glibc's own count (`mallinfo2`, exact for the main arena; tests that measure set one arena).
package enum Heap {
    private typealias Mallctl = @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?,
                                                UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int) -> Int32

    private static let mallctl: Mallctl? = mallctlSymbol().map { unsafeBitCast($0, to: Mallctl.self) }

    /// jemalloc's `mallctl` in this process, for Heap and JemallocCounts: unprefixed where jemalloc
    /// replaces malloc (Debian's), `je_mallctl` where it keeps its prefix (Homebrew's on macOS,
    /// jemalloc's default there); nil without jemalloc. Literal names: no allocation.
    static func mallctlSymbol() -> UnsafeMutableRawPointer? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallctl") ?? dlsym(UnsafeMutableRawPointer(bitPattern: 0), "je_mallctl")
    }

    /// Bytes allocated right now. With `flushingThreadCache`, this thread's cache of freed blocks
    /// is returned first (jemalloc), so memory just freed on this thread no longer counts.
    package static func allocatedBytes(flushingThreadCache: Bool = false) -> Int {
        guard let mallctl else {
            #if canImport(Glibc)
            return Int(mallinfo2().uordblks)
            #elseif canImport(Darwin)
            // The system allocator's own count over every zone (malloc/malloc.h).
            var stats = malloc_statistics_t()
            malloc_zone_statistics(nil, &stats)
            return Int(stats.size_in_use)
            #else
            return 0
            #endif
        }
        if flushingThreadCache { _ = mallctl("thread.tcache.flush", nil, nil, nil, 0) }
        var epoch: UInt64 = 1
        var size = MemoryLayout<UInt64>.size
        _ = withUnsafeMutablePointer(to: &epoch) { p in
            mallctl("epoch", nil, nil, UnsafeMutableRawPointer(p), size)
        }
        var value = 0
        size = MemoryLayout<Int>.size
        return mallctl("stats.allocated", &value, &size, nil, 0) == 0 ? value : 0
    }

    /// "jemalloc 5.3.0", or the system's allocator ("glibc", "darwin") when jemalloc is not the
    /// allocator: then the allocation counts are left blank, as only jemalloc gives them.
    package static var allocatorName: String {
        #if canImport(Darwin)
        guard let mallctl else { return "darwin" }
        #else
        guard let mallctl else { return "glibc" }
        #endif
        var pointer: UnsafePointer<CChar>?
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &pointer, &size, nil, 0) == 0, let pointer else { return "jemalloc" }
        let version = String(cString: pointer)
        return "jemalloc " + (version.split(separator: "-").first.map(String.init) ?? version)
    }

    /// With glibc's malloc, makes every thread share one arena so `mallinfo2` sees all of the
    /// heap. For tests that measure the heap; loadgen itself runs on jemalloc.
    package static func useSingleArenaForMeasurement() {
        #if canImport(Glibc)
        if mallctl == nil { _ = mallopt(M_ARENA_MAX, 1) }
        #endif
    }
}
