import Foundation

/// Turns a model file's `<entity>` elements into `EntityDescription`s, checking what Core Data
/// would check and what the engine can honour, with the line of each element it refuses.
struct ModelReader {
    let path: String
    /// What was read and not honoured, one line each.
    var notes: [String] = []

    init(path: String) { self.path = path }

    func fail(_ element: ModelXML.Element, _ message: String) -> ModelFileError {
        ModelFileError(path: path, line: element.line, message: message)
    }

    mutating func note(_ element: ModelXML.Element, _ message: String) {
        notes.append("\(path):\(element.line): \(message)")
    }

    // MARK: The model

    mutating func entities(of root: ModelXML.Element) throws(ModelFileError) -> [EntityDescription] {
        var entities: [EntityDescription] = []
        var lines: [String: ModelXML.Element] = [:]
        for child in root.children {
            switch child.name {
            case "entity":
                let entity = try self.entity(child)
                if let first = lines[entity.name] {
                    throw fail(child, "entity \(entity.name) is declared twice (first on line \(first.line))")
                }
                lines[entity.name] = child
                entities.append(entity)
            case "elements", "configuration":
                break // Xcode's diagram layout and store configurations: nothing the store holds
            case "fetchRequest":
                note(child, "fetch request template \(child["name"] ?? "") is not used (loadgen builds its own fetches)")
            default:
                note(child, "<\(child.name)> is not a Core Data model element; ignored")
            }
        }
        guard !entities.isEmpty else { throw fail(root, "the model holds no entity") }
        try checkRelationships(&entities, lines: lines)
        return entities
    }

    // MARK: Entities

    mutating func entity(_ e: ModelXML.Element) throws(ModelFileError) -> EntityDescription {
        guard let name = e["name"], !name.isEmpty else { throw fail(e, "<entity> has no name") }
        if let parent = e["parentEntity"] {
            throw fail(e, "entity \(name) inherits from \(parent): entity inheritance (one table for the hierarchy) is not supported")
        }
        var entity = EntityDescription(name, attributes: [])
        entity.isAbstract = e["isAbstract"] == "YES"
        var seen: [String: Int] = [:]
        for child in e.children {
            switch child.name {
            case "attribute":
                guard let attribute = try self.attribute(child, in: name) else { continue }
                try unique(attribute.name, child, in: name, &seen)
                entity.attributes.append(attribute)
            case "relationship":
                let relationship = try self.relationship(child, in: name)
                try unique(relationship.name, child, in: name, &seen)
                entity.relationships.append(relationship)
            case "uniquenessConstraints":
                for c in child.children(named: "uniquenessConstraint") {
                    let names = c.children(named: "constraint").compactMap { $0["value"] }
                    guard !names.isEmpty else { throw fail(c, "a uniqueness constraint of \(name) names no attribute") }
                    entity.uniquenessConstraints.append(names)
                }
            case "fetchIndex":
                let elements = child.children(named: "fetchIndexElement").map { element in
                    (element["property"] ?? "", element["order"] != "descending")
                }
                if let kind = child.children(named: "fetchIndexElement").first(where: { $0["type"] == "RTree" }) {
                    note(kind, "fetch index \(child["name"] ?? "") of \(name) is an R-tree; kept as a plain index")
                }
                entity.fetchIndexes.append(FetchIndexDescription(child["name"] ?? "index\(entity.fetchIndexes.count + 1)",
                                                                 elements: elements))
            case "compoundIndexes":
                // Xcode before fetch indexes: each compound index lists its properties.
                for (n, index) in child.children(named: "compoundIndex").enumerated() {
                    let elements = index.children(named: "index").compactMap { $0["value"] }.map { ($0, true) }
                    entity.fetchIndexes.append(FetchIndexDescription("compound\(n + 1)", elements: elements))
                }
            case "userInfo":
                entity.userInfo = userInfo(child)
            case "fetchedProperty":
                note(child, "fetched property \(name).\(child["name"] ?? "") is not stored; ignored")
            default:
                note(child, "<\(child.name)> in entity \(name) is not understood; ignored")
            }
        }
        try checkConstraints(entity, e)
        return entity
    }

    func unique(_ property: String, _ e: ModelXML.Element, in entity: String, _ seen: inout [String: Int]) throws(ModelFileError) {
        if let first = seen[property] { throw fail(e, "\(entity).\(property) is declared twice (first on line \(first))") }
        seen[property] = e.line
    }

    /// Constraints and indexes name properties the entity has; the engine constrains attributes.
    func checkConstraints(_ entity: EntityDescription, _ e: ModelXML.Element) throws(ModelFileError) {
        let lineOf = { (tag: String) -> ModelXML.Element in e.children.first { $0.name == tag } ?? e }
        for constraint in entity.uniquenessConstraints {
            for name in constraint where entity.attribute(name) == nil {
                let message = entity.relationship(name) != nil
                    ? "the uniqueness constraint of \(entity.name) names relationship \(name): the engine constrains attributes only"
                    : "the uniqueness constraint of \(entity.name) names \(name), which is not an attribute of \(entity.name)"
                throw fail(lineOf("uniquenessConstraints"), message)
            }
        }
        for index in entity.fetchIndexes {
            for element in index.elements where entity.attribute(element.property) == nil
                && !(entity.relationship(element.property).map { !$0.isToMany } ?? false) {
                throw fail(lineOf(index.name.hasPrefix("compound") ? "compoundIndexes" : "fetchIndex"),
                           "index \(index.name) of \(entity.name) names \(element.property), which is not an attribute or to-one of \(entity.name)")
            }
        }
    }

    func userInfo(_ e: ModelXML.Element) -> [String: String] {
        var info: [String: String] = [:]
        for entry in e.children(named: "entry") {
            if let key = entry["key"] { info[key] = entry["value"] ?? "" }
        }
        return info
    }
}
