/// One chart: the files it writes, its title, its x axis and the figures it draws, each a `.dat`
/// column. `ChartDeclaration.all` is the one list: each chart's `.dat` header and each point's
/// values derive from its columns, and results/README.md's "charts" column from their figures,
/// so that which charts use a figure is declared once and cannot drift from what they draw.
package struct ChartDeclaration: Sendable {
    /// What a chart's x axis is: a parameter the configurations vary, or what the chart lays
    /// out itself (bars by label, a timeline's rows done, the nights of the trend).
    package enum Axis: Sendable {
        case parameter(Column)
        case laidOut(String)

        /// Its name in the `.dat` header.
        package var name: String {
            switch self {
            case .parameter(let column): column.name
            case .laidOut(let name): name
            }
        }
    }

    /// Where the chart's points come from.
    package enum Source: Sendable, Equatable {
        /// The results file's rows, a point per configuration.
        case results
        /// A `--timeline` file's samples (`TimelineWriter`), not results figures.
        case timeline
        /// The nightly history against its baseline.
        case history
    }

    /// The chart's file name (without `.png`), or the stem of one per operation.
    package let name: String
    package let title: String
    /// The x axis: a parameter column for a line chart, else what the chart lays out.
    package let axis: Axis
    /// The `.dat` columns after the axis, in order: `plots.gnuplot` reads them by position.
    package let columns: [ChartColumn]
    package let source: Source
    /// True when the chart is drawn once per operation (an import's rate and a read's are
    /// different quantities and never share an axis).
    package let perOperation: Bool

    init(
        _ name: String, _ title: String, axis: Axis, _ columns: [ChartColumn], source: Source = .results,
        perOperation: Bool = false
    ) {
        self.name = name
        self.title = title
        self.axis = axis
        self.columns = columns
        self.source = source
        self.perOperation = perOperation
    }

    /// The results figures it draws, each once, in column order.
    package var figures: [Column] { columns.map(\.figure).uniqued() }

    /// Its file names: one, or one per operation (the import's keeps the plain name).
    package var names: [String] {
        perOperation ? Self.operations.map { $0 == "import" ? name : name + "_" + $0 } : [name]
    }

    /// The file name of its chart for `operation`.
    package func name(for operation: String) -> String { operation == "import" ? name : name + "_" + operation }

    /// The `.dat` header: the axis, then each column's name.
    package var header: String { "# " + ([axis.name] + columns.map(\.header)).joined(separator: " ") }

    /// The operations a per-operation chart is drawn for, in order.
    package static let operations = ["import", "update", "delete", "read"]

    /// A declared chart by name (a programming error when absent: the list is this file's).
    static func named(_ name: String) -> ChartDeclaration {
        guard let chart = all.first(where: { $0.name == name }) else {
            preconditionFailure("no chart is declared as \(name)")
        }
        return chart
    }

    // MARK: The charts

    /// Every chart `plot` draws, in the order the review page shows them.
    package static let all: [ChartDeclaration] = [
        ChartDeclaration(
            "throughput", "Throughput", axis: .laidOut("y label"),
            [.init(.rowsPerS, .median), .init(.rowsPerS, .low), .init(.rowsPerS, .high)], perOperation: true),
        ChartDeclaration(
            "scaling", "Scaling", axis: .parameter(.rows),
            [.init(.wallS, .median), .init(.wallS, .min), .init(.wallS, .max), .init(.rowsPerS, .median)]),
        ChartDeclaration(
            "batchsize", "Batch size", axis: .parameter(.batchSize),
            [
                .init(.rowsPerS, .median), .init(.rowsPerS, .low), .init(.rowsPerS, .high),
                .init(.peakRssBytes, .median, scale: .megabytes),
            ], perOperation: true),
        ChartDeclaration("memory", "Memory over rows", axis: .laidOut("rows_done"), [], source: .timeline),
        ChartDeclaration(
            // not a results column: the chart named writers
            "writers", "Writers", axis: .parameter(.writers),
            [
                .init(.duplicates, .median), .init(.duplicates, .min), .init(.duplicates, .max),
                .init(.conflicts, .median, absent: 0), .init(.conflicts, .min, absent: 0),
                .init(.conflicts, .max, absent: 0),
            ]),
        ChartDeclaration(
            "sqlperrow", "SQL per row", axis: .parameter(.rows),
            [.init(.sqlStatements, .median, scale: .perRecord), .init(.sqlSelects, .median, scale: .perRecord)]),
        ChartDeclaration(
            "latency", "Open-loop latency", axis: .parameter(.rate),
            [
                .init(.latencyP50Ms, .median), .init(.latencyP99Ms, .median, absent: .nan),
                .init(.latencyMaxMs, .median, absent: .nan),
            ]),
        ChartDeclaration(
            "reads", "Reads against rows", axis: .parameter(.rows),
            [.init(.peakHeapBytes, .median, scale: .perRow), .init(.rowsPerS, .median)]),
        ChartDeclaration(
            "trend", "Nightly trend", axis: .laidOut("run_start_epoch"),
            [
                .init(.vsLimit, .median, scale: .thresholdsFromBaseline),
                .init(.allocations, .median, scale: .perRecordToBaseline),
            ], source: .history),
    ]
}

