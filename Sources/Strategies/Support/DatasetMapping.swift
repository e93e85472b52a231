import ObjectGraph
import Report
import Workload

/// How a dataset's records map onto its model: which entity, which columns, which record field
/// fills which attribute. One place, so strategies and the verifier cannot disagree.
package struct DatasetMapping: Sendable {
    package let dataset: Dataset
    package let model: ManagedObjectModel
    package let recordEntity: EntityDescription
    package let parentEntity: EntityDescription

    package init(dataset: Dataset, key: KeyConstraint) {
        self.dataset = dataset
        model = dataset == .expenses ? BundledModels.expenses(key: key) : BundledModels.photos(key: key)
        recordEntity = model.entity(named: dataset.entityName)!
        parentEntity = model.entity(named: dataset.parentEntityName)!
    }

    /// The record field stored in each of the record entity's columns, in column order.
    package var recordFields: [RecordField] {
        recordEntity.columns.map { RecordField(property: $0.property, dataset: dataset) }
    }

    /// What the verifier reads.
    package var verifierLayout: StoreVerifier.Layout {
        var layout = StoreVerifier.Layout(table: recordEntity.tableName, keyColumn: "Z" + dataset.keyAttribute.uppercased(),
                                          parentColumn: "Z" + dataset.parentRelationship.uppercased(),
                                          parentTable: parentEntity.tableName, parentNameColumn: "ZNAME")
        layout.historyChangeTable = HistorySchema.changeTable
        return layout
    }
}

/// A field of `Record`, named by the attribute it fills.
package enum RecordField: Sendable, Equatable {
    case key, parent, amount, date, note, isSeen, imageData

    init(property: String, dataset: Dataset) {
        switch property {
        case dataset.keyAttribute: self = .key
        case dataset.parentRelationship: self = .parent
        case "amount": self = .amount
        case "date": self = .date
        case "note": self = .note
        case "isSeen": self = .isSeen
        case "imageData": self = .imageData
        default: preconditionFailure("no record field for attribute '\(property)' of \(dataset)")
        }
    }
}
