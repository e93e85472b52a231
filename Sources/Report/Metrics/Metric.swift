/// The figures a run records, with their units and which direction is better, so that the
/// summary, the CSV and the nightly comparison agree on what each number means.
public enum Metric: String, CaseIterable, Sendable {
    case wallTime, cpuUser, cpuSystem, rowsPerSecond, vsLimit, peakRSS, endRSS, peakHeap, endHeap
    case sqlStatements, sqlSelects, saves, transactions, busyRetries, conflicts, saveP50, saveP99
    case duplicates, lost, badLinks, storeBytes, latencyP50, latencyP99, latencyMax, mergeTotal

    public enum Unit: String, Sendable { case seconds, milliseconds, bytes, count, rowsPerSecond, ratio }
    /// Whether a larger value is an improvement or a regression.
    public enum Polarity: Sendable { case higherIsBetter, lowerIsBetter }

    public var unit: Unit {
        switch self {
        case .wallTime, .cpuUser, .cpuSystem: return .seconds
        case .saveP50, .saveP99, .latencyP50, .latencyP99, .latencyMax, .mergeTotal: return .milliseconds
        case .peakRSS, .endRSS, .peakHeap, .endHeap, .storeBytes: return .bytes
        case .rowsPerSecond: return .rowsPerSecond
        case .vsLimit: return .ratio
        default: return .count
        }
    }

    public var polarity: Polarity {
        switch self {
        case .rowsPerSecond, .vsLimit: return .higherIsBetter
        default: return .lowerIsBetter
        }
    }

    /// True for counts that the same inputs always reproduce (they must match a baseline exactly
    /// for deterministic strategies).
    public var isDeterministic: Bool {
        switch self {
        case .sqlStatements, .sqlSelects, .saves, .transactions, .duplicates, .lost, .badLinks: return true
        default: return false
        }
    }
}
