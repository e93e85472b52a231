/// Base64 (RFC 4648, with padding) for photos' `imageData` in import files.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// Writes the encoding of `bytes` at `out` (room for `(count + 2) / 3 * 4` bytes); returns
    /// how many bytes it wrote.
    package static func encode(_ bytes: UnsafeRawBufferPointer, to out: UnsafeMutableRawPointer) -> Int {
        alphabet.withUnsafeBufferPointer { a in
            var i = 0
            var o = 0
            func put(_ c: UInt8) {
                out.storeBytes(of: c, toByteOffset: o, as: UInt8.self)
                o += 1
            }
            while i + 3 <= bytes.count {
                let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
                put(a[Int(v >> 18 & 63)])
                put(a[Int(v >> 12 & 63)])
                put(a[Int(v >> 6 & 63)])
                put(a[Int(v & 63)])
                i += 3
            }
            let left = bytes.count - i
            if left > 0 {
                let v = UInt32(bytes[i]) << 16 | (left == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
                put(a[Int(v >> 18 & 63)])
                put(a[Int(v >> 12 & 63)])
                put(left == 2 ? a[Int(v >> 6 & 63)] : 61)
                put(61)
            }
            return o
        }
    }

    /// The bytes `text` encodes; nil when it is not base64.
    package static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var i = 0
        while i < text.count {
            var v: UInt32 = 0
            var pad = 0
            for j in 0..<4 {
                let c = text[i + j]
                if c == 61 && i + 4 == text.count && j >= 2 {
                    pad += 1
                    v <<= 6
                    continue
                }
                let d = reverse[Int(c)]
                guard d != 0xff, pad == 0 else { return nil }
                v = v << 6 | UInt32(d)
            }
            out.append(UInt8(v >> 16 & 0xff))
            if pad < 2 { out.append(UInt8(v >> 8 & 0xff)) }
            if pad < 1 { out.append(UInt8(v & 0xff)) }
            i += 4
        }
        return out
    }
}
