import SQLiteKit

/// The names a model may give its entities and properties: what Xcode's model editor and Core
/// Data accept, checked when a model file is read, so that a name from a file never reaches SQL
/// as anything but a plain word (issue 27).
///
/// - Xcode's model editor takes letters, digits and underscores; an entity name begins with an
///   upper-case letter ("Entity names must begin with a capital letter"), a property name with a
///   lower-case one ("Name must begin with lower case letter").
/// - Apple's `NSPropertyDescription` documentation: "a property name cannot be the same as any
///   no-parameter method name of NSObject or NSManagedObject. For example, you cannot give a
///   property the name "description"." `reservedPropertyNames` lists those methods.
enum ModelNames {
    /// Why `name` cannot name an entity, or nil when it can.
    static func entityProblem(_ name: String) -> String? {
        guard SQLIdentifier.isPlainWord(name) else {
            return
                "entity name \"\(name)\" may hold only letters, digits and underscores (as Xcode's model editor allows)"
        }
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else {
            return "entity name \"\(name)\" must begin with an upper-case letter (as Xcode's model editor requires)"
        }
        return nil
    }

    /// Why `name` cannot name a property of an entity, or nil when it can.
    static func propertyProblem(_ name: String) -> String? {
        guard SQLIdentifier.isPlainWord(name) else {
            return
                "property name \"\(name)\" may hold only letters, digits and underscores (as Xcode's model editor allows)"
        }
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else {
            return "property name \"\(name)\" must begin with a lower-case letter (as Xcode's model editor requires)"
        }
        if reservedPropertyNames.contains(name) {
            return
                "property name \"\(name)\" is reserved: it is a method of NSObject or NSManagedObject, which Core Data refuses as a property name"
        }
        return nil
    }

    /// No-parameter methods of NSObject and NSManagedObject a property would hide (Apple:
    /// `NSPropertyDescription`), and `self`, which a predicate reads as the object itself.
    static let reservedPropertyNames: Set<String> = [
        // NSObject
        "autorelease", "class", "classForCoder", "classForKeyedArchiver", "copy", "dealloc", "debugDescription",
        "description", "finalize", "hash", "init", "isProxy", "mutableCopy", "release", "retain", "retainCount",
        "self", "superclass", "zone", "observationInfo", "classDescription", "attributeKeys", "toOneRelationshipKeys",
        "toManyRelationshipKeys", "objectSpecifier", "scriptingProperties", "classCode", "className",
        // NSManagedObject
        "entity", "objectID", "managedObjectContext", "isInserted", "isUpdated", "isDeleted", "isFault", "hasChanges",
        "hasPersistentChangedValues", "faultingState", "changedValues", "changedValuesForCurrentEvent",
        "awakeFromFetch", "awakeFromInsert", "awakeFromSnapshotEvents", "willSave", "didSave", "willTurnIntoFault",
        "didTurnIntoFault", "prepareForDeletion", "validateForDelete", "validateForInsert", "validateForUpdate",
        "willAccessValueForKey", "didAccessValueForKey", "contextShouldIgnoreUnmodeledPropertyChanges",
    ]
}
