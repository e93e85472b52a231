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
            guard let entity = file.entity(named: roles.entity) else { throw ImportModelError("--add-constraint: no records entity") }
            for name in added where entity.attribute(name) == nil {
                let names = entity.attributes.map(\.name).sorted().joined(separator: ", ")
                throw ImportModelError("--add-constraint \(added.joined(separator: ",")): \(name) is not an attribute of \(entity.name) "
                                       + "(one of: \(names)), or none")
            }
            file = file.adding(constraint: added, to: entity.name)
            roles = try ImportRoles.resolve(file, configuration.model)
        }
        let source = ImportSource(file: file, roles: roles)
        cache.withLock { $0[key] = source }
        return source
    }

    /// The records' shape: the same whatever a strategy does to the key's protection.
    package func shape(_ options: ShapeOptions) throws -> RecordShape {
        try ImportModel.shape(file.entity(named: roles.entity)!, roles.parentEntity.flatMap(file.entity(named:)),
                              members: roles.memberEntity.flatMap(file.entity(named:)), roles, options)
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
        if roles.key.isEmpty && (strategy.keyConstraint != .none || strategy.operation != .import) {
            return "needs a key to find records by, and \(roles.entity) has none (no uniqueness constraint or index): "
                + "give --key ATTRIBUTE to measure it"
        }
        if strategy.keyConstraint == .unique && !roles.keyIsUnique {
            return "needs a uniqueness constraint on the key (\(roles.entity).\(roles.key.joined(separator: "+")) has none in "
                + "\(file.name)): add one to the model to measure it"
        }
        if strategy.resolvesRelatedObjects && roles.relationship == nil {
            return "resolves related objects, and \(roles.entity) relates to none here"
        }
        if let missing = OperationRoles.missing(strategy.operation, in: shape) {
            return "cannot \(strategy.operation.rawValue): \(missing)"
        }
        return nil
    }
}

extension ImportSource {
    /// Members of an import file that no field reads, each with what it probably is in the model:
    /// a relationship of the record entity (a to-many's array imports in a run of its own entity),
    /// or an attribute named alike but for its case, so a team sees what to map (issue 28).
    package func explainIgnored(_ members: [String]) -> [String] {
        guard let entity = file.entity(named: roles.entity) else { return members }
        return members.map { m in
            if let r = entity.relationship(m) {
                if r.isToMany {
                    let back = r.inverse.map { " --relationship \($0)" } ?? ""
                    return "\(m) (the to-many \(entity.name).\(m) → \(r.destination): its objects import with --entity \(r.destination)"
                        + "\(back) --input-path <this array>/*/\(m))"
                }
                return "\(m) (the to-one \(entity.name).\(m) → \(r.destination): --relationship \(m) resolves it)"
            }
            if let a = entity.attributes.first(where: { $0.name.lowercased() == m.lowercased() }) {
                return "\(m) (probably \(entity.name).\(a.name), which another member also names: --map \(a.name)=\(m) says which)"
            }
            return m
        }
    }
}
