import Foundation
import Report
import Strategies

/// What each configuration of a suite took in a results file (`run --suite … --shard K/N
/// --shard-by FILE`, the committed baseline), so that shards are balanced by time, not records:
/// by records the nightly suite's four shards took 1.6, 2.2, 4.4 and 3.8 minutes (issue 58,
/// item 2), since a record costs a batch insert microseconds and a per-row fetch milliseconds.
///
/// A repetition's time is what the file measured of it: its window, its fill and its check
/// (`wall_s + prefill_s + verify_s`), the median over the file's repetitions of the
/// configuration, callgrind's rows apart. A configuration the file lacks (a line added since)
/// costs its records × repetitions at the file's median seconds per record. The same file gives
/// every runner of a CI matrix the same split.
struct ShardTimes {
    private struct Key: Hashable {
        let parameters: ParameterValues
        let callgrind: Bool
    }

    private let seconds: [Key: Double]
    /// Seconds per record-repetition over the configurations found, for those the file lacks.
    private let perRecord: Double
    let file: String

    init(file: String) throws {
        let rows: [ResultRow]
        do { rows = try ResultsReader.rows(file) } catch {
            switch error {
            case .unreadable(let why):
                throw CommandError(message: "run: --shard-by \(file): \(why)", exitCode: ExitCode.noInput)
            default: throw CommandError(message: "run: --shard-by \(file): \(error)", exitCode: ExitCode.dataError)
            }
        }
        var samples: [Key: [Double]] = [:]
        var records: [Key: Double] = [:]
        for row in rows {
            let m = row.measurement
            guard let wall = m.wallSeconds else { continue }
            let key = Key(parameters: row.parameters, callgrind: m.instructionsCountedBy == "callgrind")
            samples[key, default: []].append(wall + (m.prefillSeconds ?? 0) + (m.verifySeconds ?? 0))
            records[key] = Double(max(1, row.parameters.rows))
        }
        seconds = samples.compactMapValues { Statistics($0)?.median }
        let rates = seconds.compactMap { key, s in records[key].map { s / $0 } }
        perRecord = Statistics(rates)?.median ?? 0
        self.file = file
        guard !seconds.isEmpty else {
            throw CommandError(
                message: "run: --shard-by \(file) holds no measured repetition to balance shards by",
                exitCode: ExitCode.dataError)
        }
    }

    /// The seconds configuration `c` of `plan` is expected to take: a repetition's time as the
    /// file measured it, times the repetitions and warm-ups; and whether the file had it.
    func cost(_ c: RunConfiguration, of plan: RunPlan) -> (seconds: Double, found: Bool) {
        let key = Key(parameters: ParameterValues(c.csvFields), callgrind: plan.countsInstructions)
        let children = Double(plan.plannedRepeats + plan.warmups)
        if let known = seconds[key] { return (known * children, true) }
        let slowdown = plan.countsInstructions && !seconds.keys.contains { $0.callgrind } ? Suite.callgrindSlowdown : 1
        return (Double(max(1, c.workload.rows)) * perRecord * children * slowdown, false)
    }
}
