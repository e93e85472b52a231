import ObjectGraph

/// The roles an import needs from a model: the entity records become, the attributes that key
/// a record, and the to-one relationship a find-or-create resolves with its destination's key.
///
/// Taken from the command line when given (`--entity`, `--key`, `--relationship`), else from the
/// model (its uniqueness constraints, fetch indexes and relationships); when the model leaves a
/// role ambiguous or missing, the error says which and lists the choices.
package struct ImportRoles: Sendable, Hashable {
    package var entity: String
    /// The record's key: one attribute, or several constrained together; empty for an entity
    /// nothing finds records of (no constraint, no index, no `--key`).
    package var key: [String]
    /// The key is one of the entity's uniqueness constraints (deduplicating strategies need one).
    package var keyIsUnique: Bool
    /// The to-one from record to related object, nil when records relate to nothing.
    package var relationship: String?
    /// The entity related objects are created as: the relationship's destination, or a concrete
    /// sub-entity of it (an abstract destination's).
    package var parentEntity: String?
    /// `parentEntity` is a sub-entity of the relationship's destination (`--relationship NAME:ENTITY`).
    package var parentIsSubentity = false
    /// The related entity's key attribute (its uniqueness constraint, or an indexed attribute);
    /// the first of `parentKeys` when its constraint holds several.
    package var parentKey: String?
    /// Every attribute the related object is found by: one, or a constraint of several together
    /// (a subscription found by server and topic).
    package var parentKeys: [String] = []
    package var parentKeyIsUnique = false
    /// The relationship is one-to-one: its inverse (named here) is a to-one too, so each record
    /// has a related object of its own, pointing back at it.
    package var parentInverse: String?
    /// The relationship's inverse when it is a to-many (`StoreApp.versions` for `AppVersion.app`):
    /// the array a feed may nest the records in, inside each related object.
    package var parentCollection: String?
    /// The record entity's many-to-many a run fills (`--many-to-many`), its destination and
    /// the attribute each member is found by.
    package var manyToMany: String?
    package var memberEntity: String?
    package var memberKey: String?
    /// How each role was found, for the run's notes.
    package var explanation: [String] = []

    /// Attribute types a generated key can have: distinct values are made for distinct keys.
    /// Binary too: apps key records by a UUID kept as 16 bytes (`remoteIdentifier_data`); and
    /// dates and numbers, as a forecast is found by its date (a value made from the key index is
    /// exact in a double). Not a Boolean, a Float (a key rounds in 32 bits) or a Transformable.
    static let keyTypes: Set<AttributeType> = identifierTypes.union([.date, .double, .decimal])
    /// The types an index makes a record's key without `--key`: an indexed date or number sorts a
    /// list (a tab history by `created`), it does not name a record.
    static let identifierTypes: Set<AttributeType> = [
        .string, .uri, .integer16, .integer32, .integer64, .uuid, .binary,
    ]
}

/// A model that does not give a strategy the roles it needs, or a role named wrongly: one line
/// naming the flag and the choices.
package struct ImportModelError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var kind: Kind
    package init(_ message: String, kind: Kind = .roles) {
        self.message = message
        self.kind = kind
    }
    package var description: String { message }

    /// What went wrong: a role left open or named wrongly (a usage error), a model file that
    /// cannot be read or honoured, or one that is not there.
    package enum Kind: Sendable, Equatable { case roles, malformed, missing }
}

extension ImportRoles {
    /// The roles of `file` for `choice`.
    package static func resolve(_ file: ModelFile, _ choice: ModelChoice) throws(ImportModelError) -> ImportRoles {
        let origin = "--model \(file.name)"
        let entity = try recordEntity(file, choice, origin)
        var roles = ImportRoles(entity: entity.name, key: [], keyIsUnique: false)
        try roles.findKey(entity, choice, origin)
        try roles.findRelationship(entity, file, choice, origin)
        try roles.findManyToMany(entity, file, choice, origin)
        return roles
    }

