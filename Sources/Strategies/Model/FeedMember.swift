import ObjectGraph
import Workload

/// Where a feed keeps an attribute's value, as `--map` (or `mappedKeyName`) says it: a member of
/// the record, or a key path into an object it holds, as deep as the feed nests it
/// (`properties.code`: GeoJSON's `features[*].properties`, the shape of Apple's large-data-feed
/// sample; `user.address.city`), and for a date given as a number its unit
/// (`time=properties.time:ms`, as earthquake feeds count milliseconds).
struct FeedMember {
    /// The member's name, or the key path's (`properties.code`).
    let name: String
    /// The object holding the value and the path inside it (dots between levels), for a key path.
    let container: (object: String, member: String)?
    /// Units per second of a date given as a number (`:ms` 1000, `:s` 1); nil: not said.
    let unitsPerSecond: Double?

    /// Reads `text` for attribute `a` of `entity`; an empty name in a key path, or a unit on an
    /// attribute that is no date, is refused naming the mapping.
    init(_ text: String, of a: AttributeDescription, in entity: String) throws {
        var path = text
        var unit: Double?
        for (suffix, perSecond) in [(":ms", 1000.0), (":s", 1.0)] where path.hasSuffix(suffix) {
            guard a.type == .date else {
                throw ImportModelError(
                    "--map \(a.name)=\(text): a unit (\(suffix)) says how a date counts time, and \(entity).\(a.name) "
                        + "is a \(a.type.rawValue) attribute; drop it")
            }
            path.removeLast(suffix.count)
            unit = perSecond
        }
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else {
            throw ImportModelError(
                "--map \(a.name)=\(text): a key path names a member at each level (properties.code, "
                    + "properties.place.code); give no empty name between dots")
        }
        name = path
        container = parts.count >= 2 ? (parts[0], parts.dropFirst().joined(separator: ".")) : nil
        unitsPerSecond = unit
    }

    /// The field of attribute `name`, read where this says.
    func field(_ attribute: String, _ type: FieldType, _ generation: Generation) -> FieldSpec {
        var field = FieldSpec(attribute, type, generation, fileName: name)
        if let container { field.container = .init(name: container.object, member: container.member, only: true) }
        field.unitsPerSecond = unitsPerSecond
        return field
    }
}
