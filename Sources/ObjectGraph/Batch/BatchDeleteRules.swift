/// Which delete rules an `NSBatchDeleteRequest` can carry out in its triggers, and which make
/// Core Data refuse the request with 134060, "Delete rule is not supported for batch deletes"
/// (`-[NSSQLiteAdapter generateTriggerForEntity:…]`, decompiled iOS 18.2 and tvOS 18.2.1): a Deny
/// rule on a to-one or to-many of the entity or of an entity its cascades reach, or a
/// many-to-many whose side is neither Nullify nor Cascade. One definition, read by the request
/// (`deleteTriggers`) and by a run that refuses `batch-delete` before it starts.
package enum BatchDeleteRules {
    /// A to-one's or to-many's rule the triggers can carry out.
    static func supports(_ rule: RelationshipDescription.DeleteRule) -> Bool { rule != .deny }

    /// A many-to-many's rules (its own and its inverse's) the triggers can carry out.
    static func supports(
        manyToMany rule: RelationshipDescription.DeleteRule, inverse: RelationshipDescription.DeleteRule
    ) -> Bool {
        [.nullify, .cascade].contains(rule) && [.nullify, .cascade].contains(inverse)
    }
}

extension ManagedObjectModel {
    /// The relationship (`Entity.name`) that makes Core Data refuse a batch delete of `entity`'s
    /// objects, following its cascades; nil when the request can run.
    package func batchDeleteRefusal(of entity: String) -> String? {
        guard let start = runtimeEntity(named: entity) else { return nil }
        var done: Set<String> = []
        var pending = [start]
        while let e = pending.popLast() {
            guard done.insert(e.tableName).inserted else { continue }
            for r in e.toOne {
                guard BatchDeleteRules.supports(r.deleteRule) else { return "\(e.name).\(r.name)" }
                if r.deleteRule == .cascade { pending.append(runtime[r.destination - 1]) }
            }
            for r in e.toMany {
                guard BatchDeleteRules.supports(r.deleteRule) else { return "\(e.name).\(r.name)" }
                if r.deleteRule == .cascade { pending.append(runtime[r.destination - 1]) }
            }
            for r in e.manyToMany {
                let destination = runtime[r.destination - 1]
                guard
                    BatchDeleteRules.supports(
                        manyToMany: r.deleteRule, inverse: destination.manyToMany[r.inverse].deleteRule)
                else {
                    return "\(e.name).\(r.name)"
                }
                if r.deleteRule == .cascade { pending.append(destination) }
            }
        }
        return nil
    }
}
