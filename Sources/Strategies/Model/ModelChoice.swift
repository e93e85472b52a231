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
    /// An index an entity is given (`--add-index`): the what-if of adding one to a model whose
    /// lookups scan. Nil: the model as it is.
    package var addedIndex: AddedIndex?
    /// The many-to-many each record relates members through (`--many-to-many NAME[.KEY]`).
    package var manyToMany: String?

    package init(path: String? = nil) { self.path = path }

    /// The value of `--relationship` that means "relate nothing".
    package static let noRelationship = "none"
}

/// `--add-index [ENTITY.]ATTRIBUTE[+ATTRIBUTE]`: an index over attributes of the records' entity,
/// or of the entity named before the dot (the related object's key: `Order.orderID`).
package struct AddedIndex: Codable, Hashable, Sendable {
    /// The entity; nil for the records' entity.
    package var entity: String?
    package var attributes: [String]

    package init(entity: String? = nil, attributes: [String]) {
        self.entity = entity
        self.attributes = attributes
    }

    /// Reads `text` as the option takes it; nil when it is not `[ENTITY.]ATTRIBUTE[+ATTRIBUTE]`.
    package init?(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let names = (parts.count == 2 ? parts[1] : parts[0]).split(separator: "+", omittingEmptySubsequences: false)
            .map(String.init)
        guard !names.contains(where: \.isEmpty), Set(names).count == names.count, parts.count == 1 || !parts[0].isEmpty
        else { return nil }
        self.init(entity: parts.count == 2 ? parts[0] : nil, attributes: names)
    }

    /// The option's value again (and the results cell).
    package var text: String { (entity.map { $0 + "." } ?? "") + attributes.joined(separator: "+") }
}

extension Dataset {
    /// The bundled model this dataset's records are written with.
    package var bundledModelName: String {
        switch self {
        case .expenses: "Expenses"
        case .photos: "Photos"
        }
    }
}
