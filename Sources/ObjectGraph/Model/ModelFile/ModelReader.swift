import Foundation
import SQLiteKit

/// Turns a model file's `<entity>` elements into `EntityDescription`s, checking what Core Data
/// would check and what the engine can honour, with the line of each element it refuses.
struct ModelReader {
    let path: String
    /// What was read and not honoured, one line each, with the entity it is about (nil: the
    /// model as a whole).
    var notes: [ModelFile.Note] = []
    /// The entity being read, which the notes made meanwhile are about.
    var currentEntity: String?
    /// Each entity's fetch indexes as written, resolved once inheritance is: an index may name a
    /// property the entity inherits (an index on an abstract parent's `id` declared on each
    /// sub-entity, as a music player's model does nine times).
    var writtenIndexes: [String: [WrittenIndex]] = [:]
    /// Transient relationships ("Entity.name"): read, checked and left out of the store.
    var transientRelationships: Set<String> = []

    /// A `<fetchIndex>` or compound index as the file writes it, with its elements' lines.
    struct WrittenIndex {
        let name: String
        let element: ModelXML.Element
        let elements: [(property: String, ascending: Bool, element: ModelXML.Element)]
    }

    init(path: String) { self.path = path }

    func fail(_ element: ModelXML.Element, _ message: String) -> ModelFileError {
        ModelFileError(path: path, line: element.line, message: message)
    }

