/// The screen in front of a run (`--view-context`): the same list for every strategy of it, so
/// that what keeping it current costs is part of the question, never of one side only (issue
/// 54, item 2). A list of the records' entity sorted by the record's key, as a list screen
/// sorts; it merges saves as `automaticallyMergesChangesFromParent` does and batch requests'
/// object IDs as `mergeChanges(fromRemoteContextSave:into:)` does.
package enum ScreenKind: Codable, Hashable, Sendable {
    /// A view context holding the first N objects of the list, fetched once: merges refresh and
    /// remove them, and it gains no new object (a plain fetch, no controller).
    case list(Int)
    /// A results controller over the first N objects (nil: every one), following every change
    /// as `NSFetchedResultsController` does: merged inserts join it.
    case controller(Int?)

    /// The objects the screen fetches first (`fetchLimit`); nil: every one.
    package var limit: Int? {
        switch self {
        case .list(let n): return n
        case .controller(let n): return n
        }
    }

    /// Reads `--view-context`'s value: `on` (a controller over every record), `list:N`,
    /// `controller:N` or `controller`; nil for `off`. Throws what is accepted.
    package static func parse(_ text: String) throws(RunParameterError) -> ScreenKind? {
        let parts = text.lowercased().split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(
            String.init)
        let accepted = "off, on (a controller over every record), list:N or controller:N (N objects, 1 to 10000000)"
        if parts.count == 1 {
            if parts[0] == "controller" { return .controller(nil) }
            do { return try onOff(parts[0]) ? .controller(nil) : nil } catch {
                throw RunParameterError(accepted: accepted)
            }
        }
        guard let n = RunParameter.parseInteger(parts[1]), (1...10_000_000).contains(n) else {
            throw RunParameterError(accepted: accepted)
        }
        switch parts[0] {
        case "list": return .list(n)
        case "controller": return .controller(n)
        default: throw RunParameterError(accepted: accepted)
        }
    }

    /// The value as the results file holds it: `yes` for a controller over every record (the
    /// column's value before lists and limits), `list:N`, `controller:N`.
    package var cell: String {
        switch self {
        case .controller(nil): return "yes"
        case .controller(let n?): return "controller:\(n)"
        case .list(let n): return "list:\(n)"
        }
    }

    /// The option's value again, for a reproduce line (`on` for `yes`).
    package static func option(forCell cell: String) -> String { cell == "yes" ? "on" : cell }
}
