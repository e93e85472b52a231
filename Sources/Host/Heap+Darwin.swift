#if canImport(Darwin)
    import CDarwin
    import Darwin

    /// The system allocator (libmalloc), where jemalloc is not the allocator.
    extension Heap {
        static let systemAllocatorName = "darwin"

        /// The size in use over every zone (`malloc_zone_statistics` with no zone, malloc/malloc.h).
        static func systemAllocatedBytes() -> Int {
            var stats = malloc_statistics_t()
            malloc_zone_statistics(nil, &stats)
            return Int(stats.size_in_use)
        }

        /// libmalloc's statistics already cover every zone and thread: nothing to set.
        static func useSingleSystemArena() {}
    }
#endif
