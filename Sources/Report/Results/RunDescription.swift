/// Where and with what a run was made: the identity columns of a result row.
package struct RunIdentity: Codable, Sendable {
    package var runID: String
    /// ISO 8601, UTC.
    package var startedAt: String
    /// The machine, in a box the rows of one machine share (`shareMachine(with:)`): eight texts
    /// inline were half of a row's 250 bytes, held again in every summary of a 100 MB file.
    package var system: SystemInfo {
        _read { yield machine.value }
        _modify { yield &machine.value }
    }
    private var machine: CopyOnWrite<SystemInfo>
    /// The command line of the invocation that measured it (`loadgen run --strategy batch …`),
    /// as a shell reads it: what a review page gives to measure it again.
    package var command: String

    package init(runID: String, startedAt: String, system: SystemInfo, command: String = "") {
        self.runID = runID
        self.startedAt = startedAt
        self.machine = CopyOnWrite(system)
        self.command = command
    }

    /// Holds `other`'s machine (the same one) instead of a copy of it.
    package mutating func shareMachine(with other: RunIdentity) { machine.share(other.machine) }

    // MARK: Codable, as the stored properties were

    private enum CodingKeys: String, CodingKey { case runID, startedAt, system, command }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            runID: try c.decode(String.self, forKey: .runID), startedAt: try c.decode(String.self, forKey: .startedAt),
            system: try c.decode(SystemInfo.self, forKey: .system), command: try c.decode(String.self, forKey: .command)
        )
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(runID, forKey: .runID)
        try c.encode(startedAt, forKey: .startedAt)
        try c.encode(system, forKey: .system)
        try c.encode(command, forKey: .command)
    }
}

/// What was asked for: the parameter columns of a result row, by CSV column name, rendered by
/// the parameter table that parsed them (`RunParameter` in Strategies; Report knows no strategy).
/// Blank for a parameter the row's strategy does not use.
package struct ParameterValues: Codable, Sendable, Hashable {
    package var fields: [String: String]

    package init(_ fields: [String: String]) { self.fields = fields }

    /// The values by their columns' keys.
    package init(_ values: [Column: String]) {
        fields = Dictionary(uniqueKeysWithValues: values.map { ($0.key.name, $0.value) })
    }

    /// Hashes the fields that most often tell configurations apart, not all of them: equal
    /// values still hash alike (all `Hashable` asks), and a 100 MB results file's rows are
    /// grouped by their parameters twice, where hashing some 25 pairs a row was a tenth of
    /// `report`'s reading.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(fields.count)
        for column in Self.hashed { hasher.combine(fields[column.name]) }
    }

    private static let hashed: [Column] = [.strategy, .rows, .batchSize, .writers, .dupRate, .operation]

    /// The value of `column`, "" when absent or unused.
    package subscript(column: Column) -> String { fields[column.name] ?? "" }

    package var strategy: String { self[.strategy] }
    package var dataset: String { self[.dataset] }
    /// What the records are, for a reader: the dataset, or a model run's entity and model file
    /// (`Status of CoreData.xcdatamodeld`).
    package var records: String {
        let model = self[.model]
        guard !model.isEmpty else { return dataset }
        let file = model.split(separator: "/").last.map(String.init) ?? model
        return self[.entity].isEmpty ? file : "\(self[.entity]) of \(file)"
    }
    package var rows: Int { Int(self[.rows]) ?? 0 }
    package var uniqueKeys: Int { Int(self[.uniqueKeys]) ?? 0 }

    // MARK: The parameters the reports interpret, typed once

    /// What was measured: an import (the blank of older files), update, delete or read.
    package var operation: String { self[.operation].isEmpty ? "import" : self[.operation] }
    /// Concurrent producers; 1 where the strategy has none.
    package var writers: Int { Int(self[.writers]) ?? 1 }
    /// Records per save or batch request, or per fetch batch; nil where the strategy has none.
    package var batchSize: Double? { Double(self[.batchSize]) }
    /// The offered rate of an open-loop run; nil for a closed loop.
    package var rate: Double? { Double(self[.rate]) }
    /// Whether each record relates to another object: a dataset's records always do, a model's
    /// unless the run said `--relationship none`.
    package var relatesRecords: Bool { self[.relationship] != "none" }
    /// Whether a view context watched every save, as a list screen would (`--view-context`).
    package var watchedByScreen: Bool { !self[.viewContext].isEmpty }
    /// The records' related objects: `--categories`, or a model's `--parents` (nil when not said).
    package var relatedObjects: Int? { Int(self[.categories]) ?? Int(self[.parents]) }
}
