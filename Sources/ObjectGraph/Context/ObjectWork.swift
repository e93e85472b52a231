import Synchronization

/// The per-object work a context has done, counted exactly as the engine does it (the object
/// layer Core Data pays for beside SQL, issue 43): what tests pin and runs report per row.
package struct ObjectWork: Sendable, Equatable {
    /// Objects-did-change notifications posted (`_processRecentChanges:`), and the objects they
    /// named in all (an object changed again after one is named again in the next).
    package var changeNotifications = 0
    package var objectsInChangeNotifications = 0
    /// Objects validated by saves (`validateForInsert/Update/Delete`), and passes of the save's
    /// validation loop (`_prepareForPushChanges:`: again while validation changed something).
    package var validated = 0
    package var validationPasses = 0
    /// `awakeFromInsert` and `awakeFromFetch` sent to objects (a fetched or fulfilled object gets
    /// the second each time its values are loaded).
    package var awakeFromInsert = 0
    package var awakeFromFetch = 0
    /// Objects fetch requests returned with their values, prefetching's included (a keys-first
    /// fetch's are counted when their values load, as Core Data's batch array holds IDs until
    /// then), and objects whose values a fault loaded (an object's own, its fetch batch's, a
    /// to-many's members, a save's).
    package var fetched = 0
    package var faulted = 0
    /// `willSave` and `didSave` sent to objects.
    package var willSave = 0
    package var didSave = 0
    /// Rows a save built from its objects (`StoredRow(populating:)`), one per inserted and
    /// updated object written.
    package var rowsPopulated = 0
    /// Snapshots taken of objects at their first change (`ObjectSnapshot`).
    package var snapshots = 0
    /// Attribute observers told of a set (key-value observation).
    package var observerNotifications = 0
    /// Objects a merge refreshed (`_mergeRefreshObject:`: turned into a fault, or given the saved
    /// values under their own changes).
    package var refreshed = 0
    /// Objects a merge took out of the context (another context's or a batch request's deletes
    /// of objects held here).
    package var removed = 0
    /// Did-save notifications posted, and the objects they named.
    package var saveNotifications = 0
    package var objectsInSaveNotifications = 0

    package init() {}

    /// Every count of `a` and `b` combined by `op`, field by field: once per save, fetch and
    /// reset, so written out (key paths cost ~20 times as much here).
    private static func combine(_ a: ObjectWork, _ b: ObjectWork, _ op: (Int, Int) -> Int) -> ObjectWork {
        var r = ObjectWork()
        r.changeNotifications = op(a.changeNotifications, b.changeNotifications)
        r.objectsInChangeNotifications = op(a.objectsInChangeNotifications, b.objectsInChangeNotifications)
        r.validated = op(a.validated, b.validated)
        r.validationPasses = op(a.validationPasses, b.validationPasses)
        r.awakeFromInsert = op(a.awakeFromInsert, b.awakeFromInsert)
        r.awakeFromFetch = op(a.awakeFromFetch, b.awakeFromFetch)
        r.fetched = op(a.fetched, b.fetched)
        r.faulted = op(a.faulted, b.faulted)
        r.willSave = op(a.willSave, b.willSave)
        r.didSave = op(a.didSave, b.didSave)
        r.rowsPopulated = op(a.rowsPopulated, b.rowsPopulated)
        r.snapshots = op(a.snapshots, b.snapshots)
        r.observerNotifications = op(a.observerNotifications, b.observerNotifications)
        r.refreshed = op(a.refreshed, b.refreshed)
        r.removed = op(a.removed, b.removed)
        r.saveNotifications = op(a.saveNotifications, b.saveNotifications)
        r.objectsInSaveNotifications = op(a.objectsInSaveNotifications, b.objectsInSaveNotifications)
        return r
    }

    package static func + (a: ObjectWork, b: ObjectWork) -> ObjectWork { combine(a, b, +) }
    package static func - (a: ObjectWork, b: ObjectWork) -> ObjectWork { combine(a, b, -) }

    /// Managed objects the context made, filled or merged: each inserted, each a fetch returned,
    /// each a fault filled, each a merge refreshed or took out. What a device pays per object
    /// (allocation, registration, values, the merge's bookkeeping) scales with it; the
    /// break-even of a recommendation is per one of these.
    package var objects: Int { awakeFromInsert + fetched + faulted + refreshed + removed }
}

/// The object work of every context of the coordinators that share it, added up: a context
/// hands over what it did since it last did so at the end of each save and fetch, at `reset()`
/// and when it goes (`ManagedObjectContext.foldObjectWork`), so a run reads one total, as it
/// reads one `StatementCounters`.
package final class ObjectWorkTally: Sendable {
    private let total = Mutex(ObjectWork())

    package init() {}

    func add(_ work: ObjectWork) { total.withLock { $0 = $0 + work } }

    /// What every context handed over so far.
    package func snapshot() -> ObjectWork { total.withLock { $0 } }
}
