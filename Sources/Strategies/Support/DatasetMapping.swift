import ObjectGraph
import Report
import Workload

/// How a dataset's records map onto its model: which entity, which columns, which record field
/// fills which attribute. One place, so strategies and the verifier cannot disagree.
public struct DatasetMapping: Sendable {
    public let dataset: Dataset
    public let model: ManagedObjectModel
    public let recordEntity: EntityDescription
    public let parentEntity: EntityDescription

    public init(dataset: Dataset, key: KeyConstraint) {
        self.dataset = dataset
        model = dataset == .expenses ? BundledModels.expenses(key: key) : BundledModels.photos(key: key)
        recordEntity = model.entity(named: dataset.entityName)!
        parentEntity = model.entity(named: dataset.parentEntityName)!
    }

    /// The record field stored in each of the record entity's columns, in column order.
    public var recordFields: [RecordField] {
        recordEntity.columns.map { RecordField(property: $0.property, dataset: dataset) }
    }

    /// What the verifier reads.
    public var verifierLayout: StoreVerifier.Layout {
        StoreVerifier.Layout(table: recordEntity.tableName, keyColumn: "Z" + dataset.keyAttribute.uppercased(),
                             parentColumn: "Z" + dataset.parentRelationship.uppercased(),
                             parentTable: parentEntity.tableName, parentNameColumn: "ZNAME")
    }
}

/// A field of `Record`, named by the attribute it fills.
public enum RecordField: Sendable, Equatable {
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
