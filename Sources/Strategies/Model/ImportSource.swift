import ObjectGraph
import SQLiteKit
import Workload

/// A model file with its roles resolved: what every job of a run reads its model from. Built once
/// per process and configuration (parsing and checking the file happens outside the measured
/// window).
package struct ImportSource: Sendable {
    package let file: ModelFile
    package let roles: ImportRoles

    /// The source `configuration` names: its `--model` file, or its dataset's bundled model.
    package static func resolve(_ configuration: RunConfiguration) throws -> ImportSource {
        let key = CacheKey(choice: configuration.model, dataset: configuration.workload.dataset)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        var file: ModelFile
        if let path = configuration.model.path {
            do { file = try ModelFile.read(path) } catch {
                throw ImportModelError("--model \(error)", kind: error.isMissing ? .missing : .malformed)
            }
        } else {
            file = BundledModels.file(named: configuration.workload.dataset.bundledModelName)
        }
        var roles = try ImportRoles.resolve(file, configuration.model)
        if let added = configuration.model.addedConstraint, !added.isEmpty {
            guard let entity = file.entity(named: roles.entity) else {
                throw ImportModelError("--add-constraint: no records entity")
            }
            for name in added where entity.attribute(name) == nil {
                let names = entity.attributes.map(\.name).sorted().joined(separator: ", ")
                throw ImportModelError(
                    "--add-constraint \(added.joined(separator: ",")): \(name) is not an attribute of \(entity.name) "
                        + "(one of: \(names)), or none")
            }
            file = file.adding(constraint: added, to: entity.name)
            // A key the model constrains stays the key: a constraint added on another attribute
            // is a second one (counted for duplicates), not a question of which keys a record.
            var choice = configuration.model
            if choice.key == nil, roles.keyIsUnique { choice.key = roles.key }
            roles = try ImportRoles.resolve(file, choice)
            if Set(added) != Set(roles.key) {
                roles.explanation.append(Self.secondConstraintNote(added, entity: entity.name, key: roles.key))
            }
        }
        if let index = configuration.model.addedIndex {
            // The roles stay as the model gives them: an index added to a key-less entity does
            // not make a key of it, so every point of a sweep imports the same records.
            file = try adding(index, to: file, records: roles.entity)
        }
        let source = ImportSource(file: file, roles: roles)
        cache.withLock { $0[key] = source }
        return source
    }

    /// What a constraint added on another attribute than the key does: the store has it (a UNIQUE
    /// index, as Core Data lays a constraint out) and a save checks it, but records are still found
    /// by their key: its index serves the save's conflict check only (issue 55, item 15).
    package static func secondConstraintNote(_ added: [String], entity: String, key: [String]) -> String {
        let names = added.joined(separator: "+")
        return
            "--add-constraint \(names): a second uniqueness constraint on \(entity) (its UNIQUE index in the store, checked "
            + "at each save); records are still found by \(key.isEmpty ? "nothing (no key)" : key.joined(separator: "+")), "
            + "its index serving the save's conflict check only; a feed repeating a \(names) under two keys is refused when read"
    }

    /// `file` with the index `--add-index` asks for, after checking its entity and attributes.
    private static func adding(_ index: AddedIndex, to file: ModelFile, records: String) throws -> ModelFile {
        let name = index.entity ?? records
        guard let entity = file.entity(named: name) else {
            let names = file.entities.map(\.name).sorted().joined(separator: ", ")
            throw ImportModelError(
                "--add-index \(index.text): \(name) is not an entity of \(file.name) (one of: \(names))")
        }
        for attribute in index.attributes where entity.attribute(attribute) == nil {
            let names = entity.attributes.map(\.name).sorted().joined(separator: ", ")
            throw ImportModelError(
                "--add-index \(index.text): \(attribute) is not an attribute of \(entity.name) (one of: \(names)), or none"
            )
        }
        return file.adding(index: index.attributes, to: entity.name)
    }

    /// The records' shape: the same whatever a strategy does to the key's protection.
    package func shape(_ options: ShapeOptions) throws -> RecordShape {
        do {
            return try ImportModel.shape(
                file.entity(named: roles.entity)!, roles.parentEntity.flatMap(file.entity(named:)),
                members: roles.memberEntity.flatMap(file.entity(named:)), roles, options)
        } catch let shared as ImportModel.SharedMember {
            throw shared.refusal(in: file)
        }
    }

    private struct CacheKey: Hashable, Sendable {
        let choice: ModelChoice
        let dataset: Dataset
    }
    private static let cache = Protected<[CacheKey: ImportSource]>([:])
}