    private static func recordEntity(_ file: ModelFile, _ choice: ModelChoice, _ origin: String)
        throws(ImportModelError) -> EntityDescription
    {
        let concrete = file.entities.filter { !$0.isAbstract }
        guard !concrete.isEmpty else {
            throw ImportModelError(
                "\(origin): every entity of the model is abstract (\(file.entities.map(\.name).sorted().joined(separator: ", "))): "
                    + "records become objects of a concrete entity; untick Abstract Entity on one in Xcode")
        }
        let names = concrete.map(\.name).sorted().joined(separator: ", ")
        if let name = choice.entity {
            guard let entity = file.entity(named: name) else {
                throw ImportModelError("\(origin): --entity \(name) is not an entity of the model (one of: \(names))")
            }
            guard !entity.isAbstract else {
                throw ImportModelError("\(origin): --entity \(name) is abstract (one of: \(names))")
            }
            return entity
        }
        let marked = concrete.filter { $0.userInfo["loadgen.records"] == "YES" }
        if marked.count == 1 { return marked[0] }
        if concrete.count == 1 { return concrete[0] }
        // The shape of an import: a keyed entity that relates to another.
        let candidates = concrete.filter { e in
            !e.uniquenessConstraints.isEmpty && e.relationships.contains { !$0.isToMany }
        }
        if candidates.count == 1 { return candidates[0] }
        throw ImportModelError("\(origin): which entity do records become? give --entity NAME (one of: \(names))")
    }

    private mutating func findKey(_ entity: EntityDescription, _ choice: ModelChoice, _ origin: String)
        throws(ImportModelError)
    {
        let usable = entity.attributes.filter { Self.keyTypes.contains($0.type) }.map(\.name).sorted()
        let choices =
            "one of: "
            + (usable.isEmpty
                ? "none: \(entity.name) has no string, integer, UUID, binary, date or number attribute"
                : usable.joined(separator: ", "))
        if choice.key == [] {
            // Resolved before (a child process's configuration): the entity has no key.
            explanation.append(Self.keylessExplanation(entity))
            return
        }
        if let named = choice.key {
            for name in named where entity.attribute(name) == nil {
                throw ImportModelError("\(origin): --key \(name) is not an attribute of \(entity.name) (\(choices))")
            }
            key = named
            keyIsUnique = entity.uniquenessConstraints.contains { Set($0) == Set(named) }
            explanation.append(
                "key: \(entity.name).\(named.joined(separator: " + ")) (--key\(keyIsUnique ? ", its uniqueness constraint" : ", not constrained"))"
            )
        } else if entity.uniquenessConstraints.count == 1 {
            key = entity.uniquenessConstraints[0]
            keyIsUnique = true
            explanation.append("key: \(entity.name).\(key.joined(separator: " + ")) (its uniqueness constraint)")
        } else if entity.uniquenessConstraints.count > 1 {
            let listed = entity.uniquenessConstraints.map { $0.joined(separator: ",") }.joined(separator: "; ")
            throw ImportModelError(
                "\(origin): \(entity.name) has \(entity.uniquenessConstraints.count) uniqueness constraints "
                    + "(\(listed)): give --key ATTRIBUTE[,ATTRIBUTE] to say which keys a record")
        } else {
            let indexed = Self.indexedAttributes(entity).filter {
                Self.identifierTypes.contains(entity.attribute($0)!.type)
            }
            if indexed.isEmpty {
                // A log (page visits, tracker hits): nothing finds a record again, so the idioms
                // that insert without looking run, on generated records told apart by nothing.
                explanation.append(Self.keylessExplanation(entity))
                return
            }
            guard indexed.count == 1 else {
                throw ImportModelError(
                    "\(origin): \(entity.name) has no uniqueness constraint\(indexed.isEmpty ? " or index" : "") "
                        + "to find records by: give --key ATTRIBUTE (\(choices))")
            }
            key = indexed
            explanation.append(
                "key: \(entity.name).\(indexed[0]) (its index; no uniqueness constraint, so strategies that deduplicate through one do not run)"
            )
        }
        let first = entity.attribute(key[0])!
        guard Self.keyTypes.contains(first.type) else {
            throw ImportModelError(
                "\(origin): the key \(entity.name).\(first.name) is a \(first.type.rawValue) attribute; "
                    + "loadgen generates distinct keys for string, URI, integer, UUID, binary, date and number attributes (\(choices))"
            )
        }
    }

    static func keylessExplanation(_ entity: EntityDescription) -> String {
        "key: none (\(entity.name) has no uniqueness constraint or index: records are only inserted; "
            + "strategies that find records by a key do not run; --key ATTRIBUTE names one)"
    }

    /// Attributes with an index of their own (Xcode's "Indexed", or a one-attribute fetch index).
    static func indexedAttributes(_ entity: EntityDescription) -> [String] {
        let fromIndexes = entity.fetchIndexes.filter { $0.elements.count == 1 }.map { $0.elements[0].property }
        return Array(Set(entity.attributes.filter(\.isIndexed).map(\.name) + fromIndexes)).filter {
            entity.attribute($0) != nil
        }.sorted()
    }

