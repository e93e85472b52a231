import ObjectGraph
import Strategies
import Report
import Workload

/// One repetition, as the parent hands it to a child process (JSON on the command line).
struct ChildTask: Codable, Sendable {
    var strategy: String
    var workload: WorkloadSpec
    var store: StoreOptions
    var batchSize: Int?
    var writers: Int
    var producerLatencyMicroseconds: Int
    var coordinators: CoordinatorMode
    var input: String?
    var rate: Double?
    var viewContext: Bool
    var runID: String
    /// "raw-sqlite 2/3", for the progress display.
    var label: String
    var progress: ProgressDisplay.Style
    /// Where the child writes its timeline samples (the parent appends them to `--timeline`).
    var timelinePath: String?
    /// What the child removes if its parent dies before it finishes (the temporary folder, a
    /// store being built beside `--store PATH`): nobody else would.
    var orphanPaths: [String] = []
}
