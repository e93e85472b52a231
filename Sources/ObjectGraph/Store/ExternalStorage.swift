import Foundation

/// Core Data's external binary storage (`allowsExternalBinaryDataStorage`), as its save writes
/// it and its fetch reads it back.
///
/// `-[NSSQLSavePlan _populateRow:…]` (decompiled iOS 18.2) keeps a value of at most 0x20000
/// bytes (128 KiB) in its row and writes a larger one to a file named by a fresh UUID in
/// `-[NSSQLCore externalDataReferencesDirectory]`, `.<store name>_SUPPORT/_EXTERNAL_DATA` beside
/// the store (`_supportDirectoryPath`), first as `<UUID>.interim`, then renamed
/// (`+[_PFRoutines writePFExternalReferenceDataToInterimFile:]`,
/// `moveInterimFileToPermanentLocation:`). The column then holds what
/// `-[_PFExternalReferenceData initForExternalLocation:…]` makes: byte 2, the UUID's text and a
/// NUL for a file; byte 1 and the bytes for a value kept in the row. An in-memory store keeps
/// every value in its row. Only attributes that allow external storage are so framed.
package struct ExternalStorage: Sendable {
    /// The most bytes kept in the row.
    package static let threshold = 0x20000
    private static let inlineMark: UInt8 = 1
    private static let fileMark: UInt8 = 2

    /// The store's path; nil for an in-memory store (every value inline).
    private let storePath: String?

    package init(storePath: String, inMemory: Bool) {
        self.storePath = inMemory ? nil : storePath
    }

    /// `.<store name>_SUPPORT/_EXTERNAL_DATA` beside the store; nil for an in-memory store. Made
    /// when a value needs it (path arithmetic costs more than a save of small rows).
    package var directory: String? { storePath.map(Self.directory(forStore:)) }

    /// Where a store's external values live.
    package static func directory(forStore path: String) -> String {
        supportDirectory(forStore: path) + "/_EXTERNAL_DATA"
    }

    /// `.<store name without its extension>_SUPPORT` beside the store: what moves and goes with it.
    package static func supportDirectory(forStore path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let support = "." + url.deletingPathExtension().lastPathComponent + "_SUPPORT"
        return url.deletingLastPathComponent().appendingPathComponent(support).path
    }

    /// The column value for `value`: framed, and written to a file past the threshold.
    package func encode(_ value: Value) throws -> Value {
        guard case .data(let bytes) = value else { return value }
        guard let directory, bytes.count > Self.threshold else { return .data([Self.inlineMark] + bytes) }
        let name = UUID().uuidString
        let interim = directory + "/" + name + ".interim"
        if !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: interim))
        try FileManager.default.moveItem(atPath: interim, toPath: directory + "/" + name)
        return .data([Self.fileMark] + Array(name.utf8) + [0])
    }

    /// The value a column of an external-storage attribute holds: the bytes in the row, or the
    /// file's; unframed bytes (a store written otherwise) as they are.
    package func decode(_ value: Value) -> Value {
        guard case .data(let bytes) = value, let mark = bytes.first else { return value }
        if mark == Self.inlineMark { return .data(Array(bytes.dropFirst())) }
        guard mark == Self.fileMark, let directory, bytes.last == 0 else { return value }
        let name = String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self)
        guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { return .null }
        return .data(Array(data))
    }
}
