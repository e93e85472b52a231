/// Where and with what a run was made: the identity columns of a result row.
public struct RunIdentity: Codable, Sendable {
    public var runID: String
    /// ISO 8601, UTC.
    public var startedAt: String
    public var system: SystemInfo

    public init(runID: String, startedAt: String, system: SystemInfo) {
        self.runID = runID
        self.startedAt = startedAt
        self.system = system
    }
}

/// What was asked for: the parameter columns of a result row, by CSV column name, rendered by
/// the parameter table that parsed them (`RunParameter` in Strategies; Report knows no strategy).
/// Blank for a parameter the row's strategy does not use.
public struct ParameterValues: Codable, Sendable, Hashable {
    public var fields: [String: String]

    public init(_ fields: [String: String]) { self.fields = fields }

    /// The value of `column`, "" when absent or unused.
    public subscript(column: String) -> String { fields[column] ?? "" }

    public var strategy: String { self["strategy"] }
    public var dataset: String { self["dataset"] }
    public var rows: Int { Int(self["rows"]) ?? 0 }
    public var uniqueKeys: Int { Int(self["unique_keys"]) ?? 0 }
}
