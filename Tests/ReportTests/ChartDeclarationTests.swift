import Foundation
import Testing

@testable import Report

/// Which charts draw a figure is declared once, on the chart (issue 31, item 1): the `.dat`
/// columns derive from the declaration, so a chart cannot draw a figure it does not declare.
@Suite struct ChartDeclarationTests {
    /// Every declared figure is a results column that reads as a number: a misspelt name fails
    /// here, not as a chart that silently draws nothing.
    @Test func everyDeclaredFigureIsANumericResultsColumn() {
        for chart in ChartDeclaration.all where chart.source == .results {
            #expect(!chart.columns.isEmpty, "\(chart.name) draws results figures: it declares them")
            for figure in chart.figures {
                #expect(
                    ResultRow.column(figure).number != nil,
                    "\(chart.name) draws \(figure), which is no numeric results column")
            }
        }
    }

    /// The charts `ChartData` makes are the declared ones, in their order, one per operation where declared.
    @Test func chartDataMakesTheDeclaredCharts() {
        let made = ChartData(rows: []).charts.map(\.name)
        #expect(made == ChartDeclaration.all.flatMap(\.names))
    }

    /// A drawn chart's `.dat` header is its declaration's, and each point has a value per
    /// declared column (the throughput bars add their label and whether they stand apart).
    @Test func aDrawnChartsColumnsAreItsDeclaration() throws {
        var rows: [ResultRow] = []
        for size in ["1000", "2000"] {
            rows += LikeForLikeTests.rows("batch", 3, parameters: ["rows": size], rate: { _ in 50_000 })
        }
        let data = ChartData(rows: rows)
        for name in ["scaling", "throughput"] {
            let chart = try #require(data.charts.first { $0.name == name })
            let declaration = ChartDeclaration.named(name)
            let lines = try #require(chart.data).split(separator: "\n")
            #expect(lines[0].hasPrefix(declaration.header), "\(lines[0])")
            let point = try #require(lines.dropFirst().first { !$0.hasPrefix("#") })
            let extra = name == "throughput" ? 2 : 0   // the label (one quoted field) and `apart`
            let fields =
                point.split(separator: "\"").count == 3
                ? point.split(separator: "\"")[2].split(separator: " ").count + 2
                : point.split(separator: " ").count
            #expect(fields == 1 + declaration.columns.count + extra, "\(point)")
        }
        #expect(
            data.charts.first { $0.name == "scaling" }?.data?.hasPrefix(
                "# rows wall_s_median wall_s_min wall_s_max rows_per_s_median\n") == true)
    }

    /// results/README.md's table says which charts draw a figure, from the declarations.
    @Test func theColumnTableNamesEachFiguresCharts() {
        let table = ColumnTable.markdown()
        let rate = table.split(separator: "\n").first { $0.hasPrefix("| `rows_per_s` |") } ?? ""
        #expect(rate.hasSuffix("| `throughput*`, `scaling`, `batchsize*`, `reads` |"), "\(rate)")
        let duplicates = table.split(separator: "\n").first { $0.hasPrefix("| `duplicates` |") } ?? ""
        #expect(duplicates.hasSuffix("| `writers` |"), "\(duplicates)")
    }
}

extension ChartDeclarationTests {
    /// Where the **Charts.** paragraph lives (the README's, before issue 57 moved it).
    static let chartsDoc = "docs/READING-RESULTS.md"

    /// The docs' paragraph on charts names every declared chart (its title, in lower case
    /// but for SQL), so that a chart added is a chart the docs mention.
    @Test func theReadmeNamesEveryChart() throws {
        let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../" + Self.chartsDoc
        ).standardizedFileURL
        let text = try String(contentsOf: doc, encoding: .utf8)
        let start = try #require(text.range(of: "**Charts.**"))
        let paragraph = String(text[start.upperBound...].split(separator: "\n\n", maxSplits: 1)[0])
            .replacingOccurrences(of: "\n", with: " ").lowercased()
        for chart in ChartDeclaration.all {
            #expect(
                paragraph.contains(chart.title.lowercased()),
                "\(Self.chartsDoc)'s **Charts.** paragraph does not name \(chart.title)")
        }
    }
}