/// One `.dat` column: a statistic of a results figure over a configuration's repetitions that
/// were ok, read through the figure's own `ResultColumn.number`.
package struct ChartColumn: Sendable {
    /// Which statistic of the repetitions.
    package enum Statistic: String, Sendable {
        case median, min, max
        /// The median's 95 % interval, or the range when there are too few repetitions for one.
        case low, high
    }

    /// What each repetition's value is divided by (or how it is drawn) before the statistic.
    package enum Scale: Sendable {
        case asMeasured
        /// Bytes drawn as megabytes.
        case megabytes
        /// Per row the run asked for (`rows`): what a list of that size costs.
        case perRow
        /// Per record the repetition did (`rows_done`): statements per record.
        case perRecord
        /// The trend's: the change against the baseline in units of the gate's threshold.
        case thresholdsFromBaseline
        /// The trend's: per record, as a share of the baseline's.
        case perRecordToBaseline
    }

    package let figure: Column
    package let statistic: Statistic
    package let scale: Scale
    /// Written when the repetitions have no value; nil: the point is not drawn without it.
    package let absent: Double?

    init(_ figure: Column, _ statistic: Statistic, scale: Scale = .asMeasured, absent: Double? = nil) {
        self.figure = figure
        self.statistic = statistic
        self.scale = scale
        self.absent = absent
    }

    /// Its name in the `.dat` header, as the summary CSV names a statistic (`wall_s_median`).
    package var header: String {
        let base: String
        switch scale {
        case .asMeasured: base = figure.name
        case .megabytes: base = figure.name.replacingOccurrences(of: "_bytes", with: "_mb")
        case .perRow: base = figure.name + "_per_row"
        case .perRecord: base = figure.name + "_per_record"
        case .thresholdsFromBaseline: base = figure.name + "_change_in_thresholds"
        case .perRecordToBaseline: base = figure.name + "_per_record_to_baseline"
        }
        return base + "_" + statistic.rawValue
    }

    /// The column's value for configuration `c`, nil when a value it needs is absent (then
    /// `absent`, when declared).
    func value(of c: RunSummary.Configuration) -> Double? { Self.values([self], of: c)[0] }

    /// The values of `columns` for configuration `c`: each figure's statistics computed once, and
    /// its interval (a bootstrap of 2,000 resamples) once, however many columns read them.
    static func values(_ columns: [ChartColumn], of c: RunSummary.Configuration) -> [Double?] {
        var statistics: [String: Statistics?] = [:]
        var intervals: [String: ClosedRange<Double>] = [:]
        return columns.map { column in
            let key = column.figure.name + "/" + String(describing: column.scale)
            if statistics[key] == nil { statistics[key] = column.statistics(of: c) }
            guard let s = statistics[key] ?? nil else { return column.absent }
            switch column.statistic {
            case .median: return s.median
            case .min: return s.min
            case .max: return s.max
            case .low, .high:
                let interval = intervals[key] ?? s.medianInterval ?? s.min...s.max
                intervals[key] = interval
                return column.statistic == .low ? interval.lowerBound : interval.upperBound
            }
        }
    }

    /// The figure's values over `c`'s repetitions that were ok, scaled; nil without any. Only
    /// for the scales a configuration's rows give (the trend computes its own).
    private func statistics(of c: RunSummary.Configuration) -> Statistics? {
        guard let number = ResultRow.column(figure).number else { return nil }
        return Statistics(
            c.ok.compactMap { row -> Double? in
                guard let v = number(row) else { return nil }
                switch scale {
                case .asMeasured, .thresholdsFromBaseline, .perRecordToBaseline: return v
                case .megabytes: return v / 1e6
                case .perRow: return c.parameters.rows > 0 ? v / Double(c.parameters.rows) : nil
                case .perRecord: return row.measurement.rowsDone.flatMap { $0 > 0 ? v / Double($0) : nil }
                }
            })
    }
}

extension ResultRow {
    /// The results column of `key`, with its rules.
    package static func column(_ key: Column) -> ResultColumn { columns[index(of: key)] }
}
