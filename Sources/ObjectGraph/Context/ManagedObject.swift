/// An object in a context: a row's values, its relationships to other objects of the same
/// context, and what changed since it was fetched.
///
/// Not Sendable, on purpose: a managed object belongs to its context and is touched only on the
/// context's queue (checked at run time in concurrency-debug mode). Pass `objectID` between
/// queues and look the object up in the other context.
package final class ManagedObject: Hashable, CustomStringConvertible {
    /// Temporary until saved (or `obtainPermanentIDs`), then the row's permanent ID.
    package internal(set) var objectID: ManagedObjectID
    package let entity: Entity
    /// Nil after the context was reset or the object otherwise forgotten.
    package internal(set) weak var managedObjectContext: ManagedObjectContext?

    // MARK: State (touched only on the context's queue)

    /// Attribute values in the entity's attribute order; empty while a fault.
    var values: [Value]
    /// To-one targets in the entity's to-one order.
    var toOne: [ManagedObject?]
    /// To-many members, created on first use.
    var toMany: [Set<ManagedObject>?]
    /// Bit i set: to-many i holds every member (loaded from the store, or the object is new).
    var loadedToMany = PropertyMask()
    /// Many-to-many members, created on first use; bit i of `loadedManyToMany` set once
    /// many-to-many i holds every member.
    var manyToMany: [Set<ManagedObject>?] = []
    var loadedManyToMany = PropertyMask()
    /// Members given to a to-many that is not loaded yet: listed, not hashed into a set, and
    /// checked when it loads (one that points elsewhere by then is dropped). Relating thousands
    /// of new objects to a fetched category never builds the category's set.
    var pendingMembers: [(index: Int, member: ManagedObject)] = []
    /// The store's values when last fetched or saved (nil for an inserted object).
    var committed: [Value]?
    var committedToOne: [ManagedObjectID?]?
    /// `Z_OPT` when last fetched or saved.
    var version: Int64 = 0
    /// Attributes (position i) and to-ones (`entity.toOnePosition(i)`) changed since `committed`.
    var changed = PropertyMask()
    /// To-manys (bit i) that gained or lost a member since `committed`. No column changes, but
    /// the object is updated: its save bumps `Z_OPT` under the optimistic lock, as Core Data's
    /// does for the other side of a changed relationship.
    var touchedToMany = PropertyMask()
    package internal(set) var isFault: Bool
    package internal(set) var isInserted = false
    package internal(set) var isDeleted = false
    /// In the context's updated list (so it is listed once).
    var isListedUpdated = false
    /// Changed since the context last processed its changes (in its `recentChanges`).
    var isRecentlyChanged = false
    /// Who observes the object's attributes (`ManagedObject+Observation`); nil for most.
    var observationInfo: ObservationInfo?
    /// Taken at the first change since the last save (`ObjectSnapshot`).
    var snapshot: ObjectSnapshot?
    /// The row the save in progress writes (`StoredRow(populating:)`), handed to the row cache
    /// after the commit.
    var savedRow: StoredRow?
    /// A fetch with `fetchBatchSize` groups faults; firing one loads its whole batch.
    var batch: FaultBatch?
    /// The `Z_PK` reserved for an inserted object by the save in progress (0: none).
    var reservedKey: Int64 = 0
    /// Per to-one with an ordered inverse: this object's position in the owner's ordered to-many,
    /// given by the save that writes it (empty for entities without one).
    var orderKeys: [Int64?] = []
    /// An inserted object merged into another by a uniqueness conflict: it takes that one's ID.
    weak var mergedInto: ManagedObject?
    /// The attribute the context's `PendingIndex` filed this object under (-1: not filed).
    var pendingIndexAttribute = -1
    /// This object's snapshot is counted as a hold on the coordinator's `RowCache` entry.
    var holdsCachedRow = false
    /// A fault fetched with `propertiesToFetch` holds those values (attribute i at index i, bit
    /// i of the mask) and to-ones (`toOne[i]`, `entity.toOnePosition(i)`): read without firing.
    var prefetched: [Value] = []
    var prefetchedMask = PropertyMask()

    init(entity: Entity, id: ManagedObjectID, context: ManagedObjectContext, fault: Bool) {
        self.entity = entity
        self.objectID = id
        self.managedObjectContext = context
        self.isFault = fault
        self.values = fault ? [] : entity.defaults
        self.toOne = Array(repeating: nil, count: entity.toOne.count)
        self.toMany = entity.toMany.isEmpty ? [] : Array(repeating: nil, count: entity.toMany.count)
        if entity.hasOrderKeys { self.orderKeys = Array(repeating: nil, count: entity.toOne.count) }
    }

    /// Drops what a `propertiesToFetch` fetch left: the object is filled, or a plain fault again.
    @inline(__always)
    func forgetPrefetched() {
        guard !prefetchedMask.isEmpty else { return }
        prefetched = []
        prefetchedMask = PropertyMask()
    }

    // MARK: Identity

    package static func == (a: ManagedObject, b: ManagedObject) -> Bool { a === b }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    package var description: String {
        "<\(entity.name) \(objectID)\(isFault ? " fault" : "")\(isInserted ? " inserted" : "")"
            + "\(isDeleted ? " deleted" : "")\(isUpdated ? " updated" : "")>"
    }

    // MARK: Attributes

    /// The value of attribute `key`. Fires the fault first if the object is one.
    package func value(forKey key: String) -> Value {
        value(at: attributeIndex(key))
    }

    /// Sets attribute `key`; the object becomes updated when the value differs from the store's.
    package func setValue(_ value: Value, forKey key: String) {
        setValue(value, at: attributeIndex(key))
    }

    /// Attribute access by name: `expense["amount"] = .double(12.5)`.
    package subscript(key: String) -> Value {
        get { value(forKey: key) }
        set { setValue(newValue, forKey: key) }
    }

    /// The value of the attribute at `index` (`entity.attributeIndex(_:)`), without a name lookup.
    @inline(__always)
    package func value(at index: Int) -> Value {
        let context = checkedContext()
        if isFault {
            if prefetchedMask.contains(index) { return prefetched[index] }
            context.fireFault(self)
        }
        return values[index]
    }

    /// Sets the attribute at `index`, without a name lookup: the hot path for imports.
    @inline(__always)
    package func setValue(_ value: Value, at index: Int) {
        if _slowPath(observationInfo != nil) {   // willChangeValueForKey:/didChangeValueForKey:
            if isFault { checkedContext().fireFault(self) }   // the old value is the stored one
            let old = values[index]
            setObservedValue(value, at: index)
            return didChangeValue(at: index, from: old)
        }
        setObservedValue(value, at: index)
    }

    /// The set itself, between the two observation calls.
    @inline(__always)
    private func setObservedValue(_ value: Value, at index: Int) {
        if _slowPath(pendingIndexAttribute == index) && values.indices.contains(index) && values[index] != value {
            managedObjectContext?.pendingIndexMove(self, from: values[index], to: value)
        }
        if isInserted && !ConcurrencyDebug.isEnabled {
            // The import's hot path. An inserted object is no fault, and its context is alive
            // (reset, rollback and the context's end invalidate it, which clears isInserted):
            // no need to load the weak context reference, and all a new object records is the bit.
            values[index] = value
            changed.insert(index)
            if _slowPath(!isRecentlyChanged) { managedObjectContext?.noteRecentChange(self) }
            return
        }
        let context = checkedContext()
        if isFault { context.fireFault(self) }
        establishSnapshot(in: context)   // before the change, as willChangeValueForKey: takes it
        values[index] = value
        markChanged(position: index, differs: committed.map { $0[index] != value } ?? true, in: context)
    }

    // MARK: To-one relationships

    /// The object a to-one relationship points to (a fault when not fetched yet).
    package func object(forKey key: String) -> ManagedObject? {
        object(at: toOneIndex(key))
    }

    /// Points to-one `key` at `target` (or nil), keeping the inverse (a to-many, or the other side
    /// of a one-to-one) in step.
    /// Throws `ContextError.crossContextRelationship` when `target` belongs to another context.
    package func setObject(_ target: ManagedObject?, forKey key: String) throws {
        try setObject(target, at: toOneIndex(key))
    }

    @inline(__always)
    package func object(at index: Int) -> ManagedObject? {
        let context = checkedContext()
        if isFault {
            if prefetchedMask.contains(entity.toOnePosition(index)) { return toOne[index] }
            context.fireFault(self)
        }
        return toOne[index]
    }

    @inline(__always)
    package func setObject(_ target: ManagedObject?, at index: Int) throws {
        let context = checkedContext()
        if let target, target.managedObjectContext !== context {
            throw ContextError.crossContextRelationship(
                relationship: entity.toOne[index].name,
                source: objectID, destination: target.objectID)
        }
        if isFault { context.fireFault(self) }
        let old = toOne[index]
        if old === target { return }
        establishSnapshot(in: context)
        if let old, !old.isFault { old.establishSnapshot(in: context) }
        if let target, !target.isFault { target.establishSnapshot(in: context) }
        toOne[index] = target
        if let inverse = entity.toOne[index].inverseToMany {
            if entity.toOne[index].orderKeyColumn != nil {   // an ordered set is asked first whether it holds us
                if let old { context.fireOrderedToMany(of: old, index: inverse) }
                if let target { context.fireOrderedToMany(of: target, index: inverse) }
            }
            old?.removeMember(self, toMany: inverse)
            target?.addMember(self, toMany: inverse)
            old?.touch(toMany: inverse, in: context)
            target?.touch(toMany: inverse, in: context)
        } else if let inverse = entity.toOne[index].inverseToOne {
            pairOneToOne(old: old, target: target, index: index, inverse: inverse, in: context)
        }
        // Marked after the other side (Core Data's updated objects are a set; the save's order
        // follows the marking, and the exact-SQL tests pin it).
        setPrimitiveToOne(target, at: index, in: context)
    }

    /// The stored side of a to-one change: the value and its change bit.
    @inline(__always)
    func setPrimitiveToOne(_ target: ManagedObject?, at index: Int, in context: ManagedObjectContext) {
        establishSnapshot(in: context)
        toOne[index] = target
        let differs = committedToOne.map { $0[index] != target?.objectID } ?? true
        markChanged(position: entity.toOnePosition(index), differs: differs, in: context)
    }

    /// A one-to-one keeps both rows' columns in step, as Core Data's inverse maintenance does: the
    /// old partner lets go of this object, the target lets go of its old partner (whose own
    /// column is cleared: one object on each side at most), and the target points back here.
    private func pairOneToOne(
        old: ManagedObject?, target: ManagedObject?, index: Int, inverse: Int,
        in context: ManagedObjectContext
    ) {
        if let old {
            if old.isFault { context.fireFault(old) }
            if old.toOne[inverse] === self { old.setPrimitiveToOne(nil, at: inverse, in: context) }
        }
        guard let target else { return }
        if target.isFault { context.fireFault(target) }
        if let previous = target.toOne[inverse], previous !== self {
            if previous.isFault { context.fireFault(previous) }
            if previous.toOne[index] === target { previous.setPrimitiveToOne(nil, at: index, in: context) }
        }
        target.setPrimitiveToOne(self, at: inverse, in: context)
    }

    // MARK: To-many relationships

    /// The members of to-many `key` (loaded from the store on first use).
    package func objects(forKey key: String) -> Set<ManagedObject> {
        if let m = entity.manyToManyIndex(key) { return manyToManyMembers(m) }
        guard let index = entity.toManyIndex(key) else {
            preconditionFailure("\(entity.name) has no to-many relationship '\(key)'")
        }
        let context = checkedContext()
        if isFault { context.fireFault(self) }
        if !loadedToMany.contains(index) { context.loadToMany(of: self, index: index) }
        return toMany[index] ?? []
    }

    /// Adds `member` to to-many `key` by pointing the member's inverse to-one at this object.
    package func addObject(_ member: ManagedObject, forKey key: String) throws {
        if let m = entity.manyToManyIndex(key) { return try relate(member, manyToMany: m, joined: true) }
        guard let index = entity.toManyIndex(key) else {
            preconditionFailure("\(entity.name) has no to-many relationship '\(key)'")
        }
        try member.setObject(self, at: entity.toMany[index].inverseToOne)
    }

    func addMember(_ member: ManagedObject, toMany index: Int) {
        guard loadedToMany.contains(index) else {
            pendingMembers.append((index, member))
            return
        }
        if toMany[index] == nil { toMany[index] = [] }
        toMany[index]!.insert(member)
    }

    /// Records that to-many `index` changed: a saved object becomes updated (its save checks and
    /// bumps `Z_OPT`). A fault stays one: the save reads the version of every such fault it
    /// writes, together (`Z_PK IN (…)`). An inserted or deleted object writes its row anyway.
    @inline(__always)
    func touch(toMany index: Int, in context: ManagedObjectContext) {
        context.noteRecentChange(self)
        if !isFault { establishSnapshot(in: context) }
        if isInserted || isDeleted { return }
        touchedToMany.insert(index)
        if _slowPath(!isListedUpdated) {
            isListedUpdated = true
            context.noteUpdated(self)
        }
    }

    /// A pending member needs nothing here: loading drops members that point elsewhere.
    func removeMember(_ member: ManagedObject, toMany index: Int) {
        toMany[index]?.remove(member)
    }

    /// Marks to-many `index` as holding every member, moving in the pending ones that still
    /// point here. The store's members are added by the caller (before or after).
    func markLoaded(toMany index: Int) {
        loadedToMany.insert(index)
        if toMany[index] == nil { toMany[index] = [] }
        guard !pendingMembers.isEmpty else { return }
        let inverse = entity.toMany[index].inverseToOne
        pendingMembers.removeAll { entry in
            guard entry.index == index else { return false }
            let member = entry.member
            if member.toOne.indices.contains(inverse), member.toOne[inverse] === self { toMany[index]!.insert(member) }
            return true
        }
    }

    // MARK: Change state

    /// True when the object has unsaved changes to its attributes or relationships.
    package var isUpdated: Bool { !isInserted && !isDeleted && (!changed.isEmpty || !touchedToMany.isEmpty) }

    /// True when saving would write something for this object.
    package var hasChanges: Bool { isInserted || isDeleted || !changed.isEmpty || !touchedToMany.isEmpty }

    /// The changed attributes and to-ones, by name (to-ones as the target's object ID or nil).
    package func changedValues() -> [String: Value] {
        _ = checkedContext()
        var out: [String: Value] = [:]
        for (i, a) in entity.attributes.enumerated() where isInserted || changed.contains(i) {
            out[a.name] = values[i]
        }
        for (i, r) in entity.toOne.enumerated() where isInserted || changed.contains(entity.toOnePosition(i)) {
            out[r.name] = toOne[i].map { .string($0.objectID.uriRepresentation) } ?? .null
        }
        return out
    }

    @inline(__always)
    private func markChanged(position: Int, differs: Bool, in context: ManagedObjectContext) {
        context.noteRecentChange(self)
        // An inserted object writes every column; its bits only record what was set, for merges.
        if isInserted {
            changed.insert(position)
            return
        }
        changed.update(position, to: differs)
        if (!changed.isEmpty || !touchedToMany.isEmpty) && !isListedUpdated {
            isListedUpdated = true
            context.noteUpdated(self)
        }
    }

    // MARK: Lookups and checks

    @inline(__always)
    func checkedContext() -> ManagedObjectContext {
        guard let context = managedObjectContext else {
            preconditionFailure(
                "\(entity.name) \(objectID) was used after its context was reset or released; "
                    + "fetch it again with its objectID")
        }
        context.assertOnQueue()
        return context
    }

    private func attributeIndex(_ key: String) -> Int {
        guard let i = entity.attributeIndex(key) else {
            preconditionFailure("\(entity.name) has no attribute '\(key)'")
        }
        return i
    }

    private func toOneIndex(_ key: String) -> Int {
        guard let i = entity.toOneIndex(key) else {
            preconditionFailure("\(entity.name) has no to-one relationship '\(key)'")
        }
        return i
    }

    /// Forgets everything, breaking reference cycles through relationships (used by reset).
    func invalidate() {
        managedObjectContext = nil
        isInserted = false
        values = []
        toOne = []
        toMany = []
        manyToMany = []
        pendingMembers = []
        committed = nil
        committedToOne = nil
        snapshot = nil
        savedRow = nil
        observationInfo = nil   // its blocks may hold the object
        batch = nil
    }
}

