import Foundation

/// Number formatting shared by the summary, the progress display and the CSV.
package enum Format {
    /// "712 k rows/s", "1.42 M rows/s".
    package static func rate(_ rowsPerSecond: Double) -> String {
        if rowsPerSecond >= 1e6 { return String(format: "%.2f M rows/s", rowsPerSecond / 1e6) }
        if rowsPerSecond >= 1e3 { return String(format: "%.0f k rows/s", rowsPerSecond / 1e3) }
        return String(format: "%.0f rows/s", rowsPerSecond)
    }

    /// "85.2 ms", "1.42 s", "3 min 5 s", "4 h 47 min" (a plan's estimate read "286 min 54 s").
    package static func duration(_ seconds: Double) -> String {
        if seconds < 1 { return String(format: "%.1f ms", seconds * 1000) }
        if seconds < 120 { return String(format: "%.2f s", seconds) }
        if seconds < 7200 { return "\(Int(seconds) / 60) min \(Int(seconds) % 60) s" }
        return "\(Int(seconds) / 3600) h \(Int(seconds) % 3600 / 60) min"
    }

    /// "12.3 MB" (decimal megabytes, as the targets are written).
    /// `text` with every control character written as `\u{1B}`: an error quoting a file's bytes
    /// (a results cell holding an escape sequence that clears the screen and prints a green "no
    /// regression") reaches the terminal as text, never as a command to it (issue 55, item 6).
    package static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool { s.value < 0x20 || (0x7F...0x9F).contains(s.value) }

    /// A whole number with a comma every three digits: "90,000,000".
    package static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// Sizes are decimal, as `--max-rss` reads them: a kB is 10³ bytes, an MB 10⁶, a GB 10⁹.
    package static func bytes(_ n: Int) -> String {
        let v = Double(n)
        if v >= 1e9 { return String(format: "%.2f GB", v / 1e9) }
        if v >= 1e6 { return String(format: "%.1f MB", v / 1e6) }
        if v >= 1e3 { return String(format: "%.1f kB", v / 1e3) }
        return "\(n) B"
    }

    /// A number as plainly as it reads: a whole one without decimals, another with six
    /// significant digits; "NaN" for one that is not finite (gnuplot skips it).
    package static func plain(_ v: Double) -> String {
        guard v.isFinite else { return "NaN" }
        return v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(format: "%.6g", v)
    }

    /// A fixed-point number for CSV: no exponent, no locale, trailing zeros kept for alignment.
    package static func fixed(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }

    /// A share for CSV with at least `decimals` decimals and as many more as it takes to read
    /// back the same value: 0.1 is "0.1000", 1e-7 is "0.0000001" (not "0.0000", which named
    /// another configuration than the one that ran).
    package static func share(_ value: Double, atLeast decimals: Int = 4) -> String {
        for d in decimals...17 {
            let text = fixed(value, d)
            if Double(text) == value { return text }
        }
        return fixed(value, 17)
    }

    /// "38,458": a count with thousands separators, as a reader compares two of them.
    package static func thousands(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return (n < 0 ? "-" : "") + out
    }
}
