#if os(Linux)
import CMalloc
import Glibc

/// glibc's malloc, where jemalloc is not the allocator (test binaries).
extension Heap {
    static let systemAllocatorName = "glibc"

    /// glibc's own count (`mallinfo2`): exact for the main arena, hence `useSingleSystemArena`
    /// in tests that measure.
    static func systemAllocatedBytes() -> Int { Int(mallinfo2().uordblks) }

    static func useSingleSystemArena() { _ = mallopt(M_ARENA_MAX, 1) }
}
#endif
