/// Deterministic bytes for generated binary values, shared by every record.
///
/// A generated value is `length` bytes starting at its offset (below `slack`) in this pool: each
/// record gets different bytes (so SQLite cannot share pages between them) with no allocation
/// and no copying per record. The bytes are written once in `init` and never change, and their
/// address is stable for the pool's lifetime, which is why SQLite may bind them without a copy
/// and why the pool is `@unchecked Sendable`.
package final class PayloadPool: @unchecked Sendable {
    /// How far into the pool a value may start.
    package static let slack = 4096
    /// The longest value the pool serves.
    package let largest: Int
    private let bytes: UnsafeMutableRawBufferPointer

    package init(largest: Int, seed: UInt64) {
        self.largest = largest
        bytes = .allocate(byteCount: largest + Self.slack, alignment: 8)
        var h = Mixing.mix(seed ^ 0x1A6E_DA7A)
        for i in 0..<bytes.count {
            if i % 8 == 0 { h = Mixing.mix(h) }
            bytes[i] = UInt8(truncatingIfNeeded: h >> UInt64((i % 8) * 8))
        }
    }

    deinit { bytes.deallocate() }

    /// `count` bytes starting at `offset`, valid as long as the pool lives.
    @inline(__always)
    package func bytes(at offset: Int, count: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    /// A pool for the generated binary values of `shape` (nil when it has none): the same bytes as
    /// its generator's, since a pool is a pure function of its size and seed.
    package convenience init?(for shape: RecordShape, seed: UInt64) {
        guard shape.largestPayload > 0 else { return nil }
        self.init(largest: shape.largestPayload, seed: seed)
    }
}
