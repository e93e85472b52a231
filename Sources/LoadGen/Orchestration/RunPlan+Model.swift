import Foundation
import ObjectGraph
import Strategies
import Workload

/// The model of a run: read and its roles found before anything runs, so that a broken model or
/// a role it leaves ambiguous is one line naming the flag, and a strategy that needs a role the
/// model lacks is refused by name while the others run.
extension RunPlan {
    /// Resolves every configuration's model, records the roles found in model runs' rows, and
    /// drops the configurations whose strategy the model cannot serve (listed in `refused`).
    mutating func checkModels() throws {
        var kept: [RunConfiguration] = []
        var refusedHere: [(strategy: String, reason: String)] = []
        var scans = ScanNotes()
        scanning = []
        for var c in configurations {
            let (source, shape) = try resolveModel(&c)
            if let strategy = c.writeStrategy, let reason = source.refusal(of: strategy, shape: shape) {
                if !refusedHere.contains(where: { $0.strategy == strategy.name }) {
                    refusedHere.append((strategy.name, reason))
                }
                continue
            }
            if let strategy = c.writeStrategy {
                let found = source.scans(for: strategy)
                scans.add(found, model: source.file.name, strategy: c.strategy)
                // A scan of the records' own table grows with the rows a repetition writes; one of
                // a parent's table (--parents rows) does not.
                if found.contains(where: { $0.entity == source.roles.entity }) { scanning.insert(c) }
            }
            let capacity = try ImportModel(source, options: c.shapeOptions).keyCapacity
            if c.uniqueKeys > capacity {
                throw CommandError.usage(
                    "run: --rows: \(c.uniqueKeys) unique keys do not fit \(source.roles.entity).\(source.roles.key[0]) "
                        + "(its type and the model's Min/Max hold \(capacity) distinct keys); give fewer rows")
            }
            kept.append(c)
        }
        // Refused in some configuration and run in another (a sweep of --add-constraint): not refused.
        refused = refusedHere.filter { r in !kept.contains { $0.strategy == r.strategy } }
        guard !kept.isEmpty || configurations.isEmpty else {
            throw CommandError.usage(
                "run: nothing to run: " + refusedHere.map { "\($0.strategy) \($0.reason)" }.joined(separator: "; "))
        }
        configurations = kept
        modelNotes += scans.lines
    }

    /// `c`'s model read and its roles found (a model run's roles written into `c`, so children
    /// resolve the same), its records' shape, and what the run notes about them.
    private mutating func resolveModel(_ c: inout RunConfiguration) throws -> (ImportSource, RecordShape) {
        let source: ImportSource
        do { source = try ImportSource.resolve(c) } catch let error as ImportModelError { throw Self.modelError(error) }
        if c.model.path != nil {
            c.workload.attributeBytes = try Self.resolveAttributeBytes(c.workload.attributeBytes, source)
            try Self.checkMembers(c.model.members, source)
            try Self.checkManyToMany(c, source)
            c.model.entity = source.roles.entity
            c.model.key = source.roles.key
            c.model.relationship = source.roles.relationshipChoice
            noteOnce(source)
        } else if let added = c.model.addedConstraint, Set(added) != Set(source.roles.key) {
            let line = ImportSource.secondConstraintNote(added, entity: source.roles.entity, key: source.roles.key)
            if !modelNotes.contains(line) { modelNotes.append(line) }
        }
        let shape: RecordShape
        do { shape = try source.shape(c.shapeOptions) } catch let error as ImportModelError {
            throw Self.modelError(error)
        }
        if c.model.path != nil, c.input == nil {
            // Every size as generated goes with the configuration: its children, its row, the review page.
            c.workload.attributeBytes = Self.payloadSizes(shape)
            if let line = Self.payloadNote(shape, payloadBytes: c.workload.payloadBytes), !modelNotes.contains(line) {
                modelNotes.append(line)
            }
        }
        if c.input == nil, let problem = shape.keyProblem {
            throw Self.modelError(ImportModelError(problem, kind: .malformed))
        }
        if source.roles.key.isEmpty, c.input == nil, c.workload.dupRate > 0 {
            throw CommandError.usage(
                "run: --dup-rate \(c.workload.dupRate): \(source.roles.entity) has no key, so no record repeats "
                    + "another; give --dup-rate 0, or --key ATTRIBUTE")
        }
        noteTargets(c, source, shape)
        return (source, shape)
    }

    /// The lookups without an index the run's strategies make, each said once with every
    /// strategy that makes it (decision 0039).
    private struct ScanNotes {
        private var found: [(scan: ImportSource.Scan, model: String, strategies: [String])] = []

        mutating func add(_ scans: [ImportSource.Scan], model: String, strategy: String) {
            for scan in scans {
                if let i = found.firstIndex(where: { $0.scan == scan && $0.model == model }) {
                    if !found[i].strategies.contains(strategy) { found[i].strategies.append(strategy) }
                } else {
                    found.append((scan, model, [strategy]))
                }
            }
        }

        var lines: [String] { found.map { $0.scan.note(strategies: $0.strategies, model: $0.model) } }
    }

    /// The size assumed for generated Binary and Transformable values, which moves what a save
    /// costs (a 4 KB default against 256 bytes moved batch ÷ context-reset from 1.05 to 1.44 on one
    /// model): said with the attributes it applies to, so a team sets it to what its app stores.
    /// What an update or delete on a team's model selects and writes, said once.
    private mutating func noteTargets(_ c: RunConfiguration, _ source: ImportSource, _ shape: RecordShape) {
        guard c.model.path != nil, c.operation == .update || c.operation == .delete, let target = shape.targetField
        else { return }
        let update = shape.updateField.map { "; an update writes \(shape.fields[$0].name)" } ?? ""
        let line =
            "  \(c.operation.rawValue)s target the \(source.roles.entity) records whose \(shape.fields[target].name) "
            + "is below the cutoff (the first date, else number, attribute)" + (c.operation == .update ? update : "")
        if !modelNotes.contains(line) { modelNotes.append(line) }
    }

