import Foundation
import ObjectGraph

/// The size of what Core Data stores for a Transformable whose model names its transformer and
/// the class of its values: the keyed archive the transformer makes of a typical value, measured
/// here by Foundation's own `NSKeyedArchiver`, as `NSSecureUnarchiveFromDataTransformer` makes it
/// (`archivedData(withRootObject:requiringSecureCoding: true)`, Apple's documentation of the
/// transformer; `NSKeyedUnarchiveFromData`, the older default, makes the same binary property list).
///
/// Why: generated values were `--payload-bytes` (4 KiB) of random bytes for every Binary and
/// Transformable attribute. A shipped model's Transformables are mostly lists of identifiers or
/// names (WooCommerce's `Product` has five `[Int64]`: cross-sell, grouped, related, upsell and
/// variation IDs), whose archive is 228 bytes empty and 261 with three elements: a product stored
/// 20 KiB of payload where the app stores about 1.3 KiB, and a save's cost was mostly bytes the
/// app never writes.
package enum ArchivedValueSize {
    /// Elements in a typical collection value (a product's related IDs, a contact's tags); an app
    /// that stores more says so with `--attribute-bytes`.
    package static let elements = 3

    /// Transformers whose stored bytes are a keyed archive of the value.
    static let archivingTransformers: Set<String> = [
        "", "NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer", "NSKeyedUnarchiveFromData",
    ]

    /// Bytes of the archive of a typical value of `a`'s class, nil when the model does not name a
    /// class loadgen can make a value of (an app's own class, a custom transformer).
    static func bytes(of a: AttributeDescription, stringLength: Int) -> Int? {
        guard a.type == .transformable, let name = a.valueClass,
            archivingTransformers.contains(a.valueTransformer ?? "")
        else { return nil }
        guard let value = typicalValue(of: name, stringLength: stringLength) else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true).count
    }

    /// A value of the class Xcode's Custom Class names (`[Int64]`, `NSArray`, `[String: String]`,
    /// `String`, …), as Foundation objects, since that is what the archiver encodes.
    static func typicalValue(of name: String, stringLength: Int) -> NSObject? {
        let text = { (i: Int) in
            NSString(string: String(repeating: "w", count: max(1, stringLength - 2)) + "\(i % 100)")
        }
        let number = { (i: Int) in NSNumber(value: Int64(1_000_000 + 7_919 * i)) }
        let compact = name.replacingOccurrences(of: " ", with: "")
        let numbers = [
            "Int", "Int16", "Int32", "Int64", "UInt", "UInt16", "UInt32", "UInt64", "Double", "Float", "Bool",
            "NSNumber",
        ]
        let strings = ["String", "NSString"]
        let some = 0..<elements
        switch compact {
        case _ where numbers.contains(compact): return number(0)
        case _ where strings.contains(compact): return text(0)
        case "Date", "NSDate": return NSDate(timeIntervalSinceReferenceDate: 7.5e8)
        case "URL", "NSURL": return NSURL(string: "https://example.com/\(String(repeating: "w", count: stringLength))")
        case "UUID", "NSUUID": return NSUUID(uuidString: "00000000-0000-4000-8000-000000000000")
        default: break
        }
        if let element = Self.element(compact, prefix: "[", suffix: "]")
            ?? Self.element(compact, prefix: "Set<", suffix: ">")
        {
            let items: [NSObject]? =
                numbers.contains(element) ? some.map(number) : strings.contains(element) ? some.map(text) : nil
            guard let items else { return nil }
            return compact.hasPrefix("Set<") ? NSSet(array: items) : NSArray(array: items)
        }
        if ["NSDictionary", "[String:String]", "[String:Any]", "[String:NSString]"].contains(compact) {
            return NSDictionary(objects: some.map(text), forKeys: some.map { NSString(string: "key\($0)") })
        }
        return nil
    }

    /// `Int64` in `[Int64]`: the element of a collection spelled `prefix…suffix`, nil otherwise
    /// (a dictionary, spelled with a colon, is not one).
    private static func element(_ name: String, prefix: String, suffix: String) -> String? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else {
            return nil
        }
        let inner = String(name.dropFirst(prefix.count).dropLast(suffix.count))
        return inner.contains(":") ? nil : inner
    }
}
