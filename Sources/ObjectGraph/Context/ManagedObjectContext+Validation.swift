/// Validation at save, as Core Data runs it: `validateForInsert` on every inserted object and
/// `validateForUpdate` on every updated one, "invoked automatically by the framework when the
/// object's context is saved" (Apple's `NSManagedObject` documentation). Each checks every
/// property against the model: a required attribute or to-one left nil, a number outside its
/// minimum and maximum, a string or binary value outside its length limits, a loaded to-many
/// with fewer members than its `minCount` (unless optional and empty) or more than its `maxCount`. Batch requests do
/// not validate (they bypass the context, as `NSBatchInsertRequest` does).
extension ManagedObjectContext {
    /// `_prepareForPushChanges:`: the save's validation loop. Each pass validates the deleted,
    /// the inserted, and the changed objects that are neither (a set difference, as Core Data's
    /// `minusSet:`), then sends `willSave` to each; the context's changes are processed again and,
    /// if a pass changed anything, validated again (Core Data gives up after 1,000 passes:
    /// "The context is still dirty after 1000 attempts").
    func prepareForPushChanges(inserts: [ManagedObject], updates: [ManagedObject], deletes: [ManagedObject]) throws {
        var pass = 0
        repeat {
            pass += 1
            if pass > 1_000 { throw ContextError.stillDirty }
            var changed = Set(updates)
            changed.subtract(deletes)
            changed.subtract(inserts)
            let validUpdates = changed.count == updates.count ? updates : updates.filter(changed.contains)
            try validateForSave(inserts: inserts, updates: validUpdates, deletes: deletes)
            objectWork.validationPasses += 1
            objectWork.validated += inserts.count + validUpdates.count + deletes.count
            for group in [deletes, inserts, validUpdates] {
                for o in group { o.entity.lifecycle.willSave(o) }
                objectWork.willSave += group.count
            }
        } while processPendingChanges()
    }

    /// `didSave` to every saved object, after the commit (`_didSaveChanges`).
    func sendDidSave(inserts: [ManagedObject], updates: [ManagedObject], deletes: [ManagedObject]) {
        for group in [inserts, deletes, updates] {
            for o in group { o.entity.lifecycle.didSave(o) }
            objectWork.didSave += group.count
        }
    }

    /// Walks the objects the save writes and throws every failure at once.
    func validateForSave(inserts: [ManagedObject], updates: [ManagedObject], deletes: [ManagedObject] = []) throws {
        var failures: [ValidationFailure] = []
        for o in inserts { validate(o, into: &failures) }
        for o in updates where !o.isFault { validate(o, into: &failures) }
        for o in deletes { validateForDelete(o, into: &failures) }
        guard failures.isEmpty else { throw ContextError.validation(failures) }
    }

    /// `validateForDelete`: an object whose Deny relationship still holds an object that is not
    /// deleted too cannot be deleted (Apple: "An object cannot be deleted if it has a relationship
    /// has a "deny" delete rule and that relationship has a destination object"; 1600).
    private func validateForDelete(_ o: ManagedObject, into failures: inout [ValidationFailure]) {
        let e = o.entity
        for (i, r) in e.toOne.enumerated() where r.deleteRule == .deny {
            if let target = o.toOne[i], !target.isDeleted {
                failures.append(ValidationFailure(entity: e.name, attribute: r.name, code: .relationshipDeniedDelete))
            }
        }
        for r in e.toMany where r.deleteRule == .deny {
            if o.objects(forKey: r.name).contains(where: { !$0.isDeleted }) {
                failures.append(ValidationFailure(entity: e.name, attribute: r.name, code: .relationshipDeniedDelete))
            }
        }
    }

