/// What a save changed, posted after it commits: the object IDs, and the saved state of each
/// inserted or updated object so that contexts merging it need no SQL.
public struct DidSaveNotification: Sendable {
    /// The saved state of one object.
    public struct ObjectState: Sendable {
        public let objectID: ManagedObjectID
        /// `Z_OPT` after the save.
        public let version: Int64
        /// Attribute values, in the entity's attribute order.
        public let values: [Value]
        /// To-one targets, in the entity's to-one order.
        public let toOne: [ManagedObjectID?]
    }

    public let insertedObjectIDs: [ManagedObjectID]
    public let updatedObjectIDs: [ManagedObjectID]
    public let deletedObjectIDs: [ManagedObjectID]
    /// Inserted and updated objects' saved state.
    public let states: [ObjectState]
    /// Which context saved (`ManagedObjectContext.identifier`), so it does not merge its own save.
    public let sourceContext: Int

    public var isEmpty: Bool { insertedObjectIDs.isEmpty && updatedObjectIDs.isEmpty && deletedObjectIDs.isEmpty }
}
