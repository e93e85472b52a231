import ObjectGraph

/// What a batch request asks for, and why: `--result`, unless the screen merges the object IDs
/// (`mergeChanges(fromRemoteContextSave:into:)` needs them) or a batch insert's relationship
/// fix-up fetches the rows it inserted by them. One rule for the request (`StrategyJob`) and for
/// the run's notes, so the header says which requests pay for the capture (issue 54, item 3).
package struct BatchResultNeed: Sendable {
    package let resultType: BatchResultType
    /// Why the IDs are asked for beyond `--result`; nil when `--result` decides.
    package let reason: String?

    package init(_ configuration: RunConfiguration, fixUpNeedsIDs: Bool) {
        if configuration.screen != nil {
            (resultType, reason) = (.objectIDs, "the screen merges them (mergeChanges(fromRemoteContextSave:into:))")
        } else if fixUpNeedsIDs {
            (resultType, reason) = (.objectIDs, "the relationship fix-up fetches the inserted rows by them")
        } else {
            (resultType, reason) = (configuration.batchResult ?? .statusOnly, nil)
        }
    }
}
