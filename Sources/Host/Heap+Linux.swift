#if os(Linux)
    import CMalloc
    import Glibc

    /// glibc's malloc, where jemalloc is not the allocator (test binaries).
    extension Heap {
        static let systemAllocatorName = "glibc"

        /// glibc's own count (`mallinfo2`): the blocks in use in its arenas and the large blocks it
        /// maps on their own (`hblkhd`, above its mmap threshold of 128 KiB and more). Tests that
        /// measure set one arena (`useSingleSystemArena`) so that no thread's cache hides a block.
        static func systemAllocatedBytes() -> Int {
            let info = mallinfo2()
            return Int(info.uordblks + info.hblkhd)
        }

        static func useSingleSystemArena() { _ = mallopt(M_ARENA_MAX, 1) }
    }
#endif
