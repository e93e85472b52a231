import Testing
@testable import Report

/// The charts' data in-process, from rows built in code: what each chart is told to draw.
@Suite struct ChartDataTests {
    func chart(_ name: String, _ data: ChartData) throws -> ChartData.Chart {
        try #require(data.charts.first { $0.name == name })
    }

    @Test func throughputHasABarPerConfigurationWithItsScaleAndUnit() throws {
        let rows = (1...3).map { ComparisonTests.row("batch", "a-\($0)", vs: 0.5) }
            + (1...3).map { ComparisonTests.row("prefetch", "a-\($0 + 3)", vs: 0.4) }
        let throughput = try chart("throughput", ChartData(rows: rows))
        let bars = try #require(throughput.data).split(separator: "\n").dropFirst()
        #expect(bars.count == 2 && bars.first!.hasPrefix("2 \"batch\""), "\(bars)")
        #expect(throughput.variables["log"] == "0" && throughput.variables["unit"] == "records imported per second")
        #expect(throughput.variables["limitnote"]?.contains("the limit") == true)
        #expect(throughput.variables["settings"] == "1000 rows, 3 repetitions")
    }

    /// Rates more than ten times apart (a per-row save under synchronous FULL beside a batch
    /// import) are drawn on a log scale starting at the decade below the slowest bar.
    @Test func ratesTenTimesApartGetALogScale() throws {
        var rows = (1...3).map { ComparisonTests.row("batch", "a-\($0)") }   // 1000 rows in 0.01 s
        for k in 1...3 {
            var slow = ComparisonTests.row("context-save-per-row", "a-\(k + 3)")
            slow.measurement.wallSeconds = 0.4                                  // 2500 rows/s
            rows.append(slow)
        }
        let throughput = try chart("throughput", ChartData(rows: rows))
        #expect(throughput.variables["log"] == "1" && throughput.variables["start"] == "1000", "\(throughput.variables)")
    }

    @Test func aRunWithoutALimitSaysWhyAndCallgrindRowsAreLeftOut() throws {
        var rows = (1...2).map { ComparisonTests.row("batch", "a-\($0)") }
        for i in rows.indices { rows[i].vsLimit = nil; rows[i].parameters.fields["operation"] = "delete" }
        var counted = ComparisonTests.row("prefetch", "a-9")
        counted.measurement.instructionsCountedBy = "callgrind"
        let throughput = try chart("throughput", ChartData(rows: rows + [counted]))
        #expect(throughput.data?.split(separator: "\n").count == 2, "one bar: the callgrind row's time is callgrind's")
        #expect(throughput.variables["unit"] == "records deleted per second")
        #expect(throughput.variables["limitnote"] == "operations on a filled store have no limit")
    }

    @Test func theTrendIsEachNightOverTheBaselineWithMarksBelowTheBand() throws {
        let baseline = (1...5).map { ComparisonTests.row("batch", "base-\($0)", vs: 0.5) }
        let good = (1...5).map { TrendSample(ComparisonTests.row("batch", "n1-\($0)", vs: 0.5)) }
        let bad = (1...5).map { TrendSample(ComparisonTests.row("batch", "n2-\($0)", vs: 0.4)) }
        let trend = try chart("trend", ChartData(rows: baseline, history: good + bad, baseline: baseline, band: 0.075))
        let data = try #require(trend.data)
        #expect(data.contains(" 1 1\n") && data.contains(" 0.8 1\n"), "\(data)")
        #expect(data.contains("# below the band\n") && data.contains(" 0.8 \"batch\""))
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
}
