/// The review page's section on reads: what each list screen cost in read words (rows read per
/// second, heap per row, queries and the rows they returned, objects held at once), and which
/// reads issue a query per row, the N+1 of reads, with the number of related objects that moves it.
package enum ReadSection {
    /// The section in Markdown, empty when the rows hold no read.
    package static func markdown(_ s: RunSummary) -> String {
        let reads = s.configurations.filter {
            $0.parameters.operation == "read" && !$0.underCallgrind && $0.last != nil
        }
        guard !reads.isEmpty else { return "" }
        var text =
            "## Reads\n\nEach read screen shows every row of the filled store with its note and its related object's key; "
            + "the check compares what it showed with the store. Heap per row is the peak heap over the rows in the store; "
            + "rows from the store are the rows its queries returned (the store's opening reads included); objects held "
            + "is the most objects with values in the screen's context at once.\n\n"
        // The configuration column only when some configuration has a label (a swept parameter).
        let labelled = reads.contains { !$0.label.isEmpty }
        text +=
            "| strategy |" + (labelled ? " configuration |" : "")
            + " rows | related objects | rows read/s | heap per row | SELECTs "
            + "| rows from the store | objects held |\n"
        text += "|---|" + (labelled ? "---|" : "") + "---:|---:|---:|---:|---:|---:|---:|\n"
        for c in reads {
            let last = c.last!
            let heap = ChartData.heapPerRow(c).map { Format.bytes(Int($0.rounded())) } ?? ""
            let cells =
                [c.strategy] + (labelled ? [c.label] : []) + [
                    Format.thousands(c.parameters.rows), related(c),
                    c.rate.map { Format.rate($0.median) } ?? "", heap,
                    last.sql.map { Format.thousands($0.select) } ?? "",
                    last.sql.map { Format.thousands($0.rows) } ?? "",
                    last.strategy?.peakRegisteredObjects.map(Format.thousands) ?? "",
                ]
            text += "| " + cells.joined(separator: " | ") + " |\n"
        }
        return text + "\n" + perRow(reads)
    }

    /// The related objects of the records (`--categories`, or a model's `--parents`), blank when not said.
    private static func related(_ c: RunSummary.Configuration) -> String {
        c.parameters.relatedObjects.map(Format.thousands) ?? ""
    }

    /// The reads that issued a query per row, or per related object (at least 100 of them: with
    /// a handful the N+1 hides), said in words.
    private static func perRow(_ reads: [RunSummary.Configuration]) -> String {
        let lines = reads.compactMap { c -> String? in
            guard let sql = c.last?.sql, c.parameters.rows > 0 else { return nil }
            let rows = c.parameters.rows
            let parents = c.parameters.relatedObjects ?? 0
            let what: String
            if sql.select * 2 >= rows {
                what = "a query per row"
            } else if parents >= 100 && sql.select * 10 >= parents * 9 {
                what = "a query per related object"
            } else {
                return nil
            }
            return
                "- **\(c.strategy)** \(c.label.isEmpty ? "" : "(\(c.label)) ")issued \(Format.thousands(sql.select)) SELECTs for "
                + "\(Format.thousands(rows)) rows"
                + (parents > 0 ? " and \(Format.thousands(parents)) related objects" : "")
                + ": \(what), the N+1 of reads."
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n\n"
    }
}
