/// Everything that decides which records a run gets. Same spec, same records, on any machine.
package struct WorkloadSpec: Sendable, Hashable, Codable {
    package var dataset: Dataset = .expenses
    package var rows: Int = 100_000
    package var seed: UInt64 = 1
    /// Share of records that repeat an earlier key, in [0, 1).
    package var dupRate: Double = 0
    /// Share of those repeats that carry new values for the key's other attributes (`--update-rate`):
    /// a feed resends a record because it changed (a delta sync) or because a page overlapped or a
    /// request was retried (an exact copy). No public measurement splits the two; the default
    /// weighs them equally (`defaultUpdateRate`).
    package var updateRate: Double = WorkloadSpec.defaultUpdateRate
    /// Half of the repeats changed, half exact copies: see `updateRate`.
    package static let defaultUpdateRate = 0.5
    package var keyDistribution: KeyDistribution = .uniform
    /// The order new keys arrive in.
    package var keyOrder: KeyOrder = .ascending
    /// Number of categories (expenses).
    package var categories: Int = 50
    /// Number of albums (photos).
    package var albums: Int = 20
    /// Size of each generated binary value (photos' imageData, a model's binary attributes and
    /// Transformables of an app's own class).
    package var payloadBytes: Int = 4096
    /// A size of its own per Binary or Transformable attribute of a model run, by
    /// `Entity.attribute` (or `attribute`, before the run resolves it): `--attribute-bytes`,
    /// then, once resolved, every attribute's size as generated.
    package var attributeBytes: [String: Int] = [:]
    /// Lengths in bytes of a model run's generated strings that the model does not bound
    /// (`--string-length`).
    package var stringLength: ClosedRange<Int> = 8...32
    /// Related objects of a model run (`--parents`).
    package var modelParents: Int = 50
    /// Objects each record relates to through its many-to-many (`--members`), out of `parents`.
    package var members: Int = 3
    /// Whether the records come from a team's model (then `modelParents` counts related objects).
    package var usesModel = false

    package init() {}

    /// Where each record's key comes from.
    package var keyPlan: KeyPlan {
        KeyPlan(rows: rows, dupRate: dupRate, distribution: keyDistribution, seed: seed)
    }

    /// Distinct keys the stream holds: what a deduplicating strategy must store.
    package var uniqueKeys: Int { keyPlan.uniqueKeys }

    /// Number of distinct parents (categories or albums) records are spread over.
    package var parents: Int {
        guard !usesModel else { return modelParents }
        // A switch with no default: a third dataset must say what its related objects are.
        switch dataset {
        case .expenses: return categories
        case .photos: return albums
        }
    }
}
