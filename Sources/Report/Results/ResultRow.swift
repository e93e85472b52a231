/// One CSV row: a measured repetition with its identity and parameters.
///
/// `columns` is the file format. Its order is the brief's (§6); columns added later are
/// appended at the end, never inserted, so that readers by position keep working.
package struct ResultRow: Sendable {
    package var identity: RunIdentity
    package var parameters: ParameterValues
    /// 1-based index of this repetition, and how many were measured.
    package var repetition: Int
    package var repetitions: Int
    /// The swept parameters this row's strategy uses, as `name=value` pairs ("" without a sweep):
    /// which point of the sweep it measures.
    package var configuration: String
    /// What was measured, kept in a shared box (`CopyOnWrite`): a summary holds each row
    /// again per configuration, and at 950 bytes inline a 100 MB results file's rows were copied
    /// whole, twice (report took 560 MB and spent an eighth of its time in memmove).
    package var measurement: RunMeasurement {
        _read { yield storage.value }
        _modify { yield &storage.value }
    }
    private var storage: CopyOnWrite<RunMeasurement>
    /// rows_per_s ÷ the limit's rows_per_s, measured in the same round on the same records.
    package var vsLimit: Double?
    /// `--repeat auto` (its rows have `repetitions` 0): on the row a configuration left the race
    /// with, why; on the last round's rows, why the run stopped; nil otherwise.
    package var stop: String?

    /// Whether the row is of a run whose repetitions stopped when the answer was settled.
    package var isAutoRepeat: Bool { repetitions == 0 }

    package init(
        identity: RunIdentity, parameters: ParameterValues, repetition: Int = 1, repetitions: Int = 1,
        configuration: String = "", measurement: RunMeasurement, vsLimit: Double? = nil
    ) {
        self.identity = identity
        self.parameters = parameters
        self.repetition = repetition
        self.repetitions = repetitions
        self.configuration = configuration
        self.storage = CopyOnWrite(measurement)
        self.vsLimit = vsLimit
    }

    /// Every column, in file order, with how it is written and read back.
    package static let columns: [ResultColumn] = [
        // Identity
        .row(.runID, \.identity.runID),
        .row(.startedAt, \.identity.startedAt),
        .row(.gitRev, \.identity.system.gitRevision),
        .row(.host, \.identity.system.host),
        .row(.cpuModel, \.identity.system.cpuModel),
        .row(.cores, \.identity.system.cores),
        .row(.os, \.identity.system.os),
        .row(.swiftVersion, \.identity.system.swiftVersion),
        .row(.sqliteVersion, \.identity.system.sqliteVersion),
        .row(.allocator, \.identity.system.allocator),
        // Parameters
        .parameter(.strategy, text: true, domain: .name),
        .parameter(.dataset, text: true),
        .parameter(.rows),
        // The distinct keys the records hold: rows and the duplicate rate's, never a choice.
        .parameter(.uniqueKeys).following(),
        .parameter(.dupRate, maximum: 1),
        .parameter(.keyDist, text: true),
        .parameter(.seed),
        .parameter(.batchSize),
        .parameter(.writers),
        .parameter(.producerLatencyUs),
        .parameter(.store, text: true),
        .parameter(.journal, text: true),
        .parameter(.synchronous, text: true),
        .row(.`repeat`, \.repetition),
        .row(.repeats, \.repetitions),
        // Measured
        .row(.status, \.measurement.status).judged(.correctness),
        .measured(.wallS, \.wallSeconds, decimals: 6).tracked("s", better: .lower)
            .summarized(.statistics([.median, .mad, .min, .max, .ciLow, .ciHigh], decimals: 6)),
        .measured(.cpuUserS, \.cpuUserSeconds, decimals: 6),
        .measured(.cpuSysS, \.cpuSystemSeconds, decimals: 6),
        .derived(.rowsPerS, domain: .measured, number: { $0.measurement.rowsPerSecond }) {
            $0.measurement.rowsPerSecond?.cell(decimals: 1) ?? ""
        }.tracked("rows/s", better: .higher)
            .summarized(.statistics([.median, .mean, .sd, .mad, .min, .max, .ciLow, .ciHigh, .outliers], decimals: 1))
            .tabled(
                TableCell("rows/s", .median, markdownTitle: "median rows/s", format: TableCell.whole),
                TableCell("95% CI", .interval, markdownOnly: true, format: TableCell.whole),
                TableCell("± MAD", .mad, format: TableCell.whole)),
        // Above 1000 a ratio to SQLite alone is no measurement: refused when read.
        .row(.vsLimit, \.vsLimit, decimals: 4, maximum: 1000).judged(.noisy(higherIsBetter: true, threshold: .speed))
            .tracked("ratio", better: .higher).summarized(.statistics([.median, .ciLow, .ciHigh], decimals: 4))
            .tabled(TableCell("vs_limit", .median) { String(format: "%.3f", $0) }),
        .measured(.peakRssBytes, \.peakRSSBytes).judged(.noisy(higherIsBetter: false, threshold: .memory))
            .tracked("bytes", better: .lower).summarized(.statistics([.median, .max], decimals: 0))
            .tabled(TableCell("peak RSS", .median, format: TableCell.bytes)),
        .measured(.endRssBytes, \.endRSSBytes),
        .measured(.peakHeapBytes, \.peakHeapBytes).tracked("bytes", better: .lower).summarized(
            .statistics([.max], decimals: 0)),
        .derived(.sqlStatements, domain: .count, number: { $0.measurement.sql.map { Double($0.total) } }) {
            $0.measurement.sql.map { String($0.total) } ?? ""
        }.judged(.exact)
            .tracked("statements", better: .lower).summarized(.last),
        .sql(.sqlSelects, \.select).judged(.exact).tracked("statements", better: .lower).summarized(.last),
        .strategy(.saves, \.saves).judged(.exact).summarized(.last),
        .sql(.transactions, \.commits).judged(.exact).summarized(.last),
        .strategy(.busyRetries, \.busyRetries).summarized(.last)
            .tabled(TableCell("busy retries", .last, occasional: true, format: TableCell.count)),
        .strategy(.conflicts, \.conflicts).summarized(.last)
            .tabled(TableCell("conflicts", .last, occasional: true, format: TableCell.count)),
        .strategy(.saveP50Ms, \.saveP50Milliseconds, decimals: 3),
        .strategy(.saveP99Ms, \.saveP99Milliseconds, decimals: 3),
        .verified(.storeRows, \.storeRows).judged(.exact),
        .verified(.duplicates, \.duplicates).judged(.exact).tracked("rows", better: .lower).summarized(.last)
            // The worst repetition's, as the verdict counts them (issue 44, item 8: the text said
            // 1,904 duplicates and the table, the last repetition's, 1,870).
            .tabled(TableCell("duplicates", .max, format: TableCell.count)),
        .verified(.lost, \.lost).judged(.correctness).tracked("rows", better: .lower).summarized(.last)
            .tabled(TableCell("lost", .max, format: TableCell.count)),
        .verified(.integrity, \.integrity).judged(.correctness).summarized(.last),
        .verified(.storeBytes, \.storeBytes),
        .measured(.error, \.error),
        // Appended after the brief's list
        .measured(.endHeapBytes, \.endHeapBytes),
        .verified(.badLinks, \.badLinks).judged(.correctness).tracked("rows", better: .lower).summarized(.last),
        .parameter(.coordinators, text: true),
        .parameter(.zipfS),
        .parameter(.input, text: true),
        .parameter(.rate),
        .strategy(.latencyP50Ms, \.latencyP50Milliseconds, decimals: 3).summarized(.median(decimals: 3)),
        .strategy(.latencyP99Ms, \.latencyP99Milliseconds, decimals: 3).summarized(.median(decimals: 3)),
        .strategy(.latencyMaxMs, \.latencyMaxMilliseconds, decimals: 3).summarized(.median(decimals: 3)),
        .strategy(.mergeMsTotal, \.mergeMillisecondsTotal, decimals: 3),
        .strategy(.viewObjects, \.viewObjects),
        .parameter(.keyOrder, text: true),
        .verified(.viewMissing, \.viewMissing).tabled(
            TableCell("screen misses", .max, occasional: true, format: TableCell.count)),
        // An open-loop writer's or a history consumer's verdict on keeping up (issue 54, item 8).
        .strategy(.keptUp, \.keptUp).summarized(.last),
        .verified(.unexpectedRows, \.unexpectedRows).judged(.correctness),
        .measured(.leakedConnections, \.leakedConnections).judged(.correctness),
        .strategy(.backlogMax, \.peakBacklog).tracked("records", better: .lower).summarized(
            .statistics([.max], decimals: 0)
        )
        .tabled(TableCell("backlog", .max, occasional: true, format: TableCell.count)),
        .parameter(.categories),
        .parameter(.albums),
        .parameter(.payloadBytes),
        .parameter(.viewContext, text: true),
        .row(.config, \.configuration),
        .measured(.allocations, \.allocations).judged(.nearExactOnOneMachine).tracked("allocations", better: .lower),
        .measured(.allocatedBytesTotal, \.allocatedBytesTotal).judged(.nearExactOnOneMachine),
        .sql(.sqlInserts, \.insert).judged(.exact),
        .sql(.sqlUpdates, \.update).judged(.exact),
        .sql(.sqlDeletes, \.delete).judged(.exact),
        .sql(.sqlVmSteps, \.vmSteps).judged(.nearExact),
        .measured(.instructions, \.instructions).judged(.nearExactOnOneMachine).tracked(
            "instructions", better: .lower),
        .measured(.instructionsBy, \.instructionsCountedBy),
        .parameter(.operation, text: true),
        .parameter(.fraction, maximum: 1),
        .measured(.prefillS, \.prefillSeconds, decimals: 6),
        .measured(.targets, \.targets),
        .strategy(.objectsRead, \.objectsRead),
        .parameter(.history, text: true),
        .verified(.historyChanges, \.historyChanges),
        .strategy(.historyLagP50Ms, \.historyLagP50Milliseconds, decimals: 3),
        .strategy(.historyLagP99Ms, \.historyLagP99Milliseconds, decimals: 3),
        .strategy(.autoMergeMissed, \.autoMergeMissed),
        .row(.command, \.identity.command).holding(.line),
        .strategy(.saveRetries, \.saveRetries).judged(.exact),
        .parameter(.model, text: true),
        .parameter(.entity, text: true),
        .parameter(.key, text: true),
        .parameter(.relationship, text: true),
        .parameter(.parents),
        .parameter(.stringLength, text: true),
        .sql(.sqlRows, \.rows).judged(.exact).tracked("rows", better: .lower),
        .strategy(.peakObjects, \.peakRegisteredObjects),
        // Pragmas (RunParameter.pragma): the value as given, negative ones too.
        .parameter(.cacheSize, text: true),
        .parameter(.attributeBytes, text: true),
        .parameter(.map, text: true),
        .parameter(.addConstraint, text: true),
        .parameter(.addIndex, text: true),
        .parameter(.result, text: true),
        .parameter(.updateRate),
        .parameter(.manyToMany, text: true),
        .parameter(.members),
        // Issue 44, item 5: related objects duplicated (two albums of one name).
        .verified(.parentDuplicates, \.parentDuplicates).judged(.exact),
        // The object layer (issue 43): managed objects the window's contexts handled.
        .objects(.objectsInserted, \.inserted),
        .objects(.objectsFetched, \.fetched),
        .objects(.objectsFaulted, \.faulted),
        .objects(.objectsSnapshotted, \.snapshotted),
        .objects(.objectsValidated, \.validated),
        .objects(.objectsNotified, \.notified),
        .objects(.objectsMerged, \.merged),
        // Issue 54, item 4: rows of a repeated key holding an older copy's values (a lost update).
        .verified(.stale, \.stale).judged(.exact).summarized(.last)
            .tabled(TableCell("stale", .max, occasional: true, format: TableCell.count)),
        // Issue 55, item 11: the checks' own cost, their work repeating from run to run.
        .measured(.verifyS, \.verifySeconds, decimals: 6),
        .verified(.verifyVmSteps, \.steps).judged(.nearExact),
        // Issue 56: why a --repeat auto run stopped, or why a configuration left its race.
        .row(.stop, \.stop),
    ]

    /// Columns that hold text, whatever they look like (a git revision may be all digits): the
    /// others are numbers or blank, and `--json` writes them as numbers or null.
    package static let textColumns: Set<String> = Set(columns.filter(\.isText).map(\.name))

    /// The columns that say what was asked for (the parameters), in file order: a configuration
    /// is one value of each. Charts, summaries and the nightly comparison group rows by them.
    package static let parameterColumns: [Column] = columns.filter(\.isParameter).map(\.column)

    /// The header line's fields.
    package static var header: [String] { columns.map(\.name) }

    /// This row's fields, in column order.
    package var fields: [String] { Self.columns.map { $0.write(self) } }
}

// MARK: - Cells the file spells its own way

extension RunStatus: ResultCell {
    package var numeric: Double? { nil }
    package static var isText: Bool { true }
    package static var domain: CellDomain { .status }
    package init?(cell: String) { self.init(rawValue: cell) }
    package func cell(decimals: Int) -> String { rawValue }
}

extension StrategyCounters {
    /// `kept_up`: "yes" or "no", the file's way of saying whether an open-loop run fell behind.
    fileprivate var keptUp: String? {
        get { fellBehind.map { $0 ? "no" : "yes" } }
        set { fellBehind = newValue.map { $0 == "no" } }
    }
}
