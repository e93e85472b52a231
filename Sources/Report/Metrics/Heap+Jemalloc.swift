import CJemalloc

/// The heap as jemalloc counts it: bytes currently allocated by the application.
///
/// jemalloc is linked as the process allocator (see Package.swift), so every malloc made by
/// Swift, Foundation and SQLite is counted; the figure is exact at the moment it is read.
public enum Heap {
    /// Bytes allocated right now (`stats.allocated`, after refreshing jemalloc's epoch).
    /// With `flushingThreadCache`, this thread's cache of freed blocks is returned first, so
    /// memory just freed on this thread no longer counts.
    public static func allocatedBytes(flushingThreadCache: Bool = false) -> Int {
        if flushingThreadCache { _ = mallctl("thread.tcache.flush", nil, nil, nil, 0) }
        var epoch: UInt64 = 1
        var newEpoch: UInt64 = 1
        var size = MemoryLayout<UInt64>.size
        _ = mallctl("epoch", &epoch, &size, &newEpoch, size)
        var value = 0
        var valueSize = MemoryLayout<Int>.size
        return mallctl("stats.allocated", &value, &valueSize, nil, 0) == 0 ? value : 0
    }

    /// "jemalloc 5.3.0", or "system" when jemalloc is not the allocator.
    public static var allocatorName: String {
        var pointer: UnsafePointer<CChar>?
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &pointer, &size, nil, 0) == 0, let pointer else { return "system" }
        let version = String(cString: pointer)
        return "jemalloc " + (version.split(separator: "-").first.map(String.init) ?? version)
    }

    /// Returns freed memory to the system now, so a measurement starts from a settled heap.
    public static func purge() {
        _ = mallctl("arena.4096.purge", nil, nil, nil, 0) // 4096 = MALLCTL_ARENAS_ALL
    }
}
