import ObjectGraph
import Workload

/// How loadgen reads a model's user info (Xcode's "User Info" pane) to generate and map values:
/// one place for every key it understands.
///
/// - `loadgen.generate` on an attribute: how its values are made (see `parse`).
/// - `loadgen.keyPrefix` / `loadgen.keySuffix` on the key attribute: text around its 12 hex digits.
/// - `mappedKeyName` on an attribute or relationship: the member of an import file that fills it
///   (MagicalRecord's key, which Core Data apps importing JSON already carry).
/// - `loadgen.arrayName` on the record entity: the array of a JSON import file.
/// - `loadgen.records` = `YES` on an entity: records become this entity.
enum GenerationHints {
    static let generate = "loadgen.generate"
    static let keyPrefix = "loadgen.keyPrefix"
    static let keySuffix = "loadgen.keySuffix"
    static let mappedKeyName = "mappedKeyName"
    static let arrayName = "loadgen.arrayName"

    /// What `loadgen.generate` accepts, for messages.
    static let accepted =
        "words, text:MIN-MAX, names:categories|albums, cents:MIN-MAX, number:MIN-MAX, integer:MIN-MAX, "
        + "past-year, share:P, payload[:BYTES], uuid, uri:PREFIX"

    /// The generation a hint names, nil when the text is not one.
    static func parse(_ text: String, payloadBytes: Int) -> Generation? {
        let (name, argument) =
            text.firstIndex(of: ":").map { (String(text[..<$0]), String(text[text.index(after: $0)...])) }
            ?? (text, "")
        func range() -> (Double, Double)? {
            let parts = argument.split(separator: "-", maxSplits: 1).map { Double($0) }
            guard parts.count == 2, let low = parts[0], let high = parts[1], low <= high else { return nil }
            return (low, high)
        }
        switch name {
        case "words": return .words
        case "past-year": return .pastYear
        case "payload":
            return argument.isEmpty
                ? .payload(bytes: payloadBytes) : Int(argument).flatMap { $0 >= 0 ? .payload(bytes: $0) : nil }
        case "uuid": return .uuid
        case "uri": return .uri(prefix: argument.isEmpty ? "https://example.com/" : argument)
        case "names": return NameList(rawValue: argument).map { .parentKey(names: $0) }
        case "share": return Double(argument).flatMap { (0...1).contains($0) ? .share($0) : nil }
        case "text": return range().map { .text(minimum: Int($0.0), maximum: Int($0.1)) }
        case "cents": return range().map { .cents(minimum: Int($0.0), maximum: Int($0.1)) }
        case "number": return range().map { .number(minimum: $0.0, maximum: $0.1) }
        case "integer": return range().map { .integer(minimum: Int64($0.0), maximum: Int64($0.1)) }
        default: return nil
        }
    }

    /// How an attribute is generated when the model says nothing: by its type, within the model's
    /// limits.
    static func byType(_ a: AttributeDescription, entity: String, options: ShapeOptions) -> Generation {
        switch a.type {
        case .integer16, .integer32, .integer64:
            let top = min(Double(a.type.integerRange!.upperBound), a.maximum ?? 1_000_000)
            let low = max(Double(a.type.integerRange!.lowerBound), a.minimum ?? 0)
            return .integer(minimum: Int64(low), maximum: Int64(max(low, top)))
        case .decimal, .double, .float:
            let low = a.minimum ?? 0
            return .number(minimum: low, maximum: max(low, a.maximum ?? 1000))
        case .string:
            let low = max(Int(a.minimum ?? 0), options.stringLength.lowerBound)
            let high = min(
                Int(a.maximum ?? Double(options.stringLength.upperBound)), max(low, options.stringLength.upperBound))
            return .text(minimum: min(low, high), maximum: high)
        case .uri: return .uri(prefix: "https://example.com/\(entity.lowercased())/")
        case .boolean: return .share(0.5)
        case .date: return .pastYear
        case .binary, .transformable:
            return .payload(bytes: payloadBytes(a, entity: entity, options: options) ?? options.payloadBytes)
        case .uuid: return .uuid
        }
    }
}

extension GenerationHints {
    /// Bytes of an identifier kept in a Binary attribute: a UUID's.
    static let identifierBytes = 16

    /// The size of a Binary or Transformable attribute's generated values when the run or the
    /// model gives one: `--attribute-bytes`, else 16 bytes for an indexed Binary attribute (an
    /// app indexes bytes it looks records up by: an identifier, as a messenger's
    /// `remoteIdentifier_data`, not a picture), else the archive of a typical value for a
    /// Transformable whose model names a Foundation class (`ArchivedValueSize`), else nil
    /// (`--payload-bytes`); within the model's Min and Max Length.
    static func payloadBytes(_ a: AttributeDescription, entity: String, options: ShapeOptions) -> Int? {
        let named = options.attributeBytes["\(entity).\(a.name)"]
        let chosen =
            named ?? (a.type == .binary && a.isIndexed ? identifierBytes : nil)
            ?? ArchivedValueSize.bytes(
                of: a, stringLength: (options.stringLength.lowerBound + options.stringLength.upperBound) / 2)
        let bytes = chosen ?? options.payloadBytes
        let bounded = max(Int(a.minimum ?? 0), a.maximum.map { min(Int($0), bytes) } ?? bytes)
        return chosen == nil && bounded == options.payloadBytes ? nil : bounded
    }
}

/// The knobs of generation a run sets (`--payload-bytes`, `--string-length`).
package struct ShapeOptions: Sendable, Hashable, Codable {
    /// Bytes of each generated binary value.
    package var payloadBytes = 4096
    /// Bytes of the named attributes' values (`Entity.attribute`), over `payloadBytes`, the
    /// model's user info and the default for an identifier.
    package var attributeBytes: [String: Int] = [:]
    /// The feed's member for a property (`Entity.property` or `property` → member: `--map`),
    /// over the property's `mappedKeyName`: how a team's feed names what its model holds,
    /// told without editing either.
    package var members: [String: String] = [:]
    /// Objects each record relates to through its many-to-many, out of how many (`--members`,
    /// `--parents`).
    package var membersPerRecord = 3
    package var memberPool = 50
    /// The records are read from a feed (`--input`) or written to one (`generate`): only then do
    /// members matter, and two attributes of different types under one member cannot both be
    /// read from it. Core Data loads such a model (a `mappedKeyName` is user info to it), so a run
    /// of generated records takes it as it is.
    package var usesFeed = false

    /// The member an import file names `property` of `entity` by: `--map`, else the property's
    /// `mappedKeyName`, else its name.
    func member(_ property: String, of entity: String, userInfo: [String: String]) -> String {
        members["\(entity).\(property)"] ?? members[property] ?? userInfo[GenerationHints.mappedKeyName] ?? property
    }
    /// Lengths of generated strings the model does not bound.
    package var stringLength: ClosedRange<Int> = 8...32
    package init() {}
}

extension FieldType {
    /// The field type that carries values of an attribute type.
    init(_ type: AttributeType) {
        switch type {
        case .integer16: self = .integer16
        case .integer32: self = .integer32
        case .integer64: self = .integer64
        case .decimal, .double, .float: self = .real
        case .string, .uri: self = .text
        case .boolean: self = .bool
        case .date: self = .date
        case .binary, .transformable: self = .bytes
        case .uuid: self = .uuid
        }
    }
}