    mutating func note(_ element: ModelXML.Element, _ message: String) {
        notes.append(ModelFile.Note(entity: currentEntity, text: "\(path):\(element.line): \(message)"))
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
                break   // Xcode's diagram layout and store configurations: nothing the store holds
            case "fetchRequest":
                note(
                    child, "fetch request template \(child["name"] ?? "") is not used (loadgen builds its own fetches)")
            default:
                note(child, "<\(child.name)> is not a Core Data model element; ignored")
            }
        }
        guard !entities.isEmpty else { throw fail(root, "the model holds no entity") }
        try checkInheritance(entities, lines: lines)
        try checkTables(entities, lines: lines)
        do {
            entities = try Inheritance.flatten(entities)
        } catch {
            throw fail(root, error.description)
        }
        for i in entities.indices {
            currentEntity = entities[i].name
            defer { currentEntity = nil }
            entities[i].fetchIndexes = (writtenIndexes[entities[i].name] ?? []).compactMap {
                fetchIndex($0, of: entities[i])
            }
            try checkConstraints(entities[i], lines[entities[i].name]!)
        }
        try checkRelationships(&entities, lines: lines)
        try checkLayout(entities, lines: lines, root: root)
        return entities
    }

    /// A parent entity exists, the parents form no cycle, and a sub-entity does not declare a
    /// property its parents have (Xcode refuses it).
    func checkInheritance(_ entities: [EntityDescription], lines: [String: ModelXML.Element]) throws(ModelFileError) {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            var seen: Set<String> = [entity.name]
            var parent = entity.parentEntity
            while let name = parent {
                guard let p = byName[name] else {
                    throw fail(
                        lines[entity.name]!,
                        "entity \(entity.name) has parent entity \(name), which is not an entity of the model")
                }
                guard seen.insert(name).inserted else {
                    throw fail(
                        lines[entity.name]!, "entity \(entity.name): its parent entities form a cycle through \(name)")
                }
                let inherited = Set(p.attributes.map(\.name) + p.relationships.map(\.name))
                if let clash = (entity.attributes.map(\.name) + entity.relationships.map(\.name)).first(
                    where: inherited.contains)
                {
                    throw fail(
                        lines[entity.name]!, "\(entity.name).\(clash) is declared by its parent entity \(name) too")
                }
                parent = p.parentEntity
            }
        }
    }

    // MARK: Entities

    mutating func entity(_ e: ModelXML.Element) throws(ModelFileError) -> EntityDescription {
        guard let name = e["name"], !name.isEmpty else { throw fail(e, "<entity> has no name") }
        if let problem = ModelNames.entityProblem(name) { throw fail(e, problem) }
        currentEntity = name
        defer { currentEntity = nil }
        var entity = EntityDescription(name, attributes: [])
        entity.isAbstract = e["isAbstract"] == "YES"
        entity.parentEntity = e["parentEntity"]
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
                if child["transient"] == "YES" {
                    // Core Data stores nothing of a transient relationship: no column, no join table.
                    transientRelationships.insert("\(name).\(relationship.name)")
                    note(child, "\(name).\(relationship.name) is transient: not stored (no column, no join table)")
                    continue
                }
                entity.relationships.append(relationship)
            case "uniquenessConstraints":
                for c in child.children(named: "uniquenessConstraint") {
                    let names = c.children(named: "constraint").compactMap { $0["value"] }
                    // An empty constraint (a shipping app's model has one) constrains nothing:
                    // Core Data loads the model and makes no index for it (issue 55, item 16).
                    guard !names.isEmpty else {
                        note(
                            c,
                            "an empty uniqueness constraint of \(name) constrains nothing; ignored, as Core Data ignores it"
                        )
                        continue
                    }
                    entity.uniquenessConstraints.append(names)
                }
            case "fetchIndex", "compoundIndexes":
                writtenIndexes[name, default: []] += indexes(
                    child, named: name, numberedFrom: writtenIndexes[name, default: []].count + 1)
            case "userInfo":
                entity.userInfo = userInfo(child)
            case "fetchedProperty":
                note(child, "fetched property \(name).\(child["name"] ?? "") is not stored; ignored")
            default:
                note(child, "<\(child.name)> in entity \(name) is not understood; ignored")
            }
        }
        try checkColumns(entity, e)
        return entity
    }

    /// A `<fetchIndex>` (an R-tree kept as a plain index, said), or `<compoundIndexes>` (Xcode
    /// before fetch indexes: each compound index lists its properties).
    private mutating func indexes(_ child: ModelXML.Element, named name: String, numberedFrom n: Int) -> [WrittenIndex]
    {
        guard child.name == "fetchIndex" else {
            return child.children(named: "compoundIndex").enumerated().map { i, index in
                let elements = index.children(named: "index").compactMap { element in
                    element["value"].map { ($0, true, element) }
                }
                return WrittenIndex(name: "compound\(i + 1)", element: index, elements: elements)
            }
        }
        let elements = child.children(named: "fetchIndexElement")
        if let kind = elements.first(where: { $0["type"] == "RTree" }) {
            note(kind, "fetch index \(child["name"] ?? "") of \(name) is an R-tree; kept as a plain index")
        }
        return [
            WrittenIndex(
                name: child["name"] ?? "index\(n)", element: child,
                elements: elements.map { ($0["property"] ?? "", $0["order"] != "descending", $0) })
        ]
    }

    /// A fetch (or compound) index of `entity` (its inherited properties resolved) without its
    /// elements that name a to-many relationship: a to-many has no column to index, and Core
    /// Data loads such a model (an app's model has one), so the element is left out with a note
    /// rather than the model refused. Nil, with a note, when nothing is left to index.
    mutating func fetchIndex(_ index: WrittenIndex, of entity: EntityDescription) -> FetchIndexDescription? {
        var kept: [(property: String, ascending: Bool)] = []
        for e in index.elements {
            if entity.relationship(e.property)?.isToMany == true {
                note(
                    e.element,
                    "index \(index.name) of \(entity.name) names the to-many \(e.property), which has no column: "
                        + "left out of the index")
            } else {
                kept.append((e.property, e.ascending))
            }
        }
        guard !kept.isEmpty else {
            if !index.elements.isEmpty {
                note(index.element, "index \(index.name) of \(entity.name) has nothing left to index: no index is made")
            }
            return nil
        }
        return FetchIndexDescription(index.name, elements: kept)
    }

    func unique(_ property: String, _ e: ModelXML.Element, in entity: String, _ seen: inout [String: Int])
        throws(ModelFileError)
    {
        if let first = seen[property] {
            throw fail(e, "\(entity).\(property) is declared twice (first on line \(first))")
        }
        seen[property] = e.line
    }

    /// Constraints and indexes name properties the entity has, its inherited ones included (an
    /// index on an inherited attribute lives on the root's table, which holds its column); the
    /// engine constrains attributes.
    func checkConstraints(_ entity: EntityDescription, _ e: ModelXML.Element) throws(ModelFileError) {
        let lineOf = { (tag: String) -> ModelXML.Element in e.children.first { $0.name == tag } ?? e }
        for constraint in entity.uniquenessConstraints {
            for name in constraint where entity.attribute(name) == nil {
                let message =
                    entity.relationship(name) != nil
                    ? "the uniqueness constraint of \(entity.name) names relationship \(name): the engine constrains attributes only"
                    : "the uniqueness constraint of \(entity.name) names \(name), which is not an attribute of \(entity.name)"
                throw fail(lineOf("uniquenessConstraints"), message)
            }
        }
        for index in entity.fetchIndexes {
            for element in index.elements
            where entity.attribute(element.property) == nil
                && !(entity.relationship(element.property).map { !$0.isToMany } ?? false)
            {
                throw fail(
                    lineOf(index.name.hasPrefix("compound") ? "compoundIndexes" : "fetchIndex"),
                    "index \(index.name) of \(entity.name) names \(element.property), which is not an attribute or to-one of \(entity.name)"
                )
            }
        }
    }

    // MARK: What the store can lay out

    /// Two entities whose tables would have one name (`Item` and `ITEM` are both `ZITEM`:
    /// SQLite's names ignore case) are refused. The store's own tables (`Z_PRIMARYKEY`,
    /// `Z_METADATA`) cannot be met: an entity name begins with a letter, so its table never
    /// begins `Z_`.
    func checkTables(_ entities: [EntityDescription], lines: [String: ModelXML.Element]) throws(ModelFileError) {
        var tables: [String: String] = [:]
        for entity in entities {
            let table = EntityDescription.storedName(entity.name)
            if let other = tables[table] {
                throw fail(
                    lines[entity.name]!,
                    "entities \(other) and \(entity.name) would share the table \(table) "
                        + "(a table's name is Z + the upper-cased entity name): rename one")
            }
            tables[table] = entity.name
        }
    }

    /// Properties whose columns would share a name (`name` and `nAme` are both `ZNAME`) are refused
    /// when the model is read, before anything runs. There is no limit on an entity's properties
    /// beside SQLite's on its table (`checkLayout`; Core Data has none).
    func checkColumns(_ entity: EntityDescription, _ e: ModelXML.Element) throws(ModelFileError) {
        var columns: [String: String] = [:]
        let stored = entity.relationships.filter { !$0.isToMany }.map(\.name) + entity.attributes.map(\.name)
        for property in stored {
            let column = EntityDescription.storedName(property)
            if let other = columns[column] {
                throw fail(
                    e,
                    "\(entity.name).\(other) and \(entity.name).\(property) would share the column \(column) "
                        + "(a column's name is Z + the upper-cased property name): rename one")
            }
            columns[column] = property
        }
    }

    /// The model laid out once as the engine will lay it out, so that what only the whole layout
    /// shows (a hierarchy's table wider than SQLite allows) is refused here with its line, not
    /// when a run creates the store.
    func checkLayout(_ entities: [EntityDescription], lines: [String: ModelXML.Element], root: ModelXML.Element)
        throws(ModelFileError)
    {
        do {
            _ = try ManagedObjectModel(entities)
        } catch let error as ModelError {
            throw fail(
                error.entity.flatMap { lines[$0] } ?? root,
                error.description.replacingOccurrences(of: "model: ", with: ""))
        } catch {
            throw fail(root, "\(error)")
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
