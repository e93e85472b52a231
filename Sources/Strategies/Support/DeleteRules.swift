import ObjectGraph
import Workload

/// What a delete of records removes beyond its targets, by the model's delete rules, as Core
/// Data carries them out (a context's `delete` and a batch delete's triggers alike; docs/ENGINE.md,
/// "Delete rules"): the records' to-one to their related object, and the related object's to-many
/// back. The checks of a delete expect what the rules remove, not only the targets (issue 54,
/// item 5).
struct DeleteRules {
    /// The rule on the records' to-one (deleting a record: its related object is …).
    let record: RelationshipDescription.DeleteRule
    /// The rule on the related object's to-many back to the records (deleting it: its records are …).
    let parent: RelationshipDescription.DeleteRule

    /// The rules of `model`'s relationship role; nil when records relate to nothing.
    init?(_ model: ImportModel) {
        guard let relationship = model.roles.relationship,
            let entity = model.model.runtimeEntity(named: model.recordEntity.name),
            let i = entity.toOneIndex(relationship)
        else { return nil }
        record = entity.toOne[i].deleteRule
        parent = entity.toOne[i].deleteRuleOfInverse(in: model.model)
    }

    /// A deleted record deletes its related object.
    var cascadesToParent: Bool { record == .cascade }
    /// A deleted related object deletes its other records (else they stay, their to-one cleared
    /// under Nullify, or left under No Action).
    var cascadesToSiblings: Bool { cascadesToParent && parent == .cascade }

    /// Why Core Data refuses the delete itself (1600: "An object cannot be deleted if it has a
    /// relationship has a 'deny' delete rule and that relationship has a destination object"):
    /// a record's to-one with Deny (every record has its related object), or a cascade into a
    /// related object whose to-many back is Deny while it still holds other records.
    func refusal(_ model: ImportModel) -> String? {
        let relationship = "\(model.recordEntity.name).\(model.roles.relationship ?? "")"
        if record == .deny {
            return
                "cannot delete: \(relationship) has the Deny rule and every record has its related object, so Core Data refuses "
                + "each delete (1600)"
        }
        if cascadesToParent && parent == .deny {
            return
                "cannot delete: \(relationship) cascades to the related object, whose to-many back has the Deny rule while it "
                + "holds other records, so Core Data refuses the delete (1600)"
        }
        return nil
    }

    /// The related objects (by index) of the records below `cutoff`: what a cascade deletes.
    static func cascadedParents(_ generator: Generator, field: Int, cutoff: Double) -> Set<Int> {
        var parents: Set<Int> = []
        var record = Record()
        for k in 0..<generator.plan.uniqueKeys {
            generator.fill(keyIndex: k, into: &record)
            if OperationTarget.position(of: record, field: field, shape: generator.shape) < cutoff {
                parents.insert(record.parentIndex)
            }
        }
        return parents
    }
}
