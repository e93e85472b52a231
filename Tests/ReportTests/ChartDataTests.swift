import Testing

@testable import Report

/// The charts' data in-process, from rows built in code: what each chart is told to draw.
@Suite struct ChartDataTests {
    func chart(_ name: String, _ data: ChartData) throws -> ChartData.Chart {
        try #require(data.charts.first { $0.name == name })
    }

    /// The bars of a throughput chart (its first block) and the limit's lines (its second).
    func blocks(_ chart: ChartData.Chart) throws -> (bars: [Substring], limits: [Substring]) {
        let parts = try #require(chart.data).components(separatedBy: "\n\n\n")
        return (
            parts[0].split(separator: "\n").dropFirst(1).map { $0 },
            parts[1].split(separator: "\n").dropFirst().map { $0 }
        )
    }

    @Test func throughputHasABarPerConfigurationWithItsScaleAndUnit() throws {
        let rows =
            (1...3).map { ComparisonTests.row("batch", "a-\($0)", vs: 0.5) }
            + (1...3).map { ComparisonTests.row("prefetch", "a-\($0 + 3)", vs: 0.4) }
        let throughput = try chart("throughput", ChartData(rows: rows))
        let (bars, _) = try blocks(throughput)
        #expect(bars.count == 2 && bars.first!.hasPrefix("2 \"batch\""), "\(bars)")
        #expect(throughput.variables["log"] == "0" && throughput.variables["unit"] == "records imported per second")
        #expect(throughput.variables["limitnote"] == "no limit was measured in these runs")
        #expect(throughput.variables["settings"] == "1000 rows, 3 repetitions")
    }

    /// Issue 44, item 2: a bar over a cap the run set is drawn apart, saying which cap, as the
    /// conclusion excludes it; and an open loop's chart says the rate offered (its bars can
    /// never pass it, the limit's can).
    @Test func aBarOverTheRunsCapIsDrawnApartAndTheOfferedRateIsSaid() throws {
        var options = LikeForLikeTests.options
        options.maxRSSBytes = 60_000_000
        options.subtitleColumns = [.rate]
        let lean = LikeForLikeTests.rows("context-reset", 3, parameters: ["rate": "5000.0"]) { _ in 5_000 }
        let fat = LikeForLikeTests.rows("context-noreset", 3, parameters: ["rate": "5000.0"]) { _ in 5_000 }.map {
            row in
            var heavy = row
            heavy.measurement.peakRSSBytes = 105_000_000
            return heavy
        }
        let throughput = try chart("throughput", ChartData(rows: lean + fat, options: options))
        let (bars, _) = try blocks(throughput)
        #expect(bars.contains { $0.contains("\"context-noreset — over --max-rss\"") && $0.hasSuffix(" 1") }, "\(bars)")
        #expect(bars.contains { $0.contains("\"context-reset\"") && $0.hasSuffix(" 0") }, "\(bars)")
        #expect(throughput.variables["apart"] == "1")
        #expect(throughput.variables["settings"]?.contains("offered 5000 records/s") == true, "\(throughput.variables)")
    }

