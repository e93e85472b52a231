import Foundation
import ObjectGraph
import Report
import Testing
import Workload

@testable import Strategies

/// The parameter table: one declaration per parameter, from parsing to the CSV.
@Suite struct ConfigurationTests {
    /// Every column the table fills is a column of the results file, and every parameter
    /// column of the results file is filled by the table (or derived from it).
    /// A screen's cell gives its option back (a reproduce or bisect line keeps the screen), and a
    /// batch request's result type and the repeats' update rate are parameters like any other.
    @Test func theScreenAndTheResultReadBackFromTheirCells() {
        let screen = RunParameter.named("--view-context")!
        #expect(screen.words(forCell: "yes") == ["--view-context"])
        #expect(screen.words(forCell: "list:100") == ["--view-context", "list:100"])
        #expect(screen.words(forCell: "controller:5") == ["--view-context", "controller:5"])
        #expect(RunParameter.named("--result")!.words(forCell: "ids") == ["--result", "ids"])
        #expect(RunParameter.named("--update-rate")!.words(forCell: "0.2500") == ["--update-rate", "0.2500"])
        var c = RunConfiguration()
        #expect(throws: RunParameterError.self) { try screen.set("list:0", in: &c) }
        #expect(throws: RunParameterError.self) { try screen.set("grid:5", in: &c) }
    }

