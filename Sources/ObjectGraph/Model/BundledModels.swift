import SQLiteKit

/// How a record entity's key attribute is protected in the store.
package enum KeyConstraint: String, Sendable, Codable, CaseIterable {
    /// No index: the layout of a plain insert (`raw-sqlite`), which cannot find by key cheaply.
    case none
    /// A plain index (Core Data's fetch index): find-or-create is cheap, duplicates still possible.
    case indexed
    /// A uniqueness constraint (a UNIQUE index): the store refuses a second row with the same key.
    case unique
}

extension KeyConstraint {
    /// `entities` with each of `keys` (an entity and the attributes that key it) protected as
    /// this says: `unique` keeps the model's uniqueness constraints; `indexed` replaces a key's
    /// constraint by an index (a fetch index for several attributes), `none` by nothing: the
    /// layouts the unconstrained idioms write (`many-writers`, `raw-sqlite`). Those layouts keep
    /// no other constraint of a keyed entity either: their stores hold a repeated record twice,
    /// and a repeated record repeats every constrained value (an entity kept unique by `[uuid]`
    /// and `[syncIdentifier]` would refuse the second copy by the other).
    package func apply(to entities: [EntityDescription], keys: [(entity: String, attributes: [String])]) -> [EntityDescription] {
        guard self != .unique else { return entities }
        var result = entities
        // A constraint an entity inherits is its ancestors' unique index on the shared table:
        // it leaves every entity of the hierarchy that carries it.
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func root(_ name: String) -> String { byName[name]?.parentEntity.map(root) ?? name }
        var dropped: [String: Set<[String]>] = [:]
        for key in keys { if let e = byName[key.entity] { dropped[root(e.name), default: []].formUnion(e.uniquenessConstraints) } }
        for i in result.indices {
            if let gone = dropped[root(result[i].name)] { result[i].uniquenessConstraints.removeAll(where: gone.contains) }
            guard let keyed = keys.first(where: { $0.entity == result[i].name })?.attributes else { continue }
            result[i].fetchIndexes.removeAll { index in index.elements.map(\.property) == keyed }
            for j in result[i].attributes.indices where keyed.contains(result[i].attributes[j].name) {
                result[i].attributes[j].isIndexed = self == .indexed && keyed.count == 1
            }
            if self == .indexed && keyed.count > 1 {
                result[i].fetchIndexes.append(FetchIndexDescription("loadgenKey", elements: keyed.map { ($0, true) }))
            }
        }
        return result
    }
}

/// The models that ship with loadgen, one per built-in dataset: model files as Xcode writes them
/// (`Model/Bundled/*.contents`), compiled into the binary and read by the same reader as a team's
/// own model, so nothing knows their entities by name.
package enum BundledModels {
    /// The names of the bundled models.
    package static let names = ["Expenses", "Photos"]

    /// The bundled model named `name` (one of `names`), read once per process.
    package static func file(named name: String) -> ModelFile {
        cache.withLock { files in
            if let file = files[name] { return file }
            let file = read(name)
            files[name] = file
            return file
        }
    }

    private static let cache = Protected<[String: ModelFile]>([:])

    private static func read(_ name: String) -> ModelFile {
        let bytes: [UInt8]
        switch name {
        case "Expenses": bytes = PackageResources.Expenses_contents
        case "Photos": bytes = PackageResources.Photos_contents
        default: preconditionFailure("no bundled model named \(name) (one of \(names.joined(separator: ", ")))")
        }
        do {
            return try ModelFile.parse(String(decoding: bytes, as: UTF8.self), path: "<bundled \(name)>", name: name)
        } catch {
            // The bundled models are files checked by the tests; a failure here is a bug in
            // them, never a consequence of input.
            preconditionFailure("bundled model \(name) is invalid: \(error)")
        }
    }
}
