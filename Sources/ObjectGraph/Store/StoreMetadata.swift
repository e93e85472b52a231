import Foundation

/// `Z_METADATA.Z_PLIST`: the store's metadata dictionary as a binary property list with the keys
/// Core Data writes (a notes app's store: `NSStoreType` "SQLite", `NSStoreModelVersionHashes`
/// with 32 bytes per entity, `NSStoreModelVersionHashesVersion` 3,
/// `NSStoreModelVersionIdentifiers`, `NSStoreModelVersionHashesDigest`,
/// `NSStoreModelVersionChecksumKey`, `NSPersistenceFrameworkVersion` and
/// `NSPersistenceMaximumFrameworkVersion` 1518, `_NSAutoVacuumLevel` "2"), plus loadgen's own
/// model hash (an app may add keys to the metadata; Core Data keeps them).
///
/// The per-entity hashes and the digest are the engine's own (FNV-1a over the entity's layout),
/// not Core Data's `versionHash`, whose algorithm was not read: a store made here is not one
/// Core Data would open without migrating.
enum StoreMetadata {
    static let modelHashKey = "loadgenModelHash"
    /// The framework version of the dumped store (iOS 17/18's Core Data).
    static let frameworkVersion = 1518

    static func plist(_ model: ManagedObjectModel) -> [UInt8] {
        let hashes = model.entities.map { e in
            (
                e.name,
                BinaryPlist.Value.data(
                    digest(e.name + ":" + e.columns.map { "\($0.name) \($0.kind)" }.joined(separator: ",")))
            )
        }
        let modelHash = model.versionHash
        return BinaryPlist.encode(
            .dictionary([
                ("NSStoreType", .string("SQLite")),
                ("NSStoreModelVersionHashes", .dictionary(hashes)),
                ("NSStoreModelVersionHashesVersion", .integer(3)),
                ("NSStoreModelVersionIdentifiers", .array([.string("")])),
                ("NSStoreModelVersionHashesDigest", .string(base64(digest(modelHash)))),
                ("NSStoreModelVersionChecksumKey", .string(base64(digest("checksum:" + modelHash)))),
                ("NSPersistenceFrameworkVersion", .integer(frameworkVersion)),
                ("NSPersistenceMaximumFrameworkVersion", .integer(frameworkVersion)),
                ("_NSAutoVacuumLevel", .string("2")),
                (modelHashKey, .string(modelHash)),
            ]))
    }

    /// True when the metadata carries `hash`: its ASCII bytes appear in the property list (a
    /// binary plist keeps an ASCII string as its bytes) — opening a store reads no plist.
    static func carries(_ hash: String, in data: [UInt8]) -> Bool {
        let needle = Array(hash.utf8)
        guard !needle.isEmpty, data.count >= needle.count else { return false }
        return (0...(data.count - needle.count)).contains { i in data[i..<(i + needle.count)].elementsEqual(needle) }
    }

    /// The loadgen model hash a store's metadata carries, for the message when it is not this
    /// model's: read from the property list, or from the JSON document stores made before round 5 held.
    static func modelHash(in data: [UInt8]) -> String? {
        if let plist = try? PropertyListSerialization.propertyList(from: Data(data), format: nil) as? [String: Any] {
            return plist[modelHashKey] as? String
        }
        let text = String(decoding: data, as: UTF8.self)
        guard let range = text.range(of: "\"\(modelHashKey)\":\"") else { return nil }
        let rest = text[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// 32 bytes: FNV-1a 64 of `text` under four offsets.
    private static func digest(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for seed in 0..<4 {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325 &+ UInt64(seed)
            for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            withUnsafeBytes(of: h.bigEndian) { out.append(contentsOf: $0) }
        }
        return out
    }

    private static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}
