import SQLiteKit
import Synchronization

/// The identity of a row: immutable and Sendable, the one thing that may cross between contexts
/// and queues.
///
/// Temporary until the object is saved (or `obtainPermanentIDs` runs), then permanent: the store,
/// the entity and the row's `Z_PK`, printed as Core Data prints it (`x-coredata://UUID/Expense/p12`).
package struct ManagedObjectID: Hashable, Sendable, CustomStringConvertible {
    /// Index of the store's UUID in `StoreRegistry` (cheap to hash and compare).
    let store: UInt32
    /// `Z_ENT`.
    package let entityID: Int
    /// `Z_PK` when permanent; a process-unique number when temporary.
    let key: Int64
    package let isTemporaryID: Bool

    init(store: UInt32, entityID: Int, primaryKey: Int64) {
        self.store = store
        self.entityID = entityID
        self.key = primaryKey
        self.isTemporaryID = false
    }

    init(temporaryFor entityID: Int, store: UInt32) {
        self.store = store
        self.entityID = entityID
        self.key = Self.nextTemporary.wrappingAdd(1, ordering: .relaxed).newValue
        self.isTemporaryID = true
    }

    private static let nextTemporary = Atomic<Int64>(0)

    /// One word for the hasher instead of four fields: registries hash an ID per object saved,
    /// fetched or reset. The key tells rows of an entity apart; entity, store and kind fold in.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(
            UInt64(bitPattern: key) ^ UInt64(entityID) << 40 ^ UInt64(store) << 52
                ^ (isTemporaryID ? 1 << 63 : 0))
    }

    /// The row's `Z_PK`, nil while the ID is temporary.
    package var primaryKey: Int64? { isTemporaryID ? nil : key }

    /// `x-coredata://<store UUID>/<Entity>/p<Z_PK>` (or `t<n>` while temporary).
    package var uriRepresentation: String {
        let entity = StoreRegistry.entityName(store: store, entityID: entityID)
        return "x-coredata://\(StoreRegistry.uuid(of: store))/\(entity)/\(isTemporaryID ? "t" : "p")\(key)"
    }

    package var description: String { uriRepresentation }
}

/// Numbers store UUIDs for object IDs, and remembers entity names for printing them.
enum StoreRegistry {
    private static let state = Protected<(uuids: [String], models: [ManagedObjectModel?])>(([], []))

    /// The number for `uuid`, registering it the first time.
    static func index(of uuid: String, model: ManagedObjectModel?) -> UInt32 {
        state.withLock { s in
            if let i = s.uuids.firstIndex(of: uuid) {
                if s.models[i] == nil { s.models[i] = model }
                return UInt32(i)
            }
            s.uuids.append(uuid)
            s.models.append(model)
            return UInt32(s.uuids.count - 1)
        }
    }

    static func uuid(of index: UInt32) -> String {
        state.withLock { Int(index) < $0.uuids.count ? $0.uuids[Int(index)] : "unknown" }
    }

    static func entityName(store: UInt32, entityID: Int) -> String {
        state.withLock { s in
            guard Int(store) < s.models.count, let model = s.models[Int(store)], entityID >= 1,
                entityID <= model.entities.count
            else { return "Entity\(entityID)" }
            return model.entities[entityID - 1].name
        }
    }
}
