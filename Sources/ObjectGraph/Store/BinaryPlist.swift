/// A binary property list writer (Apple's `bplist00` format) for the few kinds of value a store's
/// metadata holds: ASCII strings, integers, data, arrays and dictionaries. Written here rather than
/// through `PropertyListSerialization`, whose casts of `Any` cost every store created here some
/// 570 allocations and 6 M instructions (callgrind, `raw-sqlite` at 5 k rows), more than the rows.
enum BinaryPlist {
    indirect enum Value {
        case string(String)
        case integer(Int)
        case data([UInt8])
        case array([Value])
        /// Keys in the order given.
        case dictionary([(String, Value)])
    }

    static func encode(_ top: Value) -> [UInt8] {
        var objects: [[UInt8]] = []
        // Objects are numbered depth first; a container's references are filled in once its
        // members have their numbers, so each container reserves its slot first.
        var references: [[Int]] = []
        func add(_ v: Value) -> Int {
            let index = objects.count
            objects.append([])
            references.append([])
            switch v {
            case .string(let s): objects[index] = marker(0x50, Array(s.utf8).count) + Array(s.utf8)
            case .integer(let n): objects[index] = integer(n)
            case .data(let bytes): objects[index] = marker(0x40, bytes.count) + bytes
            case .array(let members):
                objects[index] = marker(0xA0, members.count)
                references[index] = members.map(add)
            case .dictionary(let pairs):
                objects[index] = marker(0xD0, pairs.count)
                let keys = pairs.map { add(.string($0.0)) }
                references[index] = keys + pairs.map { add($0.1) }
            }
            return index
        }
        _ = add(top)
        let refSize = objects.count < 256 ? 1 : objects.count < 65_536 ? 2 : 4
        var out: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        for (i, object) in objects.enumerated() {
            offsets.append(out.count)
            out += object
            for r in references[i] { out += bigEndian(r, bytes: refSize) }
        }
        let tableOffset = out.count
        let offsetSize = tableOffset < 256 ? 1 : tableOffset < 65_536 ? 2 : 4
        for o in offsets { out += bigEndian(o, bytes: offsetSize) }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        out += bigEndian(objects.count, bytes: 8) + bigEndian(0, bytes: 8) + bigEndian(tableOffset, bytes: 8)
        return out
    }

    /// A type marker with its count: in the low nibble below 15, else 0xF and an integer object.
    private static func marker(_ type: UInt8, _ count: Int) -> [UInt8] {
        count < 15 ? [type | UInt8(count)] : [type | 0x0F] + integer(count)
    }

    private static func integer(_ n: Int) -> [UInt8] {
        if n >= 0 && n < 256 { return [0x10, UInt8(n)] }
        if n >= 0 && n < 65_536 { return [0x11] + bigEndian(n, bytes: 2) }
        if n >= 0 && n < 1 << 32 { return [0x12] + bigEndian(n, bytes: 4) }
        return [0x13] + bigEndian(n, bytes: 8)
    }

    private static func bigEndian(_ n: Int, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: n >> ($0 * 8)) }
    }
}
