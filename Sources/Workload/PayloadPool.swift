/// Deterministic bytes for photos' `imageData`, shared by every record.
///
/// A photo's payload is `payloadBytes` bytes starting at its `payloadOffset` in this pool: each
/// record gets different bytes (so SQLite cannot share pages between them) with no allocation
/// and no copying per record. The bytes are written once in `init` and never change, and their
/// address is stable for the pool's lifetime, which is why SQLite may bind them without a copy
/// and why the pool is `@unchecked Sendable`.
package final class PayloadPool: @unchecked Sendable {
    /// How far into the pool a payload may start.
    package static let slack = 4096
    package let payloadBytes: Int
    private let bytes: UnsafeMutableRawBufferPointer

    package init(payloadBytes: Int, seed: UInt64) {
        self.payloadBytes = payloadBytes
        bytes = .allocate(byteCount: payloadBytes + Self.slack, alignment: 8)
        var h = Mixing.mix(seed ^ 0x1A6E_DA7A)
        for i in 0..<bytes.count {
            if i % 8 == 0 { h = Mixing.mix(h) }
            bytes[i] = UInt8(truncatingIfNeeded: h >> UInt64((i % 8) * 8))
        }
    }

    deinit { bytes.deallocate() }

    /// The payload starting at `offset`, valid as long as the pool lives.
    @inline(__always)
    package func payload(at offset: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + payloadBytes)])
    }
}
