import ObjectGraph

/// How a record entity's key attribute is protected in a test's store: the layouts the engine's tests
/// need (the product writes the model's own layout; decision 0039).
enum KeyConstraint: String, Sendable, Codable, CaseIterable {
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
    func apply(to entities: [EntityDescription], keys: [(entity: String, attributes: [String])]) -> [EntityDescription]
    {
        var result = entities
        guard self != .unique else {
            // The key constrained, whether or not the model constrains it (the photos model does not).
            for key in keys {
                for i in result.indices
                where result[i].name == key.entity && !result[i].uniquenessConstraints.contains(key.attributes) {
                    result[i].uniquenessConstraints.append(key.attributes)
                    result[i].fetchIndexes.removeAll { $0.elements.map(\.property) == key.attributes }
                }
            }
            return result
        }
        // A constraint an entity inherits is its ancestors' unique index on the shared table:
        // it leaves every entity of the hierarchy that carries it.
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func root(_ name: String) -> String { byName[name]?.parentEntity.map(root) ?? name }
        var dropped: [String: Set<[String]>] = [:]
        for key in keys {
            if let e = byName[key.entity] { dropped[root(e.name), default: []].formUnion(e.uniquenessConstraints) }
        }
        for i in result.indices {
            if let gone = dropped[root(result[i].name)] {
                result[i].uniquenessConstraints.removeAll(where: gone.contains)
            }
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