    /// Issue 26, 6: the limit is one line per workload at the limit's own measured median (not a
    /// tick per bar computed as rate ÷ vs_limit, which moved from 48 k to 72 k in one chart), and
    /// configurations that may not be recommended are drawn apart with why.
    @Test func theLimitIsOneLinePerWorkloadAndShortStoresAreDrawnApart() throws {
        var rows: [ResultRow] = []
        for (size, limitRate) in [("1000", 200_000.0), ("5000", 150_000.0)] {
            let p = ["rows": size, "unique_keys": size == "1000" ? "900" : "4500"]
            rows += LikeForLikeTests.rows("raw-sqlite", 3, parameters: p, rate: { _ in limitRate })
            // vs_limit off on purpose: the line must not be derived from it.
            rows += LikeForLikeTests.rows("batch", 3, parameters: p, rate: { [40_000, 50_000, 60_000][$0 - 1] })
            rows += LikeForLikeTests.rows(
                "batch-insert-only", 3, duplicates: 100, badLinks: 900, parameters: p, rate: { _ in 120_000 })
        }
        let data = ChartData(
            rows: rows, limit: "raw-sqlite", options: LikeForLikeTests.options,
            marks: ["batch-insert-only": "the batch insert alone"])
        let throughput = try chart("throughput", data)
        let (bars, limits) = try blocks(throughput)
        #expect(limits == ["200000 6.45 3.55", "150000 3.45 0.55"], "\(limits)")
        #expect(
            bars.contains {
                $0.contains("batch-insert-only rows=1000 — short: unique, links\" ") && $0.hasSuffix(" 1")
            }, "\(bars)")
        #expect(bars.contains { $0.contains("\"raw-sqlite (limit) rows=1000\"") && $0.hasSuffix(" 2") }, "\(bars)")
        #expect(bars.filter { $0.hasSuffix(" 0") }.count == 2)
        #expect(throughput.variables["apart"] == "2" && throughput.variables["limits"] == "2")
        #expect(throughput.variables["caveats"] == "batch-insert-only: the batch insert alone")
    }

    /// One operation per throughput chart, each in its own words, the fraction in the subtitle.
    @Test func eachOperationHasItsOwnChartAndWords() throws {
        let update = ["operation": "update", "fraction": "0.1000", "unique_keys": "3000", "dup_rate": "0.0000"]
        let read = ["operation": "read", "unique_keys": "3000", "dup_rate": "0.0000"]
        let rows =
            LikeForLikeTests.rows("batch", 3, rate: { _ in 50_000 })
            + LikeForLikeTests.rows("batch-update", 3, parameters: update, rate: { _ in 80_000 })
            + LikeForLikeTests.rows("read-faulting", 3, parameters: read, rate: { _ in 300_000 })
        let data = ChartData(rows: rows, options: LikeForLikeTests.options)
        #expect(try blocks(chart("throughput", data)).bars.count == 1)
        let updates = try chart("throughput_update", data)
        #expect(try blocks(updates).bars.count == 1 && updates.variables["unit"] == "records updated per second")
        #expect(
            updates.variables["settings"]?.contains("each targets 10 % of the records") == true, "\(updates.variables)")
        #expect(try chart("throughput_read", data).variables["unit"] == "rows read per second")
        #expect(try chart("throughput_delete", data).data == nil && chart("throughput_delete", data).quiet)
    }

    /// Linear ticks read apart: 1.5M is not printed "2M" beside 2M.
    @Test func ticksReadApart() {
        #expect(
            ChartData.siTicks(upTo: 1_800_000) == (500_000, "%.1s%c")
                || ChartData.siTicks(upTo: 1_800_000).format == "%.1s%c")
        #expect(ChartData.siTicks(upTo: 60_000) == (10_000, "%.0s%c"))
        #expect(ChartData.siTicks(upTo: 1_400).format == "%g", "500.0 beside 1.5k read worse than 500 beside 1500")
    }

    /// Rates more than ten times apart (a per-row save under synchronous FULL beside a batch
    /// import) are drawn on a log scale starting at the decade below the slowest bar.
    @Test func ratesTenTimesApartGetALogScale() throws {
        var rows = (1...3).map { ComparisonTests.row("batch", "a-\($0)") }   // 1000 rows in 0.01 s
        for k in 1...3 {
            var slow = ComparisonTests.row("context-save-per-row", "a-\(k + 3)")
            slow.measurement.wallSeconds = 0.4   // 2500 rows/s
            rows.append(slow)
        }
        let throughput = try chart("throughput", ChartData(rows: rows))
        #expect(
            throughput.variables["log"] == "1" && throughput.variables["start"] == "1000", "\(throughput.variables)")
    }

    @Test func aRunWithoutALimitSaysWhyAndCallgrindRowsAreLeftOut() throws {
        var rows = (1...2).map { ComparisonTests.row("batch", "a-\($0)") }
        for i in rows.indices {
            rows[i].vsLimit = nil
            rows[i].parameters.fields["operation"] = "delete"
        }
        var counted = ComparisonTests.row("prefetch", "a-9")
        counted.measurement.instructionsCountedBy = "callgrind"
        let throughput = try chart("throughput_delete", ChartData(rows: rows + [counted]))
        #expect(try blocks(throughput).bars.count == 1, "one bar: the callgrind row's time is callgrind's")
        #expect(throughput.variables["unit"] == "records deleted per second")
        #expect(throughput.variables["limitnote"] == "operations on a filled store have no limit")
    }

    @Test func theTrendIsEachNightOverTheBaselineWithMarksBelowTheBand() throws {
        let baseline = (1...5).map { ComparisonTests.row("batch", "base-\($0)", vs: 0.5) }
        let good = (1...5).map { TrendSample(ComparisonTests.row("batch", "n1-\($0)", vs: 0.5)) }
        let bad = (1...5).map { TrendSample(ComparisonTests.row("batch", "n2-\($0)", vs: 0.4)) }
        let trend = try chart("trend", ChartData(rows: baseline, history: good + bad, baseline: baseline, band: 0.075))
        let data = try #require(trend.data)
        // In units of the configuration's own threshold: a baseline of one night has 10 %, so
        // −20 % is −2 (past it: marked), and an unchanged night 0.
        #expect(data.contains(" 0 1\n") && data.contains(" -2 1\n"), "\(data)")
        #expect(data.contains("# below the band\n") && data.contains(" -2 \"batch\""))
        #expect(trend.variables["first"] != nil && trend.variables["last"] != nil)
        #expect(trend.variables["marks"] == "1" && trend.variables["band"] == "0.075")
    }

    @Test func writersAreTheStrategiesTheCallerNames() throws {
        var rows: [ResultRow] = []
        for writers in ["1", "4"] {
            for k in 1...2 {
                var row = ComparisonTests.row("many-writers", "w\(writers)-\(k)")
                row.parameters.fields["writers"] = writers
                rows.append(row)
            }
        }
        #expect(try chart("writers", ChartData(rows: rows)).data == nil, "no writer strategies named: nothing to draw")
        let named = try chart("writers", ChartData(rows: rows, writerStrategies: ["many-writers"]))
        #expect(named.data?.hasPrefix("# writers duplicates_median duplicates_min duplicates_max") == true)
    }

    /// The batch-size headline goes from the smallest batch to the largest along one line: with
    /// rows swept too, a strategy's first and last batch were taken from different sizes.
    @Test func theBatchSizeHeadlineFollowsEachLine() throws {
        var rows: [ResultRow] = []
        for (size, base) in [("5000", 100_000.0), ("50000", 50_000.0)] {
            for batch in ["500", "2000"] {
                rows += LikeForLikeTests.rows(
                    "batch", 3, parameters: ["rows": size, "batch_size": batch],
                    rate: { _ in base + (batch == "2000" ? 10_000 : 0) })
            }
        }
        let chart = try chart("batchsize", ChartData(rows: rows, options: LikeForLikeTests.options))
        let headline = try #require(chart.variables["headline"]).replacingOccurrences(of: "\\n", with: " ")
        #expect(
            headline.contains("batch rows=5000 100 k rows/s → 110 k rows/s")
                && headline.contains("batch rows=50000 50 k rows/s → 60 k rows/s"),
            "\(headline)")
    }

    /// Titles say what the data shows: the memory chart names the lines that grow (and claims
    /// no growth when none is drawn), the writers chart who kept duplicates at 0.
    @Test func titlesSayWhatTheDataShows() throws {
        func samples(_ run: String, _ strategy: String, heap: (Double) -> Double) -> [[String: String]] {
            stride(from: 0.0, through: 10_000, by: 500).map { done in
                [
                    "run_id": run, "strategy": strategy, "config": "", "rows_done": String(Int(done)),
                    "rss_bytes": "30000000", "heap_bytes": String(Int(heap(done))),
                ]
            }
        }
        let flat = samples("r1", "context-reset") { _ in 3_000_000 }
        let growing = samples("r2", "context-noreset") { 2_000_000 + $0 * 1_500 }
        let both = try chart("memory", ChartData(rows: [], timeline: flat + growing))
        #expect(
            both.variables["headline"]?.hasPrefix("context-noreset grows with every row") == true, "\(both.variables)")
        let none = try chart("memory", ChartData(rows: [], timeline: flat))
        #expect(none.variables["headline"]?.hasPrefix("no line grows with the rows") == true)
        var rows: [ResultRow] = []
        for writers in ["1", "4"] {
            rows += LikeForLikeTests.rows("one-writer", 2, parameters: ["writers": writers], rate: { _ in 50_000 })
            rows += LikeForLikeTests.rows(
                "many-writers", 2, duplicates: writers == "4" ? 40 : 0, parameters: ["writers": writers],
                rate: { _ in 60_000 })
        }
        let writers = try chart(
            "writers",
            ChartData(
                rows: rows, writerStrategies: ["one-writer", "many-writers"],
                options: LikeForLikeTests.options))
        #expect(
            writers.variables["headline"]
                == "one-writer kept duplicates at 0 at every writer count; duplicates: many-writers up to 40",
            "\(writers.variables)")
        #expect(writers.series.contains("many-writers — bug"), "\(writers.series)")
    }
}

