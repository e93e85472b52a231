/// Entity inheritance as Core Data resolves it: a sub-entity has its parent's properties and
/// uniqueness constraints, and entities are numbered roots first by name, each followed by its
/// sub-entities depth first, by name (a real store's `Z_PRIMARYKEY`: `SFNoteFile` 7,
/// `SFNoteGenericFile` 8, `SFNoteImage` 9, `SFNoteVideo` 10, `SFNoteFileServerData` 11; the
/// sub-entities' `Z_SUPER` is 7). Without inheritance this is the entities by name.
enum Inheritance {
    /// `entities` in `Z_ENT` order, each sub-entity carrying its parent's attributes,
    /// relationships and constraints before its own. Idempotent: a property the sub-entity
    /// already has (by name) is not added twice, so a model read from a file (flattened by the
    /// reader) and built again gives the same entities.
    static func flatten(_ entities: [EntityDescription]) throws(ModelError) -> [EntityDescription] {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var children: [String: [String]] = [:]
        var roots: [String] = []
        for e in entities {
            if let parent = e.parentEntity {
                guard byName[parent] != nil else {
                    throw ModelError.unknownEntity(parent, in: "\(e.name) parent entity")
                }
                children[parent, default: []].append(e.name)
            } else {
                roots.append(e.name)
            }
        }
        var ordered: [EntityDescription] = []
        ordered.reserveCapacity(entities.count)
        func visit(_ name: String, parent: EntityDescription?) {
            var e = byName[name]!
            if let parent { inherit(&e, from: parent) }
            ordered.append(e)
            for child in (children[name] ?? []).sorted() { visit(child, parent: e) }
        }
        for root in roots.sorted() { visit(root, parent: nil) }
        guard ordered.count == entities.count else {
            let cyclic = entities.map(\.name).filter { name in !ordered.contains { $0.name == name } }.sorted()
            throw ModelError.inheritanceCycle(cyclic)
        }
        return ordered
    }

    /// Gives `e` what it inherits from `parent`, parent's first.
    private static func inherit(_ e: inout EntityDescription, from parent: EntityDescription) {
        let attributes = Set(e.attributes.map(\.name))
        e.attributes = parent.attributes.filter { !attributes.contains($0.name) } + e.attributes
        let relationships = Set(e.relationships.map(\.name))
        e.relationships = parent.relationships.filter { !relationships.contains($0.name) } + e.relationships
        e.uniquenessConstraints =
            parent.uniquenessConstraints.filter { !e.uniquenessConstraints.contains($0) }
            + e.uniquenessConstraints
    }
}
