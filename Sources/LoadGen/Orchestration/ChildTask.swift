import ObjectGraph
import Report
import Strategies

/// One repetition, as the parent hands it to a child process (JSON on the command line): the
/// configuration as parsed, and where this repetition's files go.
struct ChildTask: Codable, Sendable {
    var configuration: RunConfiguration
    /// The store's path and settings.
    var store: StoreOptions
    var runID: String
    /// "context-reset [rows=10000]  configuration 2 of 6, repetition 1 of 5", for the progress display.
    var label: String
    var progress: ProgressDisplay.Style
    /// Where the child writes its timeline samples (the parent appends them to `--timeline`).
    var timelinePath: String?
    /// What the child removes if its parent dies before it finishes (the temporary folder, a
    /// store being built beside `--store PATH`): nobody else would.
    var orphanPaths: [String] = []
    /// The child runs under callgrind (`--instructions`): no sampler thread, whose work would count.
    var underCallgrind = false
    /// For an update, delete or read: the filled store of this configuration's first repetition
    /// (`PrefilledStore`), copied instead of filling again; the first repetition makes it.
    var prefillTemplate: String?
}