    private mutating func findRelationship(
        _ entity: EntityDescription, _ file: ModelFile, _ choice: ModelChoice,
        _ origin: String
    ) throws(ImportModelError) {
        let toOnes = entity.relationships.filter { !$0.isToMany }.sorted { $0.name < $1.name }
        let listed = "one of: " + (toOnes.map(\.name) + [ModelChoice.noRelationship]).joined(separator: ", ")
        // `author.identifier`: the relationship, and the destination's attribute it is found by;
        // `parent:Folder.title`: the concrete entity related objects are created as.
        let path = choice.relationship?.split(separator: ".", maxSplits: 1).map(String.init)
        let namedKey = path.flatMap { $0.count == 2 ? $0[1] : nil }
        let head = path?.first?.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let r = try Self.chosenRelationship(head?.first, of: entity, toOnes: toOnes, listed: listed, origin)
        else {
            explanation.append(
                "relationship: none (records relate to nothing; strategies that resolve related objects do not run)")
            return
        }
        let destination = try Self.concreteDestination(
            of: r, named: head.flatMap { $0.count == 2 ? $0[1] : nil }, in: entity,
            file, key: namedKey, origin)
        guard destination.name != entity.name else {
            // Related objects would be rows of the records' own table, which the verifier counts
            // as records the workload never made.
            throw ImportModelError(
                "\(origin): \(entity.name).\(r.name) points back at \(entity.name); loadgen relates records "
                    + "to objects of another entity: give another --relationship, or none (\(listed))")
        }
        relationship = r.name
        parentEntity = destination.name
        parentIsSubentity = destination.name != r.destination
        try findDestinationKey(destination, named: namedKey, relationship: r, of: entity, origin)
        let created = destination.name == r.destination ? "" : " (a \(r.destination), created as \(destination.name))"
        explanation.append(
            "relationship: \(entity.name).\(r.name) → \(destination.name)\(created), found by \(parentKeys.joined(separator: " + "))"
                + (namedKey != nil
                    ? " (--relationship)" : parentKeyIsUnique ? " (its uniqueness constraint)" : " (its index)"))
        try findInverse(of: r, in: destination, origin)
    }

    /// The entity related objects are created as: the destination, or the concrete sub-entity
    /// `--relationship NAME:ENTITY` names. An app never creates an abstract entity's objects
    /// (Apple's Core Data Programming Guide: an abstract entity is one "you will not create any
    /// instances of"; the framework itself does not check, decompiled iOS 18.2), so an abstract
    /// destination needs a concrete one: its only concrete sub-entity, else the one named
    /// (refused otherwise, with the choices).
    private static func concreteDestination(
        of r: RelationshipDescription, named: String?, in entity: EntityDescription,
        _ file: ModelFile, key: String?, _ origin: String
    ) throws(ImportModelError) -> EntityDescription {
        let destination = file.entity(named: r.destination)!
        let concrete = file.entities.filter { !$0.isAbstract && file.lineage(of: $0).contains(destination.name) }
        let names = concrete.map(\.name).sorted()
        let choices =
            "one of: "
            + (names.isEmpty
                ? "none: every entity under \(destination.name) is abstract" : names.joined(separator: ", "))
        let keyText = key.map { "." + $0 } ?? ""
        if let named {
            guard let chosen = concrete.first(where: { $0.name == named }) else {
                throw ImportModelError(
                    "\(origin): --relationship \(r.name):\(named)\(keyText): \(named) is not a concrete entity "
                        + "\(entity.name).\(r.name) can point at (\(choices))")
            }
            return chosen
        }
        guard destination.isAbstract else { return destination }
        if concrete.count == 1 { return concrete[0] }
        throw ImportModelError(
            "\(origin): \(entity.name).\(r.name) points at the abstract \(destination.name), which an app "
                + "never instantiates: give --relationship \(r.name):ENTITY\(keyText) to say which entity related "
                + "objects are created as (\(choices)), or --relationship none")
    }

