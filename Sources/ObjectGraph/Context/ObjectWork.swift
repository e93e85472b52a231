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
    /// Did-save notifications posted, and the objects they named.
    package var saveNotifications = 0
    package var objectsInSaveNotifications = 0

    package init() {}
}
