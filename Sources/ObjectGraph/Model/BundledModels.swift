/// How a record entity's key attribute is protected in the store.
package enum KeyConstraint: String, Sendable, Codable, CaseIterable {
    /// No index: the layout of a plain insert (`raw-sqlite`), which cannot find by key cheaply.
    case none
    /// A plain index (Core Data's fetch index): find-or-create is cheap, duplicates still possible.
    case indexed
    /// A uniqueness constraint (a UNIQUE index): the store refuses a second row with the same key.
    case unique
}

/// The models that ship with the engine, one per dataset, as an app would define them in code.
package enum BundledModels {
    /// Expense(externalID, amount, date, note) → Category(name), to-many `expenses` back.
    package static func expenses(key: KeyConstraint) -> ManagedObjectModel {
        let unique = key == .unique
        let category = EntityDescription(
            "Category",
            attributes: [.init("name", .string, indexed: key == .indexed)],
            relationships: [.init("expenses", to: "Expense", inverse: "category", toMany: true)],
            uniquenessConstraints: unique ? [["name"]] : [])
        let expense = EntityDescription(
            "Expense",
            attributes: [.init("externalID", .string, indexed: key == .indexed), .init("amount", .double),
                         .init("date", .date), .init("note", .string)],
            relationships: [.init("category", to: "Category", inverse: "expenses")],
            uniquenessConstraints: unique ? [["externalID"]] : [])
        return build([category, expense])
    }

    /// Photo(remoteURL, imageData, isSeen) → Album(name), to-many `photos` back: the seed's
    /// photo downloader.
    package static func photos(key: KeyConstraint) -> ManagedObjectModel {
        let unique = key == .unique
        let album = EntityDescription(
            "Album",
            attributes: [.init("name", .string, indexed: key == .indexed)],
            relationships: [.init("photos", to: "Photo", inverse: "album", toMany: true)],
            uniquenessConstraints: unique ? [["name"]] : [])
        let photo = EntityDescription(
            "Photo",
            attributes: [.init("remoteURL", .string, indexed: key == .indexed), .init("imageData", .binary),
                         .init("isSeen", .boolean, default: .bool(false))],
            relationships: [.init("album", to: "Album", inverse: "photos")],
            uniquenessConstraints: unique ? [["remoteURL"]] : [])
        return build([album, photo])
    }

    private static func build(_ entities: [EntityDescription]) -> ManagedObjectModel {
        do {
            return try ManagedObjectModel(entities)
        } catch {
            // The bundled models are constants checked by the tests; a failure here is a bug
            // in this file, never a consequence of input.
            preconditionFailure("bundled model is invalid: \(error)")
        }
    }
}
