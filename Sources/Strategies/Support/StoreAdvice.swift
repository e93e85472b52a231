import Report

/// What Core Data offers when a store falls short of what a workload needs, for strategies
/// whose own advice is no more specific (`WriteStrategy.fix(for:)`).
enum StoreAdvice {
    static func fix(for requirement: Requirement) -> String {
        switch requirement {
        case .unique:
            return "deduplicate on a uniqueness constraint: a merge policy in a context (context-reset, one-writer), "
                + "or a batch insert on it (batch, batch-upsert)"
        case .links:
            return
                "relate each record to its parent: in the context that saves it (context-reset, prefetch), or by the "
                + "fix-up a batch insert needs (batch)"
        case .screen:
            return "merge what is saved into the screen: automaticallyMergesChangesFromParent on the view context, or "
                + "persistent history (history-consumer)"
        case .current:
            return "let the last copy win: an upsert (batch-upsert), a merge policy whose in-memory values win "
                + "(context-reset), or find-or-create; or say the app keeps the first copy (--require first-wins)"
        case .objects:
            return "fetch the same columns as partial managed objects (propertiesToFetch: read-properties)"
        }
    }
}
