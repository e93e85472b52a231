import Foundation

// MARK: - Attributes

extension ModelReader {
    /// One `<attribute>`, or nil for a transient one (Core Data does not store it).
    mutating func attribute(_ e: ModelXML.Element, in entity: String) throws(ModelFileError) -> AttributeDescription? {
        guard let name = e["name"], !name.isEmpty else { throw fail(e, "an attribute of \(entity) has no name") }
        if let problem = ModelNames.propertyProblem(name) { throw fail(e, "\(entity): \(problem)") }
        if e["transient"] == "YES" { return nil }
        let what = "\(entity).\(name)"
        guard let typeName = e["attributeType"] else { throw fail(e, "attribute \(what) has no attributeType") }
        guard let type = AttributeType(rawValue: typeName) else {
            let why =
                switch typeName {
                case "Undefined": "Undefined is only allowed for transient attributes"
                case "Composite": "composite attributes are not supported"
                case "ObjectID": "object-ID attributes are not stored"
                default: "unknown type"
                }
            throw fail(
                e,
                "attribute \(what) has attributeType \"\(typeName)\": \(why) (one of: "
                    + AttributeType.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        var a = AttributeDescription(name, type, indexed: e["indexed"] == "YES", optional: e["optional"] == "YES")
        a.defaultValue = try defaultValue(e, a, what)
        (a.minimum, a.maximum) = try limits(e, a, what)
        try checkDefault(e, a, what)
        if let userInfo = e.child(named: "userInfo") { a.userInfo = self.userInfo(userInfo) }
        if e["allowsExternalBinaryDataStorage"] == "YES" {
            a.allowsExternalStorage = a.type == .binary
            note(
                e,
                "\(what) allows external storage: a value over 128 KiB is kept in a file beside the store, as Core Data keeps it"
            )
        }
        if e["derived"] == "YES" {
            note(
                e,
                "\(what) is derived (\(e["derivationExpression"] ?? "")): stored as a plain column, without the trigger that computes it"
            )
        }
        if type == .transformable {
            (a.valueTransformer, a.valueClass) = (e["valueTransformerName"], e["customClassName"])
            note(
                e,
                "\(what) is transformable: stored as the bytes given (no value transformer runs): base64 text "
                    + "decoded, or a JSON array or object as its UTF-8 text, what a JSON value transformer stores")
        }
        return a
    }

    /// `defaultValueString` (or `defaultDateTimeInterval`) as a value of the attribute's type.
    mutating func defaultValue(_ e: ModelXML.Element, _ a: AttributeDescription, _ what: String) throws(ModelFileError)
        -> Value
    {
        if a.type == .date, let interval = e["defaultDateTimeInterval"] {
            guard let seconds = Double(interval) else {
                throw fail(e, "\(what): defaultDateTimeInterval \"\(interval)\" is not a number")
            }
            return .date(seconds)
        }
        guard let text = e["defaultValueString"] else { return .null }
        if let value = Self.value(text, as: a.type) { return value }
        return try compiledDefault(text, e, a, what)
    }

    /// A default whose text is not a value of the attribute's type, as Xcode writes it when an
    /// attribute's type changed (`0.0` and `NO` on Integer attributes, in three of seven shipped
    /// apps) and as the model compiler turns it into the number Core Data reads: Foundation's
    /// `integerValue` for integers (the digits the text begins with, else 0: "0.0" is 0, "NO" and
    /// "YES" are 0, "1.0" is 1), `doubleValue` for floating point. Apple's `momc` is not public;
    /// momcom, a re-implementation that aims at the same output, converts so
    /// (`[defaultValueString integerValue]`), and Core Data's store writes an integer column
    /// with the number's `intValue`/`longLongValue` (`-[NSSQLSavePlan _populateRow:…]`,
    /// decompiled iOS 18.2). A UUID default that is no UUID leaves no default. Each is a note.
    private mutating func compiledDefault(
        _ text: String, _ e: ModelXML.Element, _ a: AttributeDescription,
        _ what: String
    ) throws(ModelFileError) -> Value {
        let value: Value
        let reading: String
        switch a.type.storage {
        case .integer:
            let n = Self.integerValue(text)
            guard a.type.integerRange?.contains(n) ?? true else {
                throw fail(e, "\(what): defaultValueString \"\(text)\" is outside what an \(a.type.rawValue) holds")
            }
            (value, reading) = (.integer(n), "\(n) (Foundation's integerValue, as the model compiler reads it)")
        case .real:
            let x = Self.doubleValue(text)
            (value, reading) = (.double(x), "\(x) (Foundation's doubleValue, as the model compiler reads it)")
        case .bytes where a.type == .uuid:
            (value, reading) = (.null, "no default (the text is no UUID)")
        default:
            throw fail(e, "\(what): defaultValueString \"\(text)\" is not a \(a.type.rawValue)")
        }
        note(e, "\(what): defaultValueString \"\(text)\" is not a \(a.type.rawValue); read as \(reading)")
        return value
    }

    /// `NSString.integerValue`: after leading white space, an optional sign and the decimal digits
    /// that follow; 0 when there are none (saturating, as `longLongValue` does).
    static func integerValue(_ text: String) -> Int64 {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        let negative = rest.first == "-"
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        var n: Int64 = 0
        for c in rest {
            guard let d = c.wholeNumberValue, c.isASCII else { break }
            let (times, o1) = n.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int64(d))
            if o1 || o2 { return negative ? .min : .max }
            n = sum
        }
        return negative ? -n : n
    }

    /// `NSString.doubleValue`: the longest prefix (after white space) that is a number, else 0.
    static func doubleValue(_ text: String) -> Double {
        let trimmed = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var end = trimmed.endIndex
        while end > trimmed.startIndex {
            if let x = Double(trimmed[..<end]), x.isFinite { return x }
            end = trimmed.index(before: end)
        }
        return 0
    }

    /// The model's minimum and maximum: values for numbers and dates, lengths for strings and bytes.
    func limits(_ e: ModelXML.Element, _ a: AttributeDescription, _ what: String) throws(ModelFileError) -> (
        Double?, Double?
    ) {
        let keys =
            a.type == .date ? ("minDateTimeInterval", "maxDateTimeInterval") : ("minValueString", "maxValueString")
        var result: (Double?, Double?) = (nil, nil)
        for (i, key) in [keys.0, keys.1].enumerated() {
            guard let text = e[key] else { continue }
            guard let number = Double(text), number.isFinite else {
                throw fail(e, "\(what): \(key) \"\(text)\" is not a finite number")
            }
            if let range = a.type.integerRange, Double(range.lowerBound) > number || number > Double(range.upperBound) {
                throw fail(
                    e,
                    "\(what): \(key) \"\(text)\" is outside what an \(a.type.rawValue) holds "
                        + "(\(range.lowerBound) … \(range.upperBound))")
            }
            if [.text, .bytes].contains(a.type.storage), number < 0 || number != number.rounded() {
                throw fail(
                    e, "\(what): \(key) \"\(text)\" is not a length (a whole number of characters or bytes, 0 or more)")
            }
            if i == 0 { result.0 = number } else { result.1 = number }
        }
        if let low = result.0, let high = result.1, low > high {
            throw fail(e, "\(what): the minimum \(low) is above the maximum \(high)")
        }
        return result
    }

    /// A default the model's own limits refuse would fail every save of an object that keeps it.
    func checkDefault(_ e: ModelXML.Element, _ a: AttributeDescription, _ what: String) throws(ModelFileError) {
        let measure: Double? =
            switch a.defaultValue {
            case .integer(let n): Double(n)
            case .double(let x), .date(let x): x
            case .string(let s) where a.type.storage == .text: Double(s.count)
            case .data(let bytes): Double(bytes.count)
            default: nil
            }
        guard let measure else { return }
        let unit = a.type.storage == .text ? " characters long" : a.type.storage == .bytes ? " bytes long" : ""
        if let low = a.minimum, measure < low {
            throw fail(e, "\(what): the default is \(measure.formatted)\(unit), below the minimum \(low.formatted)")
        }
        if let high = a.maximum, measure > high {
            throw fail(e, "\(what): the default is \(measure.formatted)\(unit), above the maximum \(high.formatted)")
        }
    }

    /// A Boolean default as Foundation reads a string's truth (`NSString.boolValue`: true on "Y",
    /// "y", "T", "t" or a digit 1–9 after leading white space, a sign and zeros; anything else is
    /// false). It never fails, so no Boolean default is refused: Xcode writes "0.0" and "1.0" as
    /// well as "NO" and "YES". How the model compiler converts the text was not read.
    static func boolValue(_ text: String) -> Bool {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        rest = rest.drop { $0 == "0" }
        guard let first = rest.first else { return false }
        return "YyTt123456789".contains(first)
    }

    /// A model file's text as a value of `type` (nil when it is not one).
    static func value(_ text: String, as type: AttributeType) -> Value? {
        switch type.storage {
        case .integer:
            guard let n = Int64(text), type.integerRange?.contains(n) ?? true else { return nil }
            return .integer(n)
        case .real: return Double(text).map(Value.double)
        case .text: return .string(text)
        case .bool: return .bool(boolValue(text))
        case .date: return Double(text).map(Value.date)
        case .bytes:
            guard type == .uuid, let uuid = UUID(uuidString: text) else { return nil }
            return .data(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        }
    }
}

// MARK: - Relationships

extension ModelReader {
    mutating func relationship(_ e: ModelXML.Element, in entity: String) throws(ModelFileError)
        -> RelationshipDescription
    {
        guard let name = e["name"], !name.isEmpty else { throw fail(e, "a relationship of \(entity) has no name") }
        if let problem = ModelNames.propertyProblem(name) { throw fail(e, "\(entity): \(problem)") }
        let what = "\(entity).\(name)"
        guard let destination = e["destinationEntity"] else {
            throw fail(e, "relationship \(what) has no destinationEntity")
        }
        var r = RelationshipDescription(name, to: destination, inverse: e["inverseName"], toMany: e["toMany"] == "YES")
        r.isOptional = e["optional"] == "YES"
        if let rule = e["deletionRule"] {
            guard let parsed = RelationshipDescription.DeleteRule(rawValue: rule) else {
                throw fail(
                    e, "relationship \(what) has deletionRule \"\(rule)\" (one of: No Action, Nullify, Cascade, Deny)")
            }
            r.deleteRule = parsed
        }
        if r.isToMany {
            r.minCount = try count(e, "minCount", of: what)
            r.maxCount = try count(e, "maxCount", of: what)
            if r.minCount != nil || r.maxCount != nil {
                let bounds = [r.minCount.map { "minCount \($0)" }, r.maxCount.map { "maxCount \($0)" }].compactMap {
                    $0
                }
                note(
                    e,
                    "\(what) has \(bounds.joined(separator: " and ")): checked at save only once its members are loaded"
                )
            }
        }
        r.isOrdered = r.isToMany && e["ordered"] == "YES"
        if let userInfo = e.child(named: "userInfo") { r.userInfo = self.userInfo(userInfo) }
        return r
    }

    /// A to-many's `minCount` or `maxCount`: nil when absent or 0, which Core Data reads as no bound.
    private func count(_ e: ModelXML.Element, _ key: String, of what: String) throws(ModelFileError) -> Int? {
        guard let text = e[key] else { return nil }
        guard let n = Int(text), n >= 0 else {
            throw fail(e, "relationship \(what): \(key) \"\(text)\" is not a count")
        }
        return n == 0 ? nil : n
    }

    /// What checking the relationships found: to-manys left out, relationships whose inverse is
    /// not stored, many-to-manys (each once, with its line).
    private struct RelationshipFindings {
        var dropped: Set<String> = []
        var inverseless: Set<String> = []
        var manyToMany: [String] = []
    }

    /// Destinations and inverses exist and agree; a to-many without an inverse is left out with a
    /// note, and a many-to-many is noted (its join table is laid out and kept; no strategy
    /// relates records through one).
    mutating func checkRelationships(_ entities: inout [EntityDescription], lines: [String: ModelXML.Element])
        throws(ModelFileError)
    {
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
        var found = RelationshipFindings()
        defer {
            if !found.manyToMany.isEmpty {
                let one = found.manyToMany.count == 1
                notes.append(
                    ModelFile.Note(
                        entity: nil,
                        text: "\(path): \(found.manyToMany.count) many-to-many relationship"
                            + (one ? " kept in a join table" : "s kept in join tables")
                            + " (--many-to-many NAME relates each "
                            + "record's --members through one): " + found.manyToMany.joined(separator: ", ")))
            }
        }
        defer { currentEntity = nil }
        // Every destination first: a relationship to a missing entity is named on its own line,
        // not as a disagreement seen from its inverse's side.
        for pass in [false, true] {
            for entity in entities {
                currentEntity = entity.name
                let e = lines[entity.name]!
                let inherited = Set(entity.parentEntity.flatMap { byName[$0] }?.relationships.map(\.name) ?? [])
                for r in entity.relationships where !inherited.contains(r.name) {
                    let element = e.children.first { $0.name == "relationship" && $0["name"] == r.name } ?? e
                    if pass {
                        try check(r, of: entity, at: element, byName, &found)
                    } else if byName[r.destination] == nil {
                        throw fail(
                            element,
                            "relationship \(entity.name).\(r.name) has destination \(r.destination), "
                                + "which is not an entity of the model")
                    }
                }
            }
        }
        Self.forgetInverses(of: found.inverseless, in: &entities)
        Self.drop(found.dropped, from: &entities, byName: byName)
    }

    private mutating func check(
        _ r: RelationshipDescription, of entity: EntityDescription, at element: ModelXML.Element,
        _ byName: [String: EntityDescription], _ found: inout RelationshipFindings
    ) throws(ModelFileError) {
        let what = "\(entity.name).\(r.name)"
        guard let destination = byName[r.destination] else { return }   // refused before (checkRelationships)
        if let inverseName = r.inverse, transientRelationships.contains("\(destination.name).\(inverseName)") {
            // Its inverse is transient, so not stored: this side keeps its own column (a to-one)
            // or, a to-many with nothing to keep it, is left out below.
            note(
                element,
                "\(what)'s inverse \(destination.name).\(inverseName) is transient: \(what) has no stored inverse")
            found.inverseless.insert(what)
        }
        guard let inverseName = r.inverse, !found.inverseless.contains(what) else {
            if r.isToMany {
                note(
                    element,
                    "\(what) is a to-many without an inverse: left out (the engine keeps a to-many as its to-one inverse)"
                )
                found.dropped.insert(what)
            }
            return
        }
        guard let inverse = destination.relationship(inverseName) else {
            throw fail(
                element, "relationship \(what) names inverse \(inverseName), which \(destination.name) does not have")
        }
        guard inverse.destination == entity.name, inverse.inverse == nil || inverse.inverse == r.name else {
            throw fail(
                element,
                "relationship \(what) and its inverse \(destination.name).\(inverseName) do not point at each other")
        }
        if r.isToMany && inverse.isToMany
            && !found.manyToMany.contains(where: { $0.hasPrefix("\(destination.name).\(inverseName) ") })
        {
            found.manyToMany.append("\(what) (line \(element.line))")
        }
    }

    /// The relationships ("Entity.name") whose inverse is not stored lose it, in the entity that
    /// declares them and in its sub-entities (which carry a copy).
    private static func forgetInverses(of names: Set<String>, in entities: inout [EntityDescription]) {
        guard !names.isEmpty else { return }
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
        func declares(_ entity: String?, _ relationship: String) -> Bool {
            guard let entity else { return false }
            return names.contains("\(entity).\(relationship)") || declares(byName[entity]?.parentEntity, relationship)
        }
        for i in entities.indices {
            for j in entities[i].relationships.indices
            where declares(entities[i].name, entities[i].relationships[j].name) {
                entities[i].relationships[j].inverse = nil
            }
        }
    }

    /// Leaves the `dropped` relationships ("Entity.name") out: a sub-entity inherits what its
    /// parents declare (dropped there, dropped here), and a to-one whose inverse was left out
    /// keeps its column and loses the inverse.
    private static func drop(
        _ dropped: Set<String>, from entities: inout [EntityDescription], byName: [String: EntityDescription]
    ) {
        guard !dropped.isEmpty else { return }
        func isDropped(_ entity: String?, _ relationship: String) -> Bool {
            guard let entity else { return false }
            return dropped.contains("\(entity).\(relationship)")
                || isDropped(byName[entity]?.parentEntity, relationship)
        }
        for i in entities.indices {
            let name = entities[i].name
            entities[i].relationships.removeAll { isDropped(name, $0.name) }
            for j in entities[i].relationships.indices {
                let r = entities[i].relationships[j]
                if let inverse = r.inverse, isDropped(r.destination, inverse) {
                    entities[i].relationships[j].inverse = nil
                }
            }
        }
    }
}

extension Double {
    /// `40000`, not `40000.0`, for a whole number.
    fileprivate var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self) }
}