    private func validate(_ o: ManagedObject, into failures: inout [ValidationFailure]) {
        let e = o.entity
        for (i, a) in e.attributes.enumerated() where !a.isOptional || a.hasLimits {
            if let code = ValidationFailure.Code(o.values[i], a) {
                failures.append(ValidationFailure(entity: e.name, attribute: a.name, code: code))
            }
        }
        for (i, r) in e.toOne.enumerated() where !r.isOptional && o.toOne[i] == nil {
            failures.append(ValidationFailure(entity: e.name, attribute: r.name, code: .missingMandatoryProperty))
        }
        // A to-many not loaded is not counted: that would cost a query per object per save,
        // and its members cannot have changed without loading it or pointing their to-ones here.
        for (i, r) in e.toMany.enumerated() where (r.minCount != nil || r.maxCount != nil) && o.loadedToMany.contains(i)
        {
            if let code = ValidationFailure.Code(count: o.toMany[i]?.count ?? 0, r) {
                failures.append(ValidationFailure(entity: e.name, attribute: r.name, code: code))
            }
        }
    }
}

extension AttributeDescription {
    /// Whether the model gives the attribute a minimum or maximum. An optional attribute without
    /// them accepts every value, so validation skips it without measuring the value: counting a
    /// string's characters per object per save was 5 % of a context import's instructions.
    var hasLimits: Bool { minimum != nil || maximum != nil }
}

/// One value that failed validation, with Core Data's error code.
package struct ValidationFailure: Sendable, Equatable, CustomStringConvertible {
    package enum Code: Int, Sendable {
        case relationshipDeniedDelete = 1600
        case missingMandatoryProperty = 1570
        case relationshipLacksMinimumCount = 1580
        case relationshipExceedsMaximumCount = 1590
        case numberTooSmall = 1610
        case numberTooLarge = 1620
        case stringTooLong = 1660
        case stringTooShort = 1670

        /// The failure of a to-many holding `count` members, or nil when it is valid: the order of
        /// `-[NSRelationshipDescription _nonPredicateValidateValue:forKey:inObject:error:]` (an
        /// empty optional to-many is valid before any bound is looked at).
        init?(count: Int, _ r: Entity.ToMany) {
            if count == 0 && r.isOptional { return nil }
            if let minimum = r.minCount, count < minimum {
                self = .relationshipLacksMinimumCount
                return
            }
            if let maximum = r.maxCount, count > maximum {
                self = .relationshipExceedsMaximumCount
                return
            }
            return nil
        }

        /// The failure of `value` for `attribute`, or nil when it is valid.
        init?(_ value: Value, _ attribute: AttributeDescription) {
            let measure: Double?
            let small: Code
            let large: Code
            switch value {
            case .null:
                if attribute.isOptional { return nil }
                self = .missingMandatoryProperty
                return
            case .string(let s):
                measure = Double(s.count)
                (small, large) = (.stringTooShort, .stringTooLong)
            case .data(let d):
                measure = Double(d.count)
                (small, large) = (.stringTooShort, .stringTooLong)
            default:
                measure = value.doubleValue ?? value.int64Value.map(Double.init)
                (small, large) = (.numberTooSmall, .numberTooLarge)
            }
            guard let measure else { return nil }
            if let minimum = attribute.minimum, measure < minimum {
                self = small
                return
            }
            if let maximum = attribute.maximum, measure > maximum {
                self = large
                return
            }
            return nil
        }
    }

    package let entity: String
    package let attribute: String
    package let code: Code

    package var description: String {
        let what: String
        switch code {
        case .missingMandatoryProperty: what = "is required and nil"
        case .numberTooSmall: what = "is below its minimum"
        case .numberTooLarge: what = "is above its maximum"
        case .stringTooShort: what = "is shorter than its minimum length"
        case .stringTooLong: what = "is longer than its maximum length"
        case .relationshipLacksMinimumCount: what = "has fewer members than its minimum count"
        case .relationshipExceedsMaximumCount: what = "has more members than its maximum count"
        case .relationshipDeniedDelete: what = "denies the delete: it still holds objects"
        }
        return "\(entity).\(attribute) \(what) (\(code.rawValue))"
    }
}
