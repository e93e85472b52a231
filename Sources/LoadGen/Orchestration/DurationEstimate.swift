import Foundation
import Report
import Strategies

/// How long a plan will take, for `--dry-run`: per child process, the strategy's time per row at
/// the nearest size measured in the checkout's `results/baseline.csv` (the nightly suite on this
/// machine kind) times the rows, plus the store's fill and a child's fixed cost. A rough figure
/// (wall time moves ±30 % here), and said to be one.
struct DurationEstimate {
    /// Per (strategy, operation, counted under callgrind): rows and median seconds per row.
    private var perRow: [String: [(rows: Double, wall: Double, fill: Double)]] = [:]
    let source: String

    /// A child's cost beyond the strategy's window: starting, creating the store, verifying it.
    /// Fitted to a nightly suite run here: 219 s elapsed for 150 s of windows and fills over 264
    /// children.
    static let childSeconds = 0.12
    static let verifyShare = 0.25
    /// The rate assumed for a strategy the baseline lacks.
    static let fallbackRowsPerSecond = 100_000.0

    /// Reads the baseline; nil when the checkout has none (or it cannot be read).
    init?() {
        guard let root = Checkout.root, let rows = try? ResultsReader.rows(root + "/results/baseline.csv") else { return nil }
        source = "results/baseline.csv"
        var samples: [String: [Int: [(Double, Double)]]] = [:]
        for row in rows where row.measurement.status == .ok {
            guard let wall = row.measurement.wallSeconds, row.parameters.rows > 0 else { continue }
            let key = Self.key(row.parameters.strategy, row.parameters["operation"], row.measurement.instructionsCountedBy != nil)
            samples[key, default: [:]][row.parameters.rows, default: []].append((wall, row.measurement.prefillSeconds ?? 0))
        }
        for (key, bySize) in samples {
            perRow[key] = bySize.map { size, values in
                let walls = values.map(\.0).sorted(), fills = values.map(\.1).sorted()
                return (Double(size), walls[walls.count / 2] / Double(size), fills[fills.count / 2] / Double(size))
            }
        }
    }

    private static func key(_ strategy: String, _ operation: String, _ callgrind: Bool) -> String {
        "\(strategy) \(operation.isEmpty ? "import" : operation)\(callgrind ? " callgrind" : "")"
    }

    /// Seconds for the plans, and the strategies the baseline has no figure for.
    func seconds(_ plans: [RunPlan]) -> (seconds: Double, unknown: [String]) {
        var total = 0.0
        var unknown: [String] = []
        for plan in plans {
            let divisors = plan.divisorLimits
            for c in plan.schedule {
                let children = Double(plan.repeats * (divisors.contains(c) ? RunPlan.limitSamples : 1) + plan.warmups)
                let rows = Double(c.workload.rows)
                let key = Self.key(c.strategy, c.operation.rawValue, plan.countsInstructions)
                let nearest = perRow[key]?.min { abs(log($0.rows / rows)) < abs(log($1.rows / rows)) }
                if nearest == nil && !unknown.contains(c.strategy) { unknown.append(c.strategy) }
                let window = nearest.map { $0.wall * rows } ?? rows / Self.fallbackRowsPerSecond
                let fill = nearest.map { $0.fill * rows } ?? 0
                total += children * (Self.childSeconds + (window + fill) * (1 + Self.verifyShare))
            }
        }
        return (total, unknown)
    }
}