    /// The to-one `name` names (`none`: no relationship; nil: the entity's only to-one), after
    /// checking that no other to-one the model requires would be left empty.
    private static func chosenRelationship(
        _ name: String?, of entity: EntityDescription, toOnes: [RelationshipDescription],
        listed: String, _ origin: String
    ) throws(ImportModelError) -> RelationshipDescription? {
        var chosen: RelationshipDescription?
        switch name {
        case ModelChoice.noRelationship?:
            chosen = nil
        case let name?:
            guard let r = toOnes.first(where: { $0.name == name }) else {
                throw ImportModelError(
                    "\(origin): --relationship \(name) is not a to-one relationship of \(entity.name) (\(listed))")
            }
            chosen = r
        case nil:
            guard toOnes.count <= 1 else {
                throw ImportModelError(
                    "\(origin): \(entity.name) has \(toOnes.count) to-one relationships: give --relationship NAME "
                        + "to say which one records are related by (\(listed))")
            }
            chosen = toOnes.first
        }
        for r in toOnes where !r.isOptional && r.name != chosen?.name {
            throw ImportModelError(
                "\(origin): \(entity.name).\(r.name) is a required to-one that loadgen would leave empty: "
                    + "give --relationship \(r.name), or make it optional in the model")
        }
        return chosen
    }

    /// The attributes the related object is found by: the one `--relationship` names, its one
    /// one-attribute constraint, its one constraint of several, or its one index; each of a type
    /// a key can have.
    private mutating func findDestinationKey(
        _ destination: EntityDescription, named namedKey: String?,
        relationship r: RelationshipDescription, of entity: EntityDescription,
        _ origin: String
    ) throws(ImportModelError) {
        let single = destination.uniquenessConstraints.filter { $0.count == 1 }.map { $0[0] }
        let head = Self.choiceHead(r, destination)
        if let namedKey {
            try Self.checkNamedKey(namedKey, of: destination, relationship: r, single: single, origin)
            parentKey = namedKey
            parentKeyIsUnique = single.contains(namedKey)
        } else if single.count == 1 {
            parentKey = single[0]
            parentKeyIsUnique = true
        } else if single.isEmpty, destination.uniquenessConstraints.count == 1 {
            // Found by its one constraint of several attributes, as the app finds it.
            parentKeys = destination.uniquenessConstraints[0]
            parentKey = parentKeys[0]
            parentKeyIsUnique = true
        } else if single.isEmpty, let indexed = Self.indexedAttributes(destination).first,
            Self.indexedAttributes(destination).count == 1
        {
            parentKey = indexed
        } else {
            let indexed = Self.indexedAttributes(destination)
            let why =
                single.count > 1
                ? "has \(single.count) one-attribute uniqueness constraints"
                : destination.uniquenessConstraints.isEmpty && indexed.count > 1
                    ? "has no uniqueness constraint and \(indexed.count) indexed attributes (\(indexed.joined(separator: ", ")))"
                    : destination.uniquenessConstraints.isEmpty
                        ? "has no uniqueness constraint or index"
                        : "has \(destination.uniquenessConstraints.count) uniqueness constraints"
            throw ImportModelError(
                "\(origin): \(destination.name) \(why); loadgen finds or creates the object \(entity.name).\(r.name) "
                    + "points at by its key: give --relationship \(head).ATTRIBUTE, constrain one, "
                    + "or give --relationship none")
        }
        if parentKeys.isEmpty { parentKeys = [parentKey!] }
        for key in parentKeys {
            let keyType = destination.attribute(key)!.type
            guard Self.keyTypes.contains(keyType) else {
                throw ImportModelError(
                    "\(origin): \(destination.name).\(key) is a \(keyType.rawValue) attribute; "
                        + "related objects are keyed by string, URI, integer, UUID, binary, date or number attributes")
            }
        }
    }

    /// A key named by `--relationship r.key` exists, and is not one the model leaves free while it
    /// keeps another unique: two related objects with different names could share the
    /// constrained value, and the save then meets a conflict the workload never meant.
    private static func checkNamedKey(
        _ namedKey: String, of destination: EntityDescription, relationship r: RelationshipDescription,
        single: [String], _ origin: String
    ) throws(ImportModelError) {
        let head = choiceHead(r, destination)
        guard destination.attribute(namedKey) != nil else {
            let names = destination.attributes.filter { keyTypes.contains($0.type) }.map(\.name).sorted().joined(
                separator: ", ")
            throw ImportModelError(
                "\(origin): --relationship \(head).\(namedKey): \(destination.name) has no attribute \(namedKey) "
                    + "(one of: \(names))")
        }
        let others = destination.uniquenessConstraints.filter { !$0.contains(namedKey) }
        if !single.contains(namedKey), !others.isEmpty {
            let unique = others.map { $0.joined(separator: " + ") }.joined(separator: ", ")
            throw ImportModelError(
                "\(origin): --relationship \(head).\(namedKey): \(destination.name) is kept unique by \(unique), "
                    + "not \(namedKey); find it by its constrained key (--relationship \(head).\(single.first ?? others[0][0])) "
                    + "or constrain \(namedKey) in the model")
        }
    }

