/// The built-in datasets, each shaped like the data of a real app: a model file bundled with
/// loadgen (see ObjectGraph's `BundledModels`) read the same way as a team's own.
package enum Dataset: String, CaseIterable, Codable, Sendable {
    /// Expense(externalID unique, amount, date, note) → Category(name unique).
    case expenses
    /// Photo(remoteURL indexed, not unique: seed 001's app; imageData, isSeen) → Album(name unique).
    case photos

    /// One line for `loadgen list`.
    package var summary: String {
        switch self {
        case .expenses:
            return "Expense(externalID, amount, date, note) → Category(name); an expense tracker's import"
        case .photos:
            return "Photo(remoteURL, imageData of --payload-bytes, isSeen) → Album(name); the photo downloader"
        }
    }
}
