import Foundation
import Synchronization

/// Allocation requests and their bytes (rounded up to jemalloc's size classes) since some start.
package struct AllocationRequests: Sendable, Equatable {
    package var count: UInt64
    package var bytes: UInt64

    package init(count: UInt64, bytes: UInt64) {
        self.count = count
        self.bytes = bytes
    }

    package static func - (a: AllocationRequests, b: AllocationRequests) -> AllocationRequests {
        AllocationRequests(count: a.count &- b.count, bytes: a.bytes &- b.bytes)
    }
}

/// Reads jemalloc's request counters through `mallctl` (found at run time, as `Heap` finds it).
///
/// The names (`stats.arenas.<i>.bins.<j>.nrequests` and the size of each class) are built once,
/// so a read allocates nothing itself: it runs at the edges of the measured window and must not
/// count its own allocations.
package final class JemallocCounts: Sendable {
    /// The reader, or nil where jemalloc is not the allocator.
    package static let shared: JemallocCounts? = JemallocCounts()

    private typealias Mallctl = Heap.Mallctl
    private let mallctl: Mallctl
    /// `arenas.create`d for the sampler; its requests are subtracted (UInt32.max: none yet).
    private let excludedArena = Atomic<UInt32>(UInt32.max)
    /// Byte size of each small bin class, then each large extent class.
    private let sizes: [UInt64]
    /// jemalloc's "all arenas" index (MALLCTL_ARENAS_ALL).
    private static let allArenas: UInt32 = 4096

    private init?() {
        guard let mallctl = Heap.mallctl else { return nil }
        self.mallctl = mallctl
        var nbins: UInt32 = 0
        var nlextents: UInt32 = 0
        guard Self.read(mallctl, "arenas.nbins", &nbins), Self.read(mallctl, "arenas.nlextents", &nlextents) else {
            return nil
        }
        var sizes: [UInt64] = []
        for j in 0..<nbins {
            var size = 0
            guard Self.read(mallctl, "arenas.bin.\(j).size", &size) else { return nil }
            sizes.append(UInt64(size))
        }
        for j in 0..<nlextents {
            var size = 0
            guard Self.read(mallctl, "arenas.lextent.\(j).size", &size) else { return nil }
            sizes.append(UInt64(size))
        }
        self.sizes = sizes
        names = Names(nbins: Int(nbins), nlextents: Int(nlextents))
    }

    /// Pre-built names of the per-class request counters, for all arenas and for one.
    private let names: Names
    private final class Names: Sendable {
        let nbins: Int
        // Written once in init, read only afterwards.
        nonisolated(unsafe) var all: [[CChar]] = []
        // Written once by the sampler thread before it publishes `excludedArena` (release);
        // read only after loading it (acquire).
        nonisolated(unsafe) var excluded: [[CChar]] = []

        init(nbins: Int, nlextents: Int) {
            self.nbins = nbins
            all = Self.build(arena: JemallocCounts.allArenas, nbins: nbins, nlextents: nlextents)
        }

        static func build(arena: UInt32, nbins: Int, nlextents: Int) -> [[CChar]] {
            (0..<nbins).map { Array("stats.arenas.\(arena).bins.\($0).nrequests".utf8CString) }
                + (0..<nlextents).map { Array("stats.arenas.\(arena).lextents.\($0).nrequests".utf8CString) }
        }
    }

    /// Binds the calling thread to the excluded arena, creating it on first use (one arena for
    /// every excluded thread: the sampler and the parent watch).
    package func bindExcludedArena() {
        creating.withLock { _ in
            var arena = excludedArena.load(ordering: .acquiring)
            if arena == UInt32.max {
                var size = MemoryLayout<UInt32>.size
                guard mallctl("arenas.create", &arena, &size, nil, 0) == 0 else { return }
                names.excluded = Names.build(arena: arena, nbins: names.nbins, nlextents: sizes.count - names.nbins)
                excludedArena.store(arena, ordering: .releasing)
            }
            _ = mallctl("thread.arena", nil, nil, &arena, MemoryLayout<UInt32>.size)
        }
    }

    private let creating = Mutex<Void>(())

    /// Requests over every arena but the excluded one. The calling thread's cache of small blocks
    /// is flushed first: jemalloc adds a thread cache's requests to the arena only when the cache
    /// fills or flushes, so an unflushed count would depend on where the cache happened to be.
    package func read() -> AllocationRequests {
        _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
        var epoch: UInt64 = 1
        _ = mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size)
        var total = sum(names.all)
        if excludedArena.load(ordering: .acquiring) != UInt32.max {
            let excluded = sum(names.excluded)
            total = AllocationRequests(count: total.count &- excluded.count, bytes: total.bytes &- excluded.bytes)
        }
        return total
    }

    private func sum(_ names: [[CChar]]) -> AllocationRequests {
        var result = AllocationRequests(count: 0, bytes: 0)
        for (i, name) in names.enumerated() {
            var value: UInt64 = 0
            var size = MemoryLayout<UInt64>.size
            let ok = name.withUnsafeBufferPointer { mallctl($0.baseAddress, &value, &size, nil, 0) } == 0
            guard ok else { continue }
            result.count &+= value
            result.bytes &+= value &* sizes[i]
        }
        return result
    }

    private static func read<T>(_ mallctl: Mallctl, _ name: String, _ value: inout T) -> Bool {
        var size = MemoryLayout<T>.size
        return withUnsafeMutablePointer(to: &value) { mallctl(name, $0, &size, nil, 0) } == 0
    }
}