/// Faults from one `fetchBatchSize` batch: firing any of them loads them all in one query.
final class FaultBatch {
    var members: [ManagedObject]
    let walk: BatchWalk
    init(_ members: [ManagedObject], walk: BatchWalk) {
        self.members = members
        self.walk = walk
    }
}

/// The batches of one fetch with `fetchBatchSize`, walked in turn: when a batch loads, the one
/// loaded before it goes back to faults (unchanged objects only), so walking a long list holds
/// one batch of values at a time. Touching a left object loads its batch again.
///
/// The walk holds the loaded batch's objects, and only faults point back at it (through their
/// batch), so no cycle outlives the walk: a reset invalidates the faults and lets it go.
final class BatchWalk {
    private var loaded: [ManagedObject] = []

    func leave(for next: FaultBatch, in context: ManagedObjectContext) {
        var left: [ManagedObject] = []
        let staying = Set(next.members.map(ObjectIdentifier.init))
        for member in loaded where !member.isFault && member.batch == nil && !staying.contains(ObjectIdentifier(member))
        {
            context.turnIntoFault(member)
            if member.isFault { left.append(member) }
        }
        if !left.isEmpty {
            let again = FaultBatch(left, walk: self)
            for member in left { member.batch = again }
        }
        loaded = next.members
    }
}
