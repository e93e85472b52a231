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

    static func plist(_ model: ManagedObjectModel) throws -> Data {
        var hashes: [String: Data] = [:]
        for e in model.entities { hashes[e.name] = digest(e.name + ":" + e.columns.map { "\($0.name) \($0.kind)" }.joined(separator: ",")) }
        let modelHash = model.versionHash
        let dictionary: [String: Any] = [
            "NSStoreType": "SQLite",
            "NSStoreModelVersionHashes": hashes,
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": [""],
            "NSStoreModelVersionHashesDigest": digest(modelHash).base64EncodedString(),
            "NSStoreModelVersionChecksumKey": digest("checksum:" + modelHash).base64EncodedString(),
            "NSPersistenceFrameworkVersion": frameworkVersion,
            "NSPersistenceMaximumFrameworkVersion": frameworkVersion,
            "_NSAutoVacuumLevel": "2",
            modelHashKey: modelHash,
        ]
        return try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
    }

    /// The loadgen model hash a store's metadata carries: read from the property list, or from
    /// the JSON document stores made before round 5 held.
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
    private static func digest(_ text: String) -> Data {
        var out = Data()
        for seed in 0..<4 {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325 &+ UInt64(seed)
            for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            withUnsafeBytes(of: h.bigEndian) { out.append(contentsOf: $0) }
        }
        return out
    }
}
