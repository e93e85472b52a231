/// Deterministic hashing: the same seed gives the same records on every machine.
///
/// Every value of a record is a pure function of (seed, key index), so a record that repeats
/// an earlier key repeats it exactly, and any record can be produced without the ones before.
package enum Mixing {
    /// SplitMix64's finalizer: a bijection on 64-bit integers with good avalanche.
    @inline(__always)
    package static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A hash of two values (seed and index, or an earlier hash and a field number).
    @inline(__always)
    package static func hash(_ a: UInt64, _ b: UInt64) -> UInt64 {
        mix(a ^ mix(b &+ 0x632B_E59B_D9B4_E019))
    }

    /// A uniform Double in [0, 1) from a hash.
    @inline(__always)
    package static func unit(_ h: UInt64) -> Double {
        Double(h >> 11) * 0x1.0p-53
    }

    /// A bijection on [0, 2^48): distinct key indexes always give distinct keys, in an order that
    /// looks random (as server IDs do), so unique indexes see realistic B-tree inserts.
    @inline(__always)
    package static func permute48(_ x: UInt64, seed: UInt64) -> UInt64 {
        let mask: UInt64 = (1 << 48) - 1
        var v = (x &+ mix(seed)) & mask   // adding a constant: still a bijection
        v = (v &* 0x5_DEEC_E66D) & mask   // odd multiplier: invertible mod 2^48
        v ^= v >> 23
        v = (v &* 0xB_2F5A_8E63_1F35) & mask   // odd
        v ^= v >> 21
        v = (v &* 0x9_5B03_9D17_3AD5) & mask   // odd
        v ^= v >> 24
        return v
    }

    /// A bijection on [0, 2^bits) for narrow integer keys, built like `permute48`.
    package static func permute(_ x: UInt64, bits: Int, seed: UInt64) -> UInt64 {
        let mask: UInt64 = (1 << UInt64(bits)) - 1
        var v = (x &+ mix(seed)) & mask
        v = (v &* 0x5_DEEC_E66D) & mask
        v ^= v >> UInt64(bits / 2)
        v = (v &* 0xB_2F5A_8E63_1F35) & mask
        v ^= v >> UInt64(bits / 3 + 1)
        return v
    }

    /// A field's salt: FNV-1a of its name, so a field's values do not depend on the fields
    /// around it.
    package static func nameSalt(_ name: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return mix(h)
    }
}
