import SQLiteKit

/// The coordinator's row cache, Core Data's `NSPersistentStoreCache`: the last known row of
/// every object some context holds a snapshot of, shared by all the coordinator's contexts.
///
/// Core Data fills it at the end of every save (`_executeSaveChangesRequest` registers each
/// inserted and updated row with `registerRow:forObjectID:options:` and forgets each deleted
/// one) and after every fetch (`-[NSSQLCore _cacheRows:]`), and a fault looks there before it
/// asks the store (`-[NSSQLCore newValuesForObjectWithID:withContext:error:]`:
/// `rowForObjectID:afterTimestamp:` first, the fault query only on a miss). A row lives while a
/// context holds it: contexts count their holds up and down
/// (`managedObjectContextDidRegisterObjectsWithIDs:` / `…DidUnregisterObjectsWithIDs:`, which
/// call `incrementRefCountForObjectID:` / `decrementRefCountForObjectID:`), and the last release
/// drops it. The staleness interval is Core Data's default (infinite: any cached row will do).
///
/// Contexts do not call it per object: each collects its changes (`RowCache.Change`) and hands
/// them over in one locked pass (`apply`) at the end of a fetch, a save or a reset.
final class RowCache: Sendable {
    /// One cached row and how many objects (in any context) hold its snapshot.
    private struct Entry {
        var row: StoredRow
        var holders: Int

        /// A context hands its changes over later than it made them: a row it read before
        /// another context's save must not replace the row that save wrote. `Z_OPT` only grows
        /// (batch requests, which bump it behind the cache, empty the cache).
        mutating func keepNewer(_ other: StoredRow) {
            if other.version >= row.version { row = other }
        }
    }

    /// What a context hands over, applied in order.
    enum Change {
        /// An object of the context took a snapshot of `row` (a fetch, a fault, a saved insert).
        case hold(StoredRow, ManagedObjectID)
        /// A row the context already holds was written (a saved update): its new contents.
        case replace(StoredRow, ManagedObjectID)
        /// The context let go of its snapshot (reset, turned back into a fault, its end).
        case release(ManagedObjectID)
        /// The row is gone (a saved delete): dropped whoever holds it.
        case forget(ManagedObjectID)
    }

    private let entries = Protected<[ManagedObjectID: Entry]>([:])

    /// The cached row for `id`, if some context holds it.
    func row(for id: ManagedObjectID) -> StoredRow? {
        entries.withLock { $0[id]?.row }
    }

    /// How many rows are cached (tests and reports).
    var count: Int { entries.withLock { $0.count } }

    /// Applies a context's changes in one locked pass.
    func apply(_ changes: [Change]) {
        guard !changes.isEmpty else { return }
        entries.withLock { table in
            // One hash per change: a look-up by index, then the change in place.
            for change in changes {
                switch change {
                case .hold(let row, let id):
                    if let i = table.index(forKey: id) {
                        table.values[i].keepNewer(row)
                        table.values[i].holders += 1
                    } else {
                        table[id] = Entry(row: row, holders: 1)
                    }
                case .replace(let row, let id):
                    // A holder whose row was dropped meanwhile (a batch request) holds it again.
                    if let i = table.index(forKey: id) {
                        table.values[i].keepNewer(row)
                    } else {
                        table[id] = Entry(row: row, holders: 1)
                    }
                case .release(let id):
                    guard let i = table.index(forKey: id) else { continue }
                    if table.values[i].holders <= 1 { table.remove(at: i) } else { table.values[i].holders -= 1 }
                case .forget(let id):
                    table[id] = nil
                }
            }
            Self.shrinkIfMostlyEmpty(&table)
        }
    }

    /// A Swift dictionary keeps its buckets when entries leave: after a context that held a big
    /// import resets, the table would keep 100,000 rows' worth (measured: 21 MB of the 148 MB an
    /// import of 100,000 objects took stayed allocated after `reset()`). Like CFDictionary, the
    /// table gives its storage back once it is mostly empty; a rebuild touches what is left, at
    /// most an eighth of what was removed.
    private static func shrinkIfMostlyEmpty(_ table: inout [ManagedObjectID: Entry]) {
        guard table.capacity > 16_384, table.count < table.capacity / 8 else { return }
        table = table.isEmpty ? [:] : Dictionary(minimumCapacity: table.count * 2).merging(table) { a, _ in a }
    }

    /// Drops every row: a batch request changed rows behind the contexts' backs (its own
    /// entity's, and through its triggers the other side's `Z_OPT`). What Core Data's batch
    /// executors do to the cache was not read; the engine drops it so that no fault is served a
    /// row the store no longer has. Holders keep their snapshots; their releases find nothing.
    func forgetAll() {
        entries.withLock { $0.removeAll() }
    }
}