    /// The size of each generated Binary or Transformable value, by `Entity.attribute`.
    static func payloadSizes(_ shape: RecordShape) -> [String: Int] {
        let entity = shape.entity
        let parent = shape.parentEntity ?? ""
        let sized =
            shape.fields.filter { !shape.parentKey.contains(shape.fields.firstIndex(of: $0)!) }.map { (entity, $0) }
            + shape.parentFields.map { (parent, $0) }
        return Dictionary(
            sized.compactMap { owner, f -> (String, Int)? in
                if case .payload(let n) = f.generation { return ("\(owner).\(f.name)", n) } else { return nil }
            }, uniquingKeysWith: { first, _ in first })
    }

    static func payloadNote(_ shape: RecordShape, payloadBytes: Int) -> String? {
        let sizes = payloadSizes(shape)
        guard !sizes.isEmpty else { return nil }
        let each = sizes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value) bytes" }.joined(separator: ", ")
        return
            "  assumed: generated Binary/Transformable values: \(each) (--payload-bytes \(payloadBytes) unless the attribute "
            + "is an indexed Binary, 16, a Transformable of a Foundation class, the archive of a value with "
            + "\(ArchivedValueSize.elements) elements, or its Max Length caps it): --attribute-bytes ATTRIBUTE=N sets one to "
            + "what your app stores"
    }

    /// A many-to-many is filled by imports of generated records with a key: its pairs are matched
    /// by the records' key, and a feed's arrays of members are not read yet.
    static func checkManyToMany(_ c: RunConfiguration, _ source: ImportSource) throws {
        guard let name = c.model.manyToMany else { return }
        if c.input != nil {
            throw CommandError.usage(
                "run: --many-to-many \(name) with --input: members are generated, a feed's arrays of them are not "
                    + "read yet; drop --input to measure the pairs, or --many-to-many to import the feed")
        }
        if c.operation != .import {
            throw CommandError.usage(
                "run: --many-to-many \(name) fills a many-to-many as records are imported; give --operation import")
        }
        if source.roles.key.isEmpty {
            throw CommandError.usage(
                "run: --many-to-many \(name): \(source.roles.entity) has no key to tell its pairs apart by; give --key ATTRIBUTE"
            )
        }
    }

    /// `--map` names a property of the records' or the related entity (`Entity.property` or
    /// `property`); a name that is neither is a usage error with the choices.
    static func checkMembers(_ members: [String: String], _ source: ImportSource) throws {
        guard !members.isEmpty else { return }
        let entities = [source.roles.entity, source.roles.parentEntity].compactMap { $0 }.compactMap(
            source.file.entity(named:))
        let properties = entities.flatMap { e in
            (e.attributes.map(\.name) + e.relationships.map(\.name)).map { "\(e.name).\($0)" }
        }
        for name in members.keys.sorted() where !properties.contains(where: { $0 == name || $0.hasSuffix("." + name) })
        {
            throw CommandError.usage(
                "run: --map \(name)=\(members[name]!): not a property of \(entities.map(\.name).joined(separator: " or ")) "
                    + "(Entity.property or property, as the model names it: one of \(properties.prefix(12).joined(separator: ", "))"
                    + (properties.count > 12 ? ", …" : "") + ")")
        }
    }

    /// `--attribute-bytes` names resolved to `Entity.attribute` of the records' or the related
    /// entity, each a Binary or Transformable attribute; a name that is neither is a usage error.
    static func resolveAttributeBytes(_ sizes: [String: Int], _ source: ImportSource) throws -> [String: Int] {
        guard !sizes.isEmpty else { return [:] }
        let entities = [source.roles.entity, source.roles.parentEntity].compactMap { $0 }.compactMap(
            source.file.entity(named:))
        let sized = entities.flatMap { e in
            e.attributes.filter { $0.type == .binary || $0.type == .transformable }.map { "\(e.name).\($0.name)" }
        }
        var resolved: [String: Int] = [:]
        for (name, bytes) in sizes {
            let full = name.contains(".") ? name : sized.first { $0.hasSuffix("." + name) }
            guard let full, sized.contains(full) else {
                let choices =
                    sized.isEmpty
                    ? "none: \(entities.map(\.name).joined(separator: " and ")) hold no Binary or Transformable attribute"
                    : "one of: " + sized.joined(separator: ", ")
                throw CommandError.usage(
                    "run: --attribute-bytes \(name): not a Binary or Transformable attribute of what the run writes (\(choices))"
                )
            }
            resolved[full] = bytes
        }
        return resolved
    }

    private mutating func noteOnce(_ source: ImportSource) {
        let lines =
            ["model \(source.file.name) (\(source.file.path)): records are \(source.roles.entity)"]
            + source.roles.explanation.map { "  " + $0 }
            + source.file.notes(about: Set([source.roles.entity] + (source.roles.parentEntity.map { [$0] } ?? []))).map
        { "  " + $0 }
        for line in lines where !modelNotes.contains(line) { modelNotes.append(line) }
    }

    /// A model that cannot be used: missing (66), unreadable or malformed (65), or leaving a role
    /// open (64).
    static func modelError(_ error: ImportModelError) -> CommandError {
        switch error.kind {
        case .missing: return CommandError(message: "run: " + error.message, exitCode: ExitCode.noInput)
        case .malformed: return CommandError(message: "run: " + error.message, exitCode: ExitCode.dataError)
        case .roles: return CommandError.usage("run: " + error.message)
        }
    }
}
