import Foundation

/// The heap as the allocator counts it: bytes currently allocated by the application.
///
/// The `loadgen` executable links jemalloc as the process allocator (see Package.swift), so
/// every malloc made by Swift, Foundation and SQLite is counted, exactly, at the moment it is
/// read (`stats.allocated`). jemalloc is found at run time (`dlsym`), not linked into this
/// library: test binaries run on the system's malloc, which the thread sanitizer needs, and read
/// the system allocator's own count instead (`Heap+Linux.swift`, `Heap+Darwin.swift`).
package enum Heap {
    typealias Mallctl =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutableRawPointer?,
            UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
        ) -> Int32

    /// jemalloc's `mallctl` in this process, for Heap and JemallocCounts: unprefixed where jemalloc
    /// replaces malloc (Debian's), `je_mallctl` where it keeps its prefix (Homebrew's on macOS,
    /// jemalloc's default there); nil without jemalloc. Literal names: no allocation.
    static let mallctl: Mallctl? = {
        let symbol = dlsym(Host.everyLoadedImage, "mallctl") ?? dlsym(Host.everyLoadedImage, "je_mallctl")
        return symbol.map { unsafeBitCast($0, to: Mallctl.self) }
    }()

    /// Bytes allocated right now. With `flushingThreadCache`, this thread's cache of freed blocks
    /// is returned first (jemalloc), so memory just freed on this thread no longer counts.
    package static func allocatedBytes(flushingThreadCache: Bool = false) -> Int {
        guard let mallctl else { return systemAllocatedBytes() }
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
        guard let mallctl else { return systemAllocatorName }
        var pointer: UnsafePointer<CChar>?
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &pointer, &size, nil, 0) == 0, let pointer else { return "jemalloc" }
        let version = String(cString: pointer)
        return "jemalloc " + (version.split(separator: "-").first.map(String.init) ?? version)
    }

    /// With the system's malloc, makes every thread share one arena so its count sees all of the
    /// heap. For tests that measure the heap; loadgen itself runs on jemalloc.
    package static func useSingleArenaForMeasurement() {
        if mallctl == nil { useSingleSystemArena() }
    }
}
