/// Records nested in an array of their related objects, as feeds publish a to-many
/// (`{"apps": [{"bundleIdentifier": …, "versions": [ … ]}]}`): `--input-path /apps/*/versions`
/// reads every app's versions, each related to its app, which is found or created by the key
/// read from the app's members. The app's members that name the related entity's other
/// attributes are read too: a related object created from the feed gets them (`parentValues`).
extension RecordFileReader {
    // MARK: The pointer

    /// Splits a pointer at its `*` (each element of the array before it) into the members leading
    /// to the array of holders and the holders' member with the records; throws when the shape
    /// cannot relate records to their holder (no relationship, or one whose inverse is not that
    /// member).
    static func nesting(_ tokens: [String], shape: RecordShape, path: String) throws -> (
        pointer: [String], collection: String?
    ) {
        guard let star = tokens.firstIndex(of: "*") else { return (tokens, nil) }
        let given = "/" + tokens.joined(separator: "/")
        func refuse(_ why: String) -> InputPathError { InputPathError(message: "--input-path \(given): \(why)") }
        guard star == tokens.count - 2 else {
            throw refuse(
                "'*' stands for each element of an array and is followed by one member, the array of records (one like /apps/*/versions)"
            )
        }
        let member = tokens[star + 1]
        if let problem = nestingProblem(member, shape: shape) { throw refuse(problem) }
        return (Array(tokens[..<star]), member)
    }

    /// Why records of `shape` cannot sit in the member `member` of their related object, nil when
    /// they can: the member must be the relationship's to-many inverse.
    package static func nestingProblem(_ member: String, shape: RecordShape) -> String? {
        guard let parent = shape.parentEntity else {
            return
                "records nested in other objects are related to them, and \(shape.entity) relates to none in this run: "
                + "give --relationship naming the objects that hold them"
        }
        guard let inverse = shape.parentCollection else {
            return
                "\(parent) has no to-many of \(shape.entity) records for this run's relationship (its inverse is a to-one or none)"
        }
        return member == inverse
            ? nil
            : "the records inside each \(parent) are its \(inverse) (the inverse of this run's relationship): give …/*/\(inverse)"
    }

    // MARK: Reading

    /// The next nested record: from the current holder's, else from the next holder with any.
    func nextNested(into record: inout Record) throws -> Bool {
        while pendingCursor == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingCursor = 0
            guard try nextElement(first: holders == 0, of: "an element") else { return false }
            try readHolder()
            if format == .ndjson { try endOfLine() }
        }
        record = pending[pendingCursor]
        pendingCursor += 1
        return true
    }

    /// Reads one element of the holders' array: its key members into `holder`, its records into
    /// `pending`, then gives each record the holder's key (its members may come in any order).
    private func readHolder() throws {
        holders += 1
        let place = "/" + (pointer + [String(holders - 1)]).joined(separator: "/")   // the element's own pointer
        guard let c = try peek() else { throw error(nil, "the file ends where \(place) should start") }
        guard c == UInt8(ascii: "{") else { throw unexpected(c, expecting: "'{' starting \(place)", record: nil) }
        position += 1
        holder.reset(fields: shape.fields.count)
        holderValues.reset(fields: shape.parentFields.count)
        var seen = FieldSet(count: shape.fields.count)
        var first = true
        while try nextMember(&first, what: "a member name", inside: place, record: nil) {
            if let collection, field == collection {
                try readRecords(in: place)
            } else if let f = holderKeyByName[field] {
                holderPlace = place
                defer { holderPlace = nil }
                try readMember(of: f, seen: &seen, into: &holder, what: "member \"\(field.string)\"")
            } else if let p = holderFieldByName[field] ?? foldedHolderField(field) {
                holderPlace = place
                defer { holderPlace = nil }
                try readHolderValue(p, member: field.string)
            } else {
                try skipValue()
            }
        }
        for f in shape.parentKey where !seen.contains(f) || holder.isNull(f) {
            throw error(
                nil,
                "\(place): missing member \"\(shape.fields[f].container?.member ?? shape.fields[f].name)\" "
                    + "(the key of the \(shape.parentEntity ?? "object") its records relate to)")
        }
        for i in pending.indices {
            for f in shape.parentKey {
                if shape.fields[f].type.isBytes {
                    holder.withBytes(f, pool: nil) { pending[i].values.setBytes($0, at: f) }
                } else {
                    pending[i].values.setInteger(Int64(bitPattern: holder.slot(f)), at: f)
                }
            }
            try numberParent(of: &pending[i])
            // Related objects are numbered in order of first appearance: a new one is the next.
            if pending[i].parentIndex == parentValues.count { parentValues.append(holderValues) }
        }
    }

    /// The related object's attribute a holder's member fills by its folded name, noted once.
    private func foldedHolderField(_ member: InlineText) -> Int? {
        guard !holderFieldByFoldedName.isEmpty, let p = holderFieldByFoldedName[Folded.name(member)] else { return nil }
        noteFolded("\(shape.parentEntity ?? "").\(member.string) → \(shape.parentFields[p].name)")
        return p
    }

    /// Reads the holder's array of records (null or absent: none) into `pending`.
    private func readRecords(in place: String) throws {
        if try matchLiteral("null") { return }
        guard let c = try peek() else { throw error(nil, "the file ends inside \(place)") }
        guard c == UInt8(ascii: "[") else {
            throw typeError("member \"\(field)\" of \(place)", expected: "an array of records", found: c)
        }
        position += 1
        var first = true
        while try nextInArray(first: first, after: "a record", ends: "the file ends inside \(place)") {
            first = false
            recordNumber += 1
            var r = Record()
            try readObject(into: &r)
            r.index = recordNumber - 1
            r.keyIndex = -1
            pending.append(r)
        }
    }
}
