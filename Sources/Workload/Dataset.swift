/// The datasets loadgen generates, each shaped like the data of a real app.
///
/// A dataset names its entities and attributes as the Core Data model that stores it does,
/// so that generators, import files and strategies agree on one vocabulary.
package enum Dataset: String, CaseIterable, Codable, Sendable {
    /// Expense(externalID unique, amount, date, note) → Category(name unique).
    case expenses
    /// Photo(remoteURL unique, imageData, isSeen) → Album(name unique).
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

    /// The entity that records become.
    package var entityName: String { self == .expenses ? "Expense" : "Photo" }
    /// The entity every record relates to (to-one), found or created by name.
    package var parentEntityName: String { self == .expenses ? "Category" : "Album" }
    /// The record entity's unique key attribute.
    package var keyAttribute: String { self == .expenses ? "externalID" : "remoteURL" }
    /// The to-one relationship from record to parent.
    package var parentRelationship: String { self == .expenses ? "category" : "album" }
    /// The array's name in a JSON import file: `{"expenses": [ … ]}`.
    package var jsonArrayName: String { rawValue }
    /// The field naming the parent in import files (as in the seeds: `categoryName`).
    package var parentField: String { self == .expenses ? "categoryName" : "albumName" }
}
