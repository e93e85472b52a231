import ObjectGraph
import Workload

/// Which model a run writes records with, and the roles named on the command line: a built-in
/// dataset's bundled model, or a team's own model file (`--model`).
package struct ModelChoice: Codable, Hashable, Sendable {
    /// The model file (`--model`): a `.xcdatamodeld` folder, a `.xcdatamodel` folder or a
    /// `contents` file. Nil: the dataset's bundled model.
    package var path: String?
    /// The entity records become (`--entity`); nil: found from the model.
    package var entity: String?
    /// The attributes that make up a record's key (`--key`); nil: the entity's uniqueness constraint.
    package var key: [String]?
    /// The to-one relationship a find-or-create resolves (`--relationship`; `none` for none); nil:
    /// the entity's only to-one.
    package var relationship: String?
    /// The import file's member for a property (`--map`: `Entity.property` or `property` →
    /// member), over its `mappedKeyName`.
    package var members: [String: String] = [:]
    /// A uniqueness constraint the records' entity is given (`--add-constraint`): the what-if of
    /// adding one to a model that deduplicates by fetching. Nil or empty: the model as it is.
    package var addedConstraint: [String]?
    /// The many-to-many each record relates members through (`--many-to-many NAME[.KEY]`).
    package var manyToMany: String?

    package init(path: String? = nil) { self.path = path }

    /// The value of `--relationship` that means "relate nothing".
    package static let noRelationship = "none"
}

extension Dataset {
    /// The bundled model this dataset's records are written with.
    package var bundledModelName: String { self == .expenses ? "Expenses" : "Photos" }
}