    @Test func theTableAndTheResultsFileAgree() {
        let header = Set(ResultRow.header)
        let declared = RunParameter.all.flatMap(\.columns)
        #expect(Set(declared).count == declared.count)
        for column in declared { #expect(header.contains(column.name), "\(column)") }
        let fields = RunConfiguration().csvFields
        for column in fields.keys { #expect(header.contains(column), "\(column)") }
        #expect(Set(RunParameter.all.map(\.flag)).count == RunParameter.all.count)
    }

    /// The other direction: every parameter column of the results file is a column of the table
    /// (or one the table derives), so a column cannot be added to the file without its parameter.
    @Test func everyParameterColumnHasItsParameter() {
        let declared = Set(RunParameter.all.flatMap(\.columns).map(\.name)).union(RunConfiguration().csvFields.keys)
        for column in ResultRow.parameterColumns { #expect(declared.contains(column.name), "\(column)") }
    }

    /// The default `--help` shows is the configuration's: a default that is a value (not a
    /// description such as "per strategy, see 'loadgen list'") parses back to it.
    @Test func theDefaultsHelpShowsAreTheRealOnes() throws {
        var plain = RunConfiguration()
        plain.clearUnused()
        for p in RunParameter.all where !p.defaultText.contains(" ") {
            var c = RunConfiguration()
            try p.set(p.defaultText, in: &c)
            c.clearUnused()   // --fraction's 0.1 is the default of the operations that use it
            #expect(c == plain, "\(p.flag) shows \(p.defaultText) as its default")
        }
    }

    /// The side facts are the parameters' own: which say what the records are, which name a
    /// model's roles, which mean nothing on a filled store.
    @Test func eachParameterSaysWhereItApplies() {
        #expect(
            RunParameter.workloadFlags.isSuperset(of: [
                "--rows", "--dup-rate", "--model", "--entity", "--string-length",
            ]))
        #expect(
            !RunParameter.workloadFlags.contains("--batch-size") && !RunParameter.workloadFlags.contains("--writers"))
        #expect(
            RunParameter.modelFlags == ["--model", "--entity", "--key", "--relationship", "--map", "--many-to-many"])
        #expect(
            Set(RunParameter.all.filter(\.scope.needsModel).map(\.flag))
                == [
                    "--entity", "--key", "--relationship", "--parents", "--string-length", "--attribute-bytes", "--map",
                    "--many-to-many",
                    "--members",
                ])
        #expect(
            Set(RunParameter.all.filter { !$0.onFilledStore }.map(\.flag))
                == [
                    "--dup-rate", "--update-rate", "--key-dist", "--zipf-s", "--key-order", "--writers",
                    "--producer-latency",
                    "--coordinators", "--rate",
                ])
    }

    @Test func aConfigurationRendersAsTheCSVShowsIt() throws {
        var c = RunConfiguration()
        for (flag, value) in [
            ("--strategy", "many-writers"), ("--rows", "10k"), ("--dup-rate", "0.25"),
            ("--key-dist", "zipf"), ("--zipf-s", "1.5"), ("--batch-size", "250"), ("--writers", "4"),
            ("--coordinators", "per-writer"), ("--rate", "5000"),
        ] {
            try RunParameter.named(flag)!.set(value, in: &c)
        }
        let f = c.csvFields
        #expect(f["strategy"] == "many-writers" && f["rows"] == "10000" && f["unique_keys"] == "7500")
        #expect(f["dup_rate"] == "0.2500" && f["key_dist"] == "zipf" && f["zipf_s"] == "1.500")
        #expect(
            f["batch_size"] == "250" && f["writers"] == "4" && f["coordinators"] == "per-writer"
                && f["rate"] == "5000.0")
        #expect(
            f["store"] == "file" && f["journal"] == "wal" && f["synchronous"] == "normal" && f["categories"] == "50")
        #expect(f["albums"] == "" && f["payload_bytes"] == "")
    }

    /// What a strategy does not use is cleared, so points differing only there are one.
    /// Parameters stay typed from the flag to the CSV and back (issue 31, item 2): a results row's
    /// parameter columns give the `run` options that make its configuration again (what a bisect
    /// line runs), and those options, parsed as the command line is, make the same configuration.
    @Test(arguments: [
        [("--strategy", "many-writers"), ("--writers", "4"), ("--dup-rate", "0.2"), ("--batch-size", "500")],
        [
            ("--strategy", "batch"), ("--key-dist", "zipf"), ("--zipf-s", "1.3"), ("--key-order", "random"),
            ("--cache-size", "-4000"),
        ],
        [
            ("--strategy", "context-reset"), ("--view-context", "on"), ("--history", "on"), ("--synchronous", "full"),
            ("--journal", "delete"),
        ],
        [("--strategy", "batch-update"), ("--operation", "update"), ("--fraction", "0.25"), ("--rows", "20k")],
        [
            ("--strategy", "batch"), ("--rate", "5000"), ("--dataset", "photos"), ("--albums", "7"),
            ("--payload-bytes", "128"),
        ],
        [
            ("--strategy", "batch"), ("--model", "App.xcdatamodeld"), ("--entity", "Version"), ("--key", "app,number"),
            ("--relationship", "app.id"), ("--parents", "9"), ("--string-length", "4-12"),
        ],
        [("--strategy", "batch"), ("--store", "memory")],
    ])
    func aRowsColumnsGiveTheOptionsThatMakeItAgain(_ options: [(String, String)]) throws {
        func configuration(_ options: [(String, String)]) throws -> RunConfiguration {
            var c = RunConfiguration()
            for (flag, value) in options {
                if flag == "--store" {
                    c.keepStoreInMemory()
                    continue
                }
                try #require(RunParameter.named(flag)).set(value, in: &c)
            }
            c.clearUnused()
            return c
        }
        let asked = try configuration(options)
        let words = RunConfiguration.arguments(fromCSV: asked.csvFields)
        var pairs: [(String, String)] = []
        var i = 0
        while i < words.count {
            let implied = RunParameter.named(words[i])?.impliedValue
            if let implied {
                pairs.append((words[i], implied))
                i += 1
            } else {
                pairs.append((words[i], words[i + 1]))
                i += 2
            }
        }
        let again = try configuration(pairs)
        // The configurations themselves: a column can render two values alike (`a+b` as one
        // attribute's name or as two). The row records the strategy's batch size when none was asked.
        var expected = asked
        expected.batchSize =
            expected.batchSize ?? again.batchSize.flatMap { _ in asked.writeStrategy?.defaultBatchSize }
        #expect(again == expected && again.csvFields == asked.csvFields, "\(words)")
    }

    @Test func unusedParametersAreCleared() throws {
        var batch = RunConfiguration()
        try RunParameter.named("--writers")!.set("8", in: &batch)
        try RunParameter.named("--coordinators")!.set("per-writer", in: &batch)
        batch.clearUnused()
        #expect(batch.writers == nil && batch.coordinators == nil)
        #expect(batch.csvFields["batch_size"] == "5000")   // its default, shown

        var raw = RunConfiguration()
        raw.strategy = "raw-sqlite"
        try RunParameter.named("--batch-size")!.set("100", in: &raw)
        raw.clearUnused()
        #expect(raw.batchSize == nil && raw.csvFields["batch_size"] == "")

        var oneWriter = RunConfiguration()
        oneWriter.strategy = "one-writer"
        try RunParameter.named("--coordinators")!.set("per-writer", in: &oneWriter)
        try RunParameter.named("--writers")!.set("4", in: &oneWriter)
        oneWriter.clearUnused()
        #expect(oneWriter.coordinators == nil && oneWriter.writers == 4)
    }

    @Test func badValuesSayWhatIsAccepted() {
        var c = RunConfiguration()
        #expect(throws: RunParameterError.self) { try RunParameter.named("--rows")!.set("0", in: &c) }
        // #expect(throws:) fails when nothing is thrown: a wrongly accepted value is caught.
        let journal = #expect(throws: RunParameterError.self) {
            try RunParameter.named("--journal")!.set("truncate", in: &c)
        }
        #expect(journal?.accepted == "one of wal|delete")
        let rows = #expect(throws: RunParameterError.self) { try RunParameter.named("--rows")!.set("1x", in: &c) }
        #expect(rows?.accepted == "a whole number from 1 to 1000000000")
    }

    /// The job a strategy gets reads the configuration it was given.
    @Test func theJobReadsTheConfiguration() throws {
        var c = RunConfiguration()
        try RunParameter.named("--batch-size")!.set("123", in: &c)
        try RunParameter.named("--writers")!.set("3", in: &c)
        let job = StrategyJob(configuration: c, store: StoreOptions(path: ":memory:"))
        #expect(job.batchSize == 123 && job.writers == 3 && job.coordinators == .shared && job.rate == nil)
        #expect(job.batchSize(for: ContextResetStrategy()) == 123)
    }
}
