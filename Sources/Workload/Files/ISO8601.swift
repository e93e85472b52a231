/// ISO 8601 dates in UTC (`2025-03-04T05:06:07Z`), written and read as bytes: the import
/// files' date format, fast enough that formatting never limits generation.
///
/// Values are seconds since 2001-01-01 00:00:00 UTC, as Core Data stores dates.
package enum ISO8601 {
    /// Seconds from 1970 to 2001.
    static let referenceOffset: Int64 = 978_307_200

    /// Writes the date at `p` (at most 24 bytes); returns how many bytes it wrote. Days from
    /// 2000 to 2055 come from a table, the rest from the calendar arithmetic.
    @inline(__always)
    package static func write(_ seconds: Double, to p: UnsafeMutableRawPointer) -> Int {
        let whole = seconds.rounded(.down)
        let millis = Int64(((seconds - whole) * 1000).rounded())
        let unix = Int64(whole) + referenceOffset
        var days = unix / 86_400
        var rest = unix % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let slot = Int(days - tableFirstDay)
        if slot >= 0 && slot < tableDays {
            dayTable.withUnsafeBytes { p.copyMemory(from: $0.baseAddress! + slot * 10, byteCount: 10) }
        } else {
            let (y, m, d) = civil(fromDays: days)
            put(y, 4, p, 0)
            p.storeBytes(of: 45, toByteOffset: 4, as: UInt8.self)
            put(m, 2, p, 5)
            p.storeBytes(of: 45, toByteOffset: 7, as: UInt8.self)
            put(d, 2, p, 8)
        }
        p.storeBytes(of: 84, toByteOffset: 10, as: UInt8.self)
        put(rest / 3600, 2, p, 11)
        p.storeBytes(of: 58, toByteOffset: 13, as: UInt8.self)
        put(rest / 60 % 60, 2, p, 14)
        p.storeBytes(of: 58, toByteOffset: 16, as: UInt8.self)
        put(rest % 60, 2, p, 17)
        var n = 19
        if millis > 0 {
            p.storeBytes(of: 46, toByteOffset: 19, as: UInt8.self)
            put(millis, 3, p, 20)
            n = 23
        }
        p.storeBytes(of: 90, toByteOffset: n, as: UInt8.self)
        return n + 1
    }

    @inline(__always)
    private static func put(_ v: Int64, _ width: Int, _ p: UnsafeMutableRawPointer, _ at: Int) {
        var x = v
        for i in stride(from: width - 1, through: 0, by: -1) {
            p.storeBytes(of: UInt8(48 + x % 10), toByteOffset: at + i, as: UInt8.self)
            x /= 10
        }
    }

    private static let tableFirstDay = days(fromCivil: 2000, 1, 1)
    private static let tableDays = 20_454   // to 2055-12-31
    /// "YYYY-MM-DD" for each day of the table, 10 bytes each.
    private static let dayTable: [UInt8] = {
        var out: [UInt8] = []
        out.reserveCapacity(tableDays * 10)
        for i in 0..<tableDays {
            let (y, m, d) = civil(fromDays: tableFirstDay + Int64(i))
            digits(y, 4, &out)
            out.append(45)
            digits(m, 2, &out)
            out.append(45)
            digits(d, 2, &out)
        }
        return out
    }()

    /// Appends the date, with milliseconds only when it has a fraction of a second.
    package static func write(_ seconds: Double, into out: inout [UInt8]) {
        var bytes = [UInt8](repeating: 0, count: 24)
        let n = bytes.withUnsafeMutableBytes { write(seconds, to: $0.baseAddress!) }
        out.append(contentsOf: bytes[0..<n])
    }

    /// Parses `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM|±HHMM|±HH)`; nil when it is not one.
    package static func parse(_ b: UnsafeRawBufferPointer) -> Double? {
        func num(_ at: Int, _ n: Int) -> Int64? {
            guard at + n <= b.count else { return nil }
            var v: Int64 = 0
            for i in at..<(at + n) {
                let c = b[i]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int64(c - 48)
            }
            return v
        }
        // A calendar date alone (`2020-02-19`, as app-store feeds date their versions): its midnight UTC.
        if b.count == 10, let y = num(0, 4), b[4] == 45, let mo = num(5, 2), b[7] == 45, let d = num(8, 2),
            (1...12).contains(mo), (1...daysIn(y, mo)).contains(d)
        {
            return Double(days(fromCivil: y, mo, d) * 86_400 - referenceOffset)
        }
        guard b.count >= 19, let y = num(0, 4), b[4] == 45, let mo = num(5, 2), b[7] == 45, let d = num(8, 2),
            b[10] == 84 || b[10] == 116 || b[10] == 32, let h = num(11, 2), b[13] == 58, let mi = num(14, 2),
            b[16] == 58, let s = num(17, 2),
            (1...12).contains(mo), (1...daysIn(y, mo)).contains(d), h < 24, mi < 60, s < 61
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count && b[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                fraction += Double(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        var offset: Int64 = 0
        if i < b.count && (b[i] == 90 || b[i] == 122) {
            i += 1
        } else if i < b.count && (b[i] == 43 || b[i] == 45) {
            // ±HH:MM, ±HHMM or ±HH, the offsets ISO 8601 allows.
            guard let oh = num(i + 1, 2), oh < 24 else { return nil }
            let colon = i + 3 < b.count && b[i + 3] == 58 ? 1 : 0
            let om = i + 3 == b.count ? 0 : num(i + 3 + colon, 2)
            guard let om, om < 60 else { return nil }
            offset = (oh * 3600 + om * 60) * (b[i] == 43 ? 1 : -1)
            i += i + 3 == b.count ? 3 : 5 + colon
        } else if i != b.count {
            return nil
        }
        // No zone at all (`2018-04-03T23:05:12`, as a shop's API writes its `_gmt` dates): UTC.
        guard i == b.count else { return nil }
        let unix = days(fromCivil: y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offset
        return Double(unix - referenceOffset) + fraction
    }

    /// The days of `month` (1…12) in `year`: 2025-02-30 is no date, not 2025-03-02.
    static func daysIn(_ year: Int64, _ month: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's algorithms: exact for every proleptic Gregorian date.
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    @inline(__always)
    static func digits(_ v: Int64, _ width: Int, _ out: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        var x = v
        while divisor > 0 {
            out.append(UInt8(48 + (x / divisor) % 10))
            x %= divisor
            divisor /= 10
        }
    }
}