/// Issue 44, item 3: the memory chart names each line at its end, the names pushed apart.
@Suite struct MemoryLabelTests {
    @Test func labelsThatWouldOverlapArePushedApartInOrder() {
        // Eleven lines ending between 33.0 and 33.5 MB on a panel spanning 30 … 46 MB.
        let ends = (0..<11).map { 33.0 + Double($0 % 6) * 0.1 }
        let placed = ChartData.spread(ends, span: 16)
        let sorted = placed.sorted()
        #expect(zip(sorted, sorted.dropFirst()).allSatisfy { $1 - $0 >= 16 * 0.035 - 1e-9 })
        #expect(placed.min() == ends.min(), "the lowest stays where its line ends")
        #expect(ChartData.spread([10, 20], span: 16) == [10, 20], "labels already apart stay")
    }

    /// A line is named where it reached its last record: after the teardown every heap line
    /// drops near zero, and names placed there could not tell the lines apart.
    @Test func aLineIsNamedWhereItReachedItsLastRecord() throws {
        func run(_ id: String, _ strategy: String, heap: Int) -> [[String: String]] {
            [(0, 1_000_000), (1_000, heap), (2_000, heap), (2_000, 600_000)].map { done, bytes in
                [
                    "run_id": id, "strategy": strategy, "config": "", "rows_done": String(done),
                    "rss_bytes": "30000000", "heap_bytes": String(bytes),
                ]
            }
        }
        let memory = ChartData(
            rows: [], timeline: run("r1", "fetch-update", heap: 4_000_000) + run("r2", "batch-update", heap: 7_000_000)
        )
        .charts.first { $0.name == "memory" }
        let data = try #require(memory?.data)
        let heapLabels = data.components(separatedBy: "# label_x label_y name\n").last ?? ""
        #expect(
            heapLabels.contains("2000 4 \"fetch-update\"") && heapLabels.contains("2000 7 \"batch-update\""),
            "\(heapLabels)")
    }
}