    /// `NAME` or `NAME:ENTITY`: how `--relationship` names `r` reaching `destination`.
    private static func choiceHead(_ r: RelationshipDescription, _ destination: EntityDescription) -> String {
        r.name + (destination.name == r.destination ? "" : ":" + destination.name)
    }

    /// The roles' relationship as `--relationship` says it (`none`, `folder:Folder.title`): what a
    /// child process resolves the same roles from (a key of several attributes is found again
    /// from the destination's constraint).
    package var relationshipChoice: String {
        guard let relationship, let parentEntity else { return ModelChoice.noRelationship }
        return relationship + (parentIsSubentity ? ":" + parentEntity : "")
            + (parentKeys.count == 1 ? "." + parentKeys[0] : "")
    }

    /// The relationship's inverse: a to-many names the array a feed may nest records in; a to-one
    /// makes it a one-to-one. A required to-one of the destination loadgen would leave empty is refused.
    private mutating func findInverse(
        of r: RelationshipDescription, in destination: EntityDescription,
        _ origin: String
    ) throws(ImportModelError) {
        if let inverse = r.inverse.flatMap(destination.relationship), inverse.isToMany {
            parentCollection = inverse.name
        }
        if let inverse = r.inverse.flatMap(destination.relationship), !inverse.isToMany {
            parentInverse = inverse.name
            explanation.append(
                "relationship: one-to-one (\(destination.name).\(inverse.name) points back): each record has a "
                    + "\(destination.name) of its own, so --parents does not apply")
        }
        for a in destination.relationships where !a.isToMany && !a.isOptional && a.name != parentInverse {
            throw ImportModelError(
                "\(origin): \(destination.name).\(a.name) is a required to-one that loadgen would leave empty "
                    + "when it creates a \(destination.name): make it optional in the model")
        }
    }
}

// MARK: A many-to-many

extension ImportRoles {
    /// `--many-to-many NAME[.KEY]`: a to-many of the records whose inverse is a to-many, and the
    /// destination's attribute its members are found by (its constraint or index, as a related
    /// object's key is found).
    fileprivate mutating func findManyToMany(
        _ entity: EntityDescription, _ file: ModelFile, _ choice: ModelChoice,
        _ origin: String
    ) throws(ImportModelError) {
        guard let text = choice.manyToMany else { return }
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        let all = entity.relationships.filter { r in
            r.isToMany && (r.inverse.flatMap { file.entity(named: r.destination)?.relationship($0) }?.isToMany ?? false)
        }
        let listed =
            "one of: "
            + (all.isEmpty
                ? "none: \(entity.name) has no many-to-many" : all.map(\.name).sorted().joined(separator: ", "))
        guard let r = all.first(where: { $0.name == parts[0] }) else {
            throw ImportModelError(
                "\(origin): --many-to-many \(parts[0]) is not a many-to-many of \(entity.name) (\(listed))")
        }
        let destination = file.entity(named: r.destination)!
        let single = destination.uniquenessConstraints.filter { $0.count == 1 }.map { $0[0] }
        let key =
            parts.count == 2
            ? parts[1]
            : single.first
                ?? (Self.indexedAttributes(destination).count == 1 ? Self.indexedAttributes(destination)[0] : nil)
        guard let key, let a = destination.attribute(key), Self.keyTypes.contains(a.type) else {
            let names = destination.attributes.filter { Self.keyTypes.contains($0.type) }.map(\.name).sorted().joined(
                separator: ", ")
            throw ImportModelError(
                "\(origin): --many-to-many \(text): give the attribute \(destination.name) objects are found by, "
                    + "--many-to-many \(r.name).ATTRIBUTE (one of: \(names))")
        }
        (manyToMany, memberEntity, memberKey) = (r.name, destination.name, key)
        explanation.append(
            "many-to-many: \(entity.name).\(r.name) → \(destination.name), found by \(key) "
                + "(--many-to-many; --members per record, out of --parents)")
    }
}
