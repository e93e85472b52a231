import ObjectGraph
import Report

extension BundledModels {
    /// The expenses model with its keys protected as `key` says.
    static func expenses(key: KeyConstraint) -> ManagedObjectModel {
        try! ManagedObjectModel(
            key.apply(
                to: file(named: "Expenses").entities,
                keys: [("Expense", ["externalID"]), ("Category", ["name"])]))
    }
}

extension StoreVerifier.Layout {
    /// The expenses' records: keyed by externalID, related to a category by name.
    static var expenses: StoreVerifier.Layout {
        var layout = StoreVerifier.Layout(table: "ZEXPENSE", keyColumns: ["ZEXTERNALID"])
        layout.parent = .init(column: "ZCATEGORY", table: "ZCATEGORY", keyColumn: "ZNAME")
        return layout
    }
}
