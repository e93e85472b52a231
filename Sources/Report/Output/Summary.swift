import Foundation

/// The human summary on stdout: per strategy, the median and range over repetitions (like
/// hyperfine), then a side-by-side table when several strategies ran.
public enum Summary {
    public static func render(_ rows: [ResultRow]) -> String {
        var order: [String] = []
        var groups: [String: [ResultRow]] = [:]
        for row in rows {
            if groups[row.parameters.strategy] == nil { order.append(row.parameters.strategy) }
            groups[row.parameters.strategy, default: []].append(row)
        }
        var text = ""
        for name in order { text += block(name, groups[name]!) + "\n" }
        if order.count > 1 { text += table(order.map { ($0, groups[$0]!) }) }
        return text
    }

    private static func block(_ name: String, _ rows: [ResultRow]) -> String {
        let p = rows[0].parameters
        let ok = rows.filter { $0.measurement.status == .ok }
        var text = "\(name)  (\(p.dataset), \(p.rows) rows, \(p.uniqueKeys) unique keys, \(rows.count) repetition"
            + (rows.count == 1 ? ")\n" : "s)\n")
        for bad in rows where bad.measurement.status != .ok {
            text += "  repetition \(bad.parameters.repetition): \(bad.measurement.status.rawValue)"
                + (bad.measurement.error.map { ": \($0)" } ?? "") + "\n"
        }
        guard !ok.isEmpty else { return text }
        if let wall = Statistics(ok.compactMap(\.measurement.wallSeconds)) {
            text += "  Time (median):  \(Format.duration(wall.median))"
            if wall.count > 1 {
                text += String(format: " ± %.1f%%", wall.relativeSpread * 100)
                    + "   [\(Format.duration(wall.min)) … \(Format.duration(wall.max))]"
            }
            text += "\n"
        }
        if let rate = Statistics(ok.compactMap(\.measurement.rowsPerSecond)) {
            text += "  Rate (median):  \(Format.rate(rate.median))"
            if let vs = Statistics(ok.compactMap(\.vsLimit)) { text += String(format: "   vs limit %.2f", vs.median) }
            text += "\n"
        }
        if let rss = ok.compactMap(\.measurement.peakRSSBytes).max(), let heap = ok.compactMap(\.measurement.peakHeapBytes).max() {
            text += "  Memory (max):   peak RSS \(Format.bytes(rss)), peak heap \(Format.bytes(heap))\n"
        }
        let last = ok[ok.count - 1].measurement
        if let sql = last.sql {
            var line = "  SQL (last):     \(sql.total) statements, \(sql.select) selects, \(sql.commits) transactions"
            if let saves = last.strategy?.saves { line += ", \(saves) saves" }
            if let conflicts = last.strategy?.conflicts { line += ", \(conflicts) conflicts" }
            if let retries = last.strategy?.busyRetries { line += ", \(retries) busy retries" }
            text += line + "\n"
        }
        if let latency = last.strategy?.latencyP50Milliseconds {
            text += String(format: "  Latency (last): p50 %.1f ms, p99 %.1f ms, max %.1f ms", latency,
                           last.strategy?.latencyP99Milliseconds ?? 0, last.strategy?.latencyMaxMilliseconds ?? 0)
            text += last.strategy?.fellBehind == true ? "  — could not keep up with --rate\n" : "\n"
        }
        if let shown = last.strategy?.viewObjects {
            text += "  Screen (last):  shows \(shown) objects"
                + (last.verification?.viewMissing.map { ", misses \($0) rows" } ?? "")
                + String(format: ", merging took %.1f ms\n", last.strategy?.mergeMillisecondsTotal ?? 0)
        }
        if let v = last.verification {
            text += "  Store (last):   \(v.storeRows) rows, \(v.duplicates) duplicates, \(v.lost) lost, "
                + "\(v.badLinks) bad links, integrity \(v.integrity), \(Format.bytes(v.storeBytes))\n"
        }
        return text
    }

    private static func table(_ groups: [(String, [ResultRow])]) -> String {
        var lines = [["strategy", "rows/s", "vs_limit", "peak RSS", "duplicates", "lost", "sql_selects", "status"]]
        for (name, rows) in groups {
            let ok = rows.filter { $0.measurement.status == .ok }
            let rate = Statistics(ok.compactMap(\.measurement.rowsPerSecond))
            let vs = Statistics(ok.compactMap(\.vsLimit))
            let last = ok.last?.measurement
            lines.append([
                name,
                rate.map { String(format: "%.0f", $0.median) } ?? "",
                vs.map { String(format: "%.2f", $0.median) } ?? "",
                ok.compactMap(\.measurement.peakRSSBytes).max().map(Format.bytes) ?? "",
                last?.verification.map { String($0.duplicates) } ?? "",
                last?.verification.map { String($0.lost) } ?? "",
                last?.sql.map { String($0.select) } ?? "",
                ok.count == rows.count ? "ok" : "\(rows.count - ok.count) not ok",
            ])
        }
        let widths = (0..<lines[0].count).map { c in lines.map { $0[c].count }.max()! }
        return lines.map { line in
            zip(line, widths).enumerated().map { i, pair in
                i == 0 ? pair.0.padding(toLength: pair.1, withPad: " ", startingAt: 0)
                       : String(repeating: " ", count: pair.1 - pair.0.count) + pair.0
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
