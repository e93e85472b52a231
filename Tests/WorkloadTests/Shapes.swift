@testable import Workload

/// Shapes built in code, as Strategies derives them from the bundled models: the tests of
/// Workload know fields, not models.
enum Shapes {
    /// Expense(amount, date, externalID, note) → Category(name), fields in column order.
    static let expenses: RecordShape = {
        var shape = RecordShape(
            entity: "Expense",
            fields: [
                FieldSpec("amount", .real, .cents(minimum: 1, maximum: 99_999)),
                FieldSpec("date", .date, .pastYear),
                FieldSpec("externalID", .text, .key(prefix: "ex-", suffix: ""), fileName: "id"),
                FieldSpec("note", .text, .words),
                FieldSpec("name", .text, .parentKey(names: .categories), fileName: "categoryName"),
            ], key: [2], arrayName: "expenses")
        shape.parentKey = [4]
        shape.parentEntity = "Category"
        shape.targetField = 1
        shape.updateField = 3
        return shape
    }()

    /// Photo(imageData, isSeen, remoteURL) → Album(name).
    static func photos(payloadBytes: Int = 100) -> RecordShape {
        var shape = RecordShape(
            entity: "Photo",
            fields: [
                FieldSpec("imageData", .bytes, .payload(bytes: payloadBytes)),
                FieldSpec("isSeen", .bool, .share(0.1)),
                FieldSpec("remoteURL", .text, .key(prefix: "https://img.example.com/p/", suffix: ".jpg")),
                FieldSpec("name", .text, .parentKey(names: .albums), fileName: "albumName"),
            ], key: [2], arrayName: "photos")
        shape.parentKey = [3]
        shape.parentEntity = "Album"
        return shape
    }
}

extension Record {
    /// Field `f`'s text (tests only: allocates).
    func text(_ f: Int, pool: PayloadPool? = nil) -> String {
        values.withBytes(f, pool: pool) { String(decoding: $0, as: UTF8.self) }
    }
    /// Field `f`'s bytes.
    func bytes(_ f: Int, pool: PayloadPool?) -> [UInt8] { values.withBytes(f, pool: pool) { Array($0) } }
}