extension ImportSource {
    /// Why `strategy` cannot run on this model's roles, nil when it can: the run refuses it by
    /// name while the others run.
    package func refusal(of strategy: any WriteStrategy, shape: RecordShape) -> String? {
        if roles.key.isEmpty && (strategy.keyNeed != .nothing || strategy.operation != .import) {
            return "needs a key to find records by, and \(roles.entity) has none (no uniqueness constraint or index): "
                + "give --key ATTRIBUTE to measure it"
        }
        if strategy.keyNeed == .uniqueness && !roles.keyIsUnique {
            let key = roles.key.joined(separator: "+")
            return
                "needs a uniqueness constraint on the key (\(roles.entity).\(key) has none in \(file.name)): --add-constraint "
                + "\(key) measures it as if the model had one; find-or-create and find-or-create-per-row deduplicate without one"
        }
        if strategy.resolvesRelatedObjects && roles.relationship == nil {
            return "resolves related objects, and \(roles.entity) relates to none here"
        }
        if let missing = OperationRoles.missing(strategy.operation, in: shape) {
            return "cannot \(strategy.operation.rawValue): \(missing)"
        }
        if strategy.operation == .delete, let model = try? ImportModel(self, options: ShapeOptions()),
            let refusal = DeleteRules(model)?.refusal(model)
        {
            return refusal
        }
        return strategy.refusal(on: self)
    }
}

extension ImportSource {
    /// A lookup `strategy` makes that no index of the store serves, so SQLite scans a table for
    /// each one: the records' key for the idioms that find records by it (`KeyNeed.index`), the
    /// related object's key for every idiom that finds related objects. What is missing and the
    /// `--add-index` value that measures the what-if; empty when every lookup has its index.
    package func scans(for strategy: any WriteStrategy) -> [Scan] {
        var found: [Scan] = []
        if strategy.keyNeed == .index, !roles.key.isEmpty, let entity = file.entity(named: roles.entity),
            !file.hasIndex(on: roles.key, of: entity)
        {
            found.append(
                Scan(
                    entity: entity.name, attributes: roles.key, what: "each lookup by key",
                    addIndex: roles.key.joined(separator: "+")))
        }
        let findsParents = strategy.operation == .import && !strategy.isLimit && strategy.expectations.linked
        if findsParents, let name = roles.parentEntity, !roles.parentKeys.isEmpty,
            let parent = file.entity(named: name),
            !file.hasIndex(on: roles.parentKeys, of: parent)
        {
            found.append(
                Scan(
                    entity: name, attributes: roles.parentKeys, what: "finding each related \(name)",
                    addIndex: name + "." + roles.parentKeys.joined(separator: "+")))
        }
        return found
    }

    /// A lookup without an index (see `scans(for:)`).
    package struct Scan: Hashable, Sendable {
        package var entity: String
        package var attributes: [String]
        /// What scans ("each lookup by key").
        package var what: String
        /// The value of `--add-index` that gives it an index.
        package var addIndex: String

        /// One line for the run's notes, naming the strategies that make the lookup.
        package func note(strategies: [String], model: String) -> String {
            "  \(entity).\(attributes.joined(separator: " + ")) has no index in \(model): \(what) scans \(entity)'s table "
                + "(\(strategies.joined(separator: ", "))); --add-index \(addIndex) measures the store with one"
        }
    }

    /// Members of an import file that no field reads, each with what it probably is in the model:
    /// a relationship of the record entity (a to-many's array imports in a run of its own entity),
    /// or an attribute named alike but for its case, so a team sees what to map (issue 28).
    package func explainIgnored(_ members: [String]) -> [String] {
        guard let entity = file.entity(named: roles.entity) else { return members }
        return members.map { m in
            if let r = entity.relationship(m) {
                if r.isToMany {
                    let back = r.inverse.map { " --relationship \($0)" } ?? ""
                    return
                        "\(m) (the to-many \(entity.name).\(m) → \(r.destination): its objects import with --entity \(r.destination)"
                        + "\(back) --input-path <this array>/*/\(m))"
                }
                return "\(m) (the to-one \(entity.name).\(m) → \(r.destination): --relationship \(m) resolves it)"
            }
            if let a = entity.attributes.first(where: { $0.name.lowercased() == m.lowercased() }) {
                return
                    "\(m) (probably \(entity.name).\(a.name), which another member also names: --map \(a.name)=\(m) says which)"
            }
            return m
        }
    }
}
