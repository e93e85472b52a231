/// Errors a context reports, with the wording Core Data users know.
package enum ContextError: Error, CustomStringConvertible, Equatable {
    /// Relating objects of two contexts (Core Data raises the same, as an exception).
    case crossContextRelationship(relationship: String, source: ManagedObjectID, destination: ManagedObjectID)
    /// `existingObject(with:)` found no such row.
    case objectNotFound(ManagedObjectID)
    /// The save met uniqueness-constraint conflicts and the merge policy is `.error`.
    case constraintConflict(entity: String, values: [String])
    /// The save met optimistic-locking conflicts (someone saved the rows first) and the merge
    /// policy is `.error` (Core Data's 133020, "Could not merge changes").
    case mergeConflict([ManagedObjectID])
    /// An inserted object still has a temporary ID another context cannot open.
    case temporaryObjectID(ManagedObjectID)
    /// A fetch named an entity the model does not have.
    case unknownEntity(String)
    /// A key in a predicate, sort or batch request is not an attribute or to-one of the entity.
    case unknownKey(String, entity: String)
    /// Objects failed validation at save (Core Data's 1550–1680 codes; 1560 when several).
    case validation([ValidationFailure])
    /// Validation kept changing objects (`willSave` overrides that always change something).
    case stillDirty
    /// A batch delete of an entity with a Deny rule (or a many-to-many whose side is neither
    /// Nullify nor Cascade): Core Data's 134060, "Delete rule is not supported for batch deletes".
    case unsupportedBatchDeleteRule(relationship: String)

    package var description: String {
        switch self {
        case .crossContextRelationship(let r, let s, let d):
            return "Illegal attempt to establish a relationship '\(r)' between objects in different contexts "
                + "(source = \(s), destination = \(d))"
        case .objectNotFound(let id):
            return "no object for \(id) in the store"
        case .constraintConflict(let entity, let values):
            return "constraint conflict: \(entity) already has \(values.prefix(5).joined(separator: ", "))"
                + (values.count > 5 ? " and \(values.count - 5) more" : "") + " (merge policy: error)"
        case .mergeConflict(let ids):
            return "Could not merge changes (133020): \(ids.count) object(s) were changed by someone else, "
                + "first \(ids.first.map(\.description) ?? "?")"
        case .temporaryObjectID(let id):
            return "\(id) is temporary: save the object (or obtain a permanent ID) before passing its ID on"
        case .unknownEntity(let name):
            return "the model has no entity '\(name)'"
        case .unknownKey(let key, let entity):
            return "\(entity) has no attribute or to-one relationship '\(key)'"
        case .stillDirty:
            return "the context is still dirty after 1000 attempts: willSave or validation keeps changing objects"
        case .validation(let failures):
            let first = failures.first.map(\.description) ?? "?"
            return failures.count == 1
                ? "validation failed: \(first)"
                : "validation failed for \(failures.count) values (1560), first: \(first)"
        case .unsupportedBatchDeleteRule(let relationship):
            return "Delete rule is not supported for batch deletes (134060): \(relationship)"
        }
    }
}

/// How a save resolves conflicts: Core Data's merge policies.
package enum MergePolicy: String, Sendable, CaseIterable {
    /// `NSErrorMergePolicy` (the default): the save fails and the context keeps its changes.
    case error
    /// `NSMergeByPropertyObjectTrumpMergePolicy`: the context's changed values win, property by property.
    case mergeByPropertyObjectTrump
    /// `NSMergeByPropertyStoreTrumpMergePolicy`: the store's values win, property by property.
    case mergeByPropertyStoreTrump
    /// `NSOverwriteMergePolicy`: the context's whole object replaces the store's.
    case overwrite
    /// `NSRollbackMergePolicy`: the context's conflicting changes are discarded.
    case rollback
}
