/// The related objects' own attributes as a nested feed gives them: each order's status and
/// total, read from the element holding its line items. A related object the import creates
/// gets these instead of generated values; attributes the element does not give keep the
/// model's defaults.
package final class FeedParents: Sendable {
    /// By related object index (`Record.parentIndex`): values of `RecordShape.parentFields`.
    private let values: [RecordValues]

    init(values: [RecordValues]) { self.values = values }

    /// The values the feed gave related object `parent`, nil when it gave none.
    package func values(of parent: Int) -> RecordValues? { values.indices.contains(parent) ? values[parent] : nil }

    /// The related objects' values of the nested feed at `path` (`file.json#/data/*/line_items`),
    /// read once; nil when the file is not nested or the related entity has no other attributes.
    package static func read(_ path: String, shape: RecordShape) throws -> FeedParents? {
        guard !shape.parentFields.isEmpty else { return nil }
        let reader = try RecordFileReader(path: path, shape: shape)
        guard reader.collection != nil else { return nil }
        var record = Record()
        while try reader.next(into: &record) {}
        return FeedParents(values: reader.parentValues)
    }
}
