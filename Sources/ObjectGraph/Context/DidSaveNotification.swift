/// What a save changed, posted after it commits: the object IDs, and the saved state of each
/// inserted or updated object so that contexts merging it need no SQL.
package struct DidSaveNotification: Sendable {
    /// The saved state of one object.
    package struct ObjectState: Sendable {
        package let objectID: ManagedObjectID
        /// `Z_OPT` after the save.
        package let version: Int64
        /// Attribute values, in the entity's attribute order.
        package let values: [Value]
        /// To-one targets, in the entity's to-one order.
        package let toOne: [ManagedObjectID?]
    }

    package let insertedObjectIDs: [ManagedObjectID]
    package let updatedObjectIDs: [ManagedObjectID]
    package let deletedObjectIDs: [ManagedObjectID]
    /// Inserted and updated objects' saved state.
    package let states: [ObjectState]
    /// Which context saved (`ManagedObjectContext.identifier`), so it does not merge its own save.
    package let sourceContext: Int

    package var isEmpty: Bool { insertedObjectIDs.isEmpty && updatedObjectIDs.isEmpty && deletedObjectIDs.isEmpty }
}
