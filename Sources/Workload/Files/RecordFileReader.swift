import Host

/// Why an import file cannot be read: one line naming the file, where, and what was wrong.
package struct ImportError: Error, CustomStringConvertible, Equatable {
    package let path: String
    /// 1-based number of the record being read, when inside one.
    package let record: Int?
    /// Byte offset in the file where the problem was found.
    package let offset: Int
    package let message: String

    package init(path: String, record: Int?, offset: Int, message: String) {
        self.path = path
        self.record = record
        self.offset = offset
        self.message = message
    }

    package var description: String {
        // A negative offset: a finding about the whole record (found after it was read).
        let place =
            offset < 0
            ? record.map { "record \($0)" } ?? "" : record.map { "record \($0) (byte \(offset))" } ?? "byte \(offset)"
        return "\(path): \(place): \(message)"
    }
}

/// Reads the records of a JSON (`{"<array>": [ … ]}` or `[ … ]`) or NDJSON import file shaped by
/// a `RecordShape`, streaming: the file is read 256 KiB at a time and no decoded copy of the whole
/// is ever held, so memory does not grow with the file. Members map to fields by name
/// (`FieldSpec.fileName`); members the shape does not know are skipped and listed
/// (`ignoredMembers`); a missing field is null (the model's default applies) unless the model
/// requires it.
package final class RecordFileReader: RecordSource {
    package let path: String
    package let shape: RecordShape
    package private(set) var format: RecordFileFormat = .json
    /// Records returned so far.
    package internal(set) var recordNumber = 0
    /// Members of records that name no field (the first few), for the user to see once.
    package private(set) var ignoredMembers: [String] = []
    /// Members read for a field whose name they match only ignoring case and `_` (`product_id`
    /// for `productID`, as a REST API writes what a Core Data model calls in camel case), as
    /// "member → field", at most 8: said when the run starts.
    package private(set) var foldedMembers: [String] = []

    private let fd: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    var position = 0
    private var filled = 0
    private var bufferOffset = 0   // file offset of buffer[0]
    private var atEOF = false
    var finished = false
    /// A bare `[ … ]` rather than `{"name": [ … ]}`.
    private var bareArray = false
    /// The members leading to the records' array (`--input-path`), empty for the array at the top;
    /// with `collection`, to the array of the objects that hold the records.
    package let pointer: [String]
    /// The member of each element holding the records (`versions` in `/apps/*/versions`), nil
    /// when the records are the array's elements.
    package let collection: InlineText?
    /// The pointer as given, for messages (`/apps/*/versions`).
    let collectionPath: String
    /// The related object's key fields by their member in the element holding the records.
    let holderKeyByName: [InlineText: Int]
    /// The related object's other attributes (`shape.parentFields`) by their member in the
    /// element holding the records (exact, then folded), with their types and names.
    let holderFieldByName: [InlineText: Int]
    let holderFieldByFoldedName: [InlineText: Int]
    let parentTypes: [FieldType]
    /// The current element's values of those attributes, and each related object's, by its
    /// index (the first element naming it gives them): a related object created from the feed
    /// keeps what the feed says of it (an order's status and total), as the app's import does.
    var holderValues = RecordValues()
    package internal(set) var parentValues: [RecordValues] = []
    /// Records read from the current element, handed out in order.
    var pending: [Record] = []
    var pendingCursor = 0
    /// Elements read so far, and the current one's key values.
    var holders = 0
    var holder = RecordValues()
    private var parents: [InlineText: Int] = [:]
    private var scratch: [UInt8] = []
    var field = InlineText()
    /// The pointer of the element whose own members are being read (`/apps/3`), nil elsewhere:
    /// errors then name the element, not a record.
    var holderPlace: String?
    private var text = InlineText()
    /// Field index by the member name that fills it.
    private let fieldByName: [InlineText: Int]
    /// Field index by its folded name (`Folded`), for a member no name matches exactly; names two
    /// fields fold to alike are left out.
    private let fieldByFoldedName: [InlineText: Int]
    /// Members whose object holds fields (the related object's key, a key path's value), by name.
    private let containerByName: [InlineText: ContainerMembers]
    /// Fields whose text must fit an `InlineText` (keys, which strategies look up by their bytes).
    private let keyFields: FieldSet
    /// Each field's type and how messages name it, built once (not per record).
    private let types: [FieldType]
    /// Each field's unit for a date given as a number (`FieldSpec.unitsPerSecond`).
    private let units: [Double?]
    private let names: [String]
    /// Fields holding an amount in whole cents (the built-in datasets' `amount`), by bit.
    private let centsFields: FieldSet
    /// Fields whose member fills other fields too (`RecordShape.sharedMembers`), and those
    /// fields by the field read: each takes the value read.
    private let sharingFields: FieldSet
    private let copiesOf: [Int: [Int]]
    /// Any field's member fills others: one load per member read when none does (the copy
    /// inside `readMember` cost 11 to 16 instructions per member, 0.25 to 0.35 % of a raw import
    /// of a feed).
    private let sharesMembers: Bool

    /// 1970-01-01 in seconds since 2001-01-01, Core Data's reference date.
    static let unixEpochSinceReferenceDate = 978_307_200.0

    /// Opens `path` for records of `shape`. Throws `ImportError` for an empty or non-JSON file,
    /// `ImportFileError` when it cannot be opened. A path ending in `#/member/…` (a JSON Pointer,
    /// RFC 6901, as a URI fragment) names the records' array inside the document, as a feed nests
    /// it (`source.json#/apps`), when the path as a whole is not a file.
    /// A pointer through an array (`source.json#/apps/*/versions`) reads the records nested in
    /// each element's array, each related to that element by the shape's relationship.
    package init(path input: String, shape: RecordShape) throws {
        let (path, tokens) = try Self.location(input)
        self.path = path
        self.shape = shape
        let nesting = try Self.nesting(tokens, shape: shape, path: path)
        pointer = nesting.pointer
        collection = nesting.collection.flatMap(InlineText.init)
        collectionPath = nesting.collection.map { "/" + (nesting.pointer + ["*", $0]).joined(separator: "/") } ?? ""
        var byName: [InlineText: Int] = [:]
        var containers: [InlineText: ContainerMembers] = [:]
        var holderKeys: [InlineText: Int] = [:]
        let shared = shape.sharedMembers
        let copies = Set(shared.flatMap(\.copies))
        sharingFields = FieldSet(shared.map(\.read), count: shape.fields.count)
        copiesOf = Dictionary(uniqueKeysWithValues: shared.map { ($0.read, $0.copies) })
        sharesMembers = !shared.isEmpty
        for (i, f) in shape.fields.enumerated() where !copies.contains(i) {
            if collection != nil, shape.parentKey.contains(i) {
                // Nested records take their related object's key from the element holding them.
                if let member = f.container.flatMap({ InlineText($0.member) }) { holderKeys[member] = i }
                continue
            }
            if let flat = f.flatName, let name = InlineText(flat) { byName[name] = i }
            if let c = f.container, let name = InlineText(c.name) {
                let path = c.levels.dropFirst().map(InlineText.init)
                if path.allSatisfy({ $0 != nil }) {
                    containers[name, default: .init()].add(path.compactMap { $0 }, field: i)
                }
            }
        }
        fieldByName = byName
        fieldByFoldedName = Folded.names(byName)
        containerByName = containers
        holderKeyByName = holderKeys
        var holderFields: [InlineText: Int] = [:]
        for (p, f) in shape.parentFields.enumerated() where collection != nil {
            if let name = InlineText(f.fileName) { holderFields[name] = p }
        }
        holderFieldByName = holderFields
        holderFieldByFoldedName = Folded.names(holderFields)
        parentTypes = shape.parentFields.map(\.type)
        keyFields = FieldSet(shape.key + shape.parentKey, count: shape.fields.count)
        centsFields = FieldSet(
            shape.fields.indices.filter { if case .cents = shape.fields[$0].generation { true } else { false } },
            count: shape.fields.count)
        types = shape.fields.map(\.type)
        units = shape.fields.map(\.unitsPerSecond)
        names = shape.fields.map { "field \"\($0.memberPath)\"" }
        fd = try Self.openRegularFile(path)
        buffer = .allocate(byteCount: 1 << 18, alignment: 16)
        try sniff()
    }

    deinit {
        Posix.close(fd)
        buffer.deallocate()
    }

    /// Opens `path` for reading, refusing what is not a regular file: an import file is read more
    /// than once (its records counted first, then read by each repetition).
    private static func openRegularFile(_ path: String) throws -> Int32 {
        // Non-blocking: a FIFO with no writer would block the open forever.
        let fd = Posix.open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw ImportFileError(path: path, errno: errno) }
        var info = stat()
        guard Posix.fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            Posix.close(fd)
            if info.st_mode & S_IFMT == S_IFDIR {
                throw ImportFileError(
                    path: path, errno: 0, why: "is a folder; give the import file in it (a .json or .ndjson file)")
            }
            throw ImportFileError(
                path: path, errno: 0,
                why: "is a pipe or a device, and an import file is read more than once (its "
                    + "records counted first, then read by each repetition): save it to a file (… > feed.ndjson) and give that"
            )
        }
        Posix.setStatusFlags(fd, 0)   // a regular file: back to blocking reads
        return fd
    }

    // MARK: Recognising the file

    /// What a file starts with, to tell which shape it holds before reading it: its format, the
    /// wrapper's array name (JSON), and the member names of its first record.
    package struct Header: Sendable, Equatable {
        package var format: RecordFileFormat
        package var arrayName: String?
        package var firstMembers: [String]
    }

    /// The header of the file at `path`.
    package static func header(of path: String) throws -> Header {
        let probe = RecordShape(entity: "", fields: [], key: [], arrayName: "")
        let reader = try RecordFileReader(path: path, shape: probe)
        var members: [String] = []
        try reader.skipWhitespace()
        if reader.format == .json, try reader.peek() == UInt8(ascii: "]") {
            return Header(format: .json, arrayName: reader.arrayName, firstMembers: [])
        }
        if reader.format == .json, try reader.peek() != UInt8(ascii: "{") {
            return Header(format: .json, arrayName: reader.arrayName, firstMembers: [])
        }
        reader.position += 1
        reader.recordNumber = 1   // what it reads is the first record: its errors say "record 1"
        while true {
            try reader.skipWhitespace()
            guard let c = try reader.peek(), c != UInt8(ascii: "}") else { break }
            if c == UInt8(ascii: ",") {
                reader.position += 1
                try reader.skipWhitespace()
            }
            try reader.readString(into: &reader.field, what: "a member name")
            members.append(reader.field.string)
            try reader.skipWhitespace()
            guard try reader.peek() == UInt8(ascii: ":") else { break }
            reader.position += 1
            try reader.skipWhitespace()
            try reader.skipValue()
        }
        return Header(format: reader.format, arrayName: reader.arrayName, firstMembers: members)
    }

    /// The wrapper's array name, when the file is `{"name": [ … ]}`.
    package private(set) var arrayName: String?

    private func sniff() throws {
        // A UTF-8 byte-order mark, which editors on Windows write: RFC 8259 lets a parser ignore it.
        try fill(atLeast: 3)
        if filled - position >= 3, buffer[position] == 0xEF, buffer[position + 1] == 0xBB, buffer[position + 2] == 0xBF
        {
            position += 3
        }
        try skipWhitespace()
        guard let first = try peek() else { throw error(nil, "the file is empty (expected JSON records)") }
        if first == UInt8(ascii: "[") {
            position += 1
            bareArray = true
            format = .json
            return
        }
        guard first == UInt8(ascii: "{") else { throw unexpected(first, expecting: "'{' or '['", record: nil) }
        if !pointer.isEmpty { return try descend() }
        // NDJSON starts with a record; the JSON shape starts with {"<array name>": [.
        if let name = try wrapperName() {
            arrayName = name
            format = .json
        } else {
            format = .ndjson
        }
    }

    /// Consumes `{"<name>": [` when the file starts so (and returns the name); otherwise consumes
    /// nothing. A record's first member is never an array in a shape, so `[` tells them apart.
    private func wrapperName() throws -> String? {
        try fill(atLeast: 4096)
        var i = position + 1
        func skip() { while i < filled, isWhitespace(buffer[i]) { i += 1 } }
        skip()
        guard i < filled, buffer[i] == UInt8(ascii: "\"") else { return nil }
        var j = i + 1
        while j < filled, buffer[j] != UInt8(ascii: "\""), buffer[j] != UInt8(ascii: "\\") { j += 1 }
        guard j < filled, buffer[j] == UInt8(ascii: "\"") else { return nil }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[(i + 1)..<j]), as: UTF8.self)
        j += 1
        while j < filled, isWhitespace(buffer[j]) { j += 1 }
        guard j < filled, buffer[j] == UInt8(ascii: ":") else { return nil }
        j += 1
        while j < filled, isWhitespace(buffer[j]) { j += 1 }
        guard j < filled, buffer[j] == UInt8(ascii: "[") else { return nil }
        position = j + 1
        return name
    }

    // MARK: Records

    /// Reads the next record; false after the last one.
    package func next(into record: inout Record) throws -> Bool {
        if collection != nil { return try nextNested(into: &record) }
        guard try nextElement(first: recordNumber == 0, of: "a record") else { return false }
        recordNumber += 1
        try readObject(into: &record)
        record.index = recordNumber - 1
        record.keyIndex = -1
        return true
    }

    /// Steps to the next element of the records' array (or the next line of NDJSON): false at
    /// its end, the rest of the document checked. `first` tells the first element (no ',').
    func nextElement(first: Bool, of what: String) throws -> Bool {
        if finished { return false }
        try skipWhitespace()
        if format == .json {
            let ends = "the file ends before the closing ']'" + (arrayName.map { " of \"\($0)\"" } ?? "")
            guard try nextInArray(first: first, after: what, ends: ends) else {
                if bareArray {
                    try expectEndOfFile()
                } else if !pointer.isEmpty {
                    try ascend()
                } else {
                    try expectEnd(closing: "}")
                }
                finished = true
                return false
            }
        } else if try peek() == nil {
            finished = true
            return false
        }
        return true
    }

    /// Steps to an array's next element (past the ',' before it unless `first`): false at the
    /// array's `]`, consumed. `ends` is the error when the file ends first.
    func nextInArray(first: Bool, after what: String, ends: String) throws -> Bool {
        try skipWhitespace()
        guard let c = try peek() else { throw error(nil, ends) }
        if c == UInt8(ascii: "]") {
            position += 1
            return false
        }
        if !first {
            guard c == UInt8(ascii: ",") else {
                throw unexpected(c, expecting: "',' or ']' after \(what)", record: recordNumber)
            }
            position += 1
            try skipWhitespace()
        }
        return true
    }

    func expectEnd(closing: Character) throws {
        try skipWhitespace()
        guard let c = try peek() else { throw error(nil, "the file ends before the final '\(closing)'") }
        guard c == UInt8(ascii: closing.asciiValue.map { Unicode.Scalar($0) }!) else {
            throw unexpected(c, expecting: "'\(closing)'", record: nil)
        }
        position += 1
        try expectEndOfFile()
    }

    // MARK: A records' array inside the document (JSON Pointer)

    /// Splits `file#/a/b` into the file and the pointer's members (`~1` is `/`, `~0` is `~`); a
    /// path that names a file as it is has no pointer.
    package static func location(_ input: String) throws -> (path: String, pointer: [String]) {
        guard let hash = input.firstIndex(of: "#"), Posix.access(input, F_OK) != 0 else { return (input, []) }
        let path = String(input[..<hash])
        let fragment = String(input[input.index(after: hash)...])
        guard fragment.hasPrefix("/"), fragment.count > 1 else {
            throw ImportError(
                path: path, record: nil, offset: 0,
                message:
                    "--input-path \"\(fragment)\" is not a JSON Pointer to a member (one like /apps or /source/apps)")
        }
        let tokens = try fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { token in
            guard let member = unescaped(token) else {
                throw InputPathError(
                    message: "--input-path \(fragment): \"\(token)\" has a '~' that is no escape: in a JSON Pointer "
                        + "~0 stands for '~' and ~1 for '/' (RFC 6901); write a member's '~' as ~0")
            }
            return member
        }
        return (path, tokens)
    }

    /// A pointer's member decoded (RFC 6901: "~1" is "/" and "~0" is "~"); nil when a '~' is
    /// followed by anything else, which the RFC makes an error.
    static func unescaped(_ token: Substring) -> String? {
        var out = ""
        var tilde = false
        for ch in token {
            if tilde {
                guard ch == "0" || ch == "1" else { return nil }
                out.append(ch == "1" ? "/" : "~")
                tilde = false
            } else if ch == "~" {
                tilde = true
            } else {
                out.append(ch)
            }
        }
        return tilde ? nil : out
    }

    /// Walks the pointer's members from the document's `{` to the records' `[`, skipping the
    /// members around them (a feed's name, identifier, …).
    private func descend() throws {
        format = .json
        var at = ""
        for (depth, token) in pointer.enumerated() {
            let place = at.isEmpty ? "the document" : at
            if try peek() == UInt8(ascii: "["), token.allSatisfy(\.isNumber) {
                let rest = pointer.dropFirst(depth + 1).joined(separator: "/")
                throw error(
                    nil,
                    "--input-path: \(place) is an array, and loadgen reads every element of one, not element \(token): "
                        + (rest.isEmpty
                            ? "give \(at) for its elements as the records"
                            : "give \(at)/*/\(rest) for the records inside each element"))
            }
            guard try peek() == UInt8(ascii: "{") else { throw error(nil, "--input-path: \(place) is not an object") }
            position += 1
            try skipMembers(until: token, in: at.isEmpty ? "the document" : at)
            at += "/" + token
            try skipWhitespace()
            let last = depth == pointer.count - 1
            if !last, try peek() == UInt8(ascii: "[") { continue }   // the next member's check names an index
            guard let c = try peek(), c == UInt8(ascii: last ? "[" : "{") else {
                throw error(nil, "--input-path: \(at) is not \(last ? "an array of records" : "an object")")
            }
            if last { position += 1 }
        }
        arrayName = pointer.last
    }

    /// Skips members of the object just opened until the one named `token` (consumed with its
    /// ':'); throws when the object ends first.
    private func skipMembers(until token: String, in place: String) throws {
        var first = true
        while try nextMember(&first, what: "a member name", inside: place, record: nil) {
            if field.string == token { return }
            try skipValue()
        }
        throw error(nil, "--input-path: \(place) has no member \"\(token)\"")
    }

    /// Steps to an object's next member: false at its `}` (consumed), else its name is in `field`
    /// and its ':' consumed. `first` tells the first member (no ',' before it).
    @inline(__always)
    func nextMember(_ first: inout Bool, what: String, inside place: String, record: Int?) throws -> Bool {
        try skipWhitespace()
        guard let c = try peek() else { throw error(record, "the file ends inside \(place)") }
        if c == UInt8(ascii: "}") {
            position += 1
            return false
        }
        if !first {
            guard c == UInt8(ascii: ",") else { throw unexpected(c, expecting: "',' or '}'", record: record) }
            position += 1
            try skipWhitespace()
        }
        first = false
        try readString(into: &field, what: what)
        try skipWhitespace()
        guard let colon = try peek() else { throw error(record, "the file ends inside \(place)") }
        guard colon == UInt8(ascii: ":") else { throw unexpected(colon, expecting: "':'", record: record) }
        position += 1
        try skipWhitespace()
        return true
    }

    /// After the records' `]`: the rest of each enclosing object, then the end of the file.
    func ascend() throws {
        for _ in pointer {
            // The records' member came before: every further one follows a ','.
            var first = false
            while try nextMember(&first, what: "a member name", inside: "the document", record: nil) { try skipValue() }
        }
        try expectEndOfFile()
    }

    func expectEndOfFile() throws {
        try skipWhitespace()
        if let extra = try peek() { throw unexpected(extra, expecting: "the end of the file", record: nil) }
    }

    /// The field a member fills by its folded name, noted once per member.
    private func foldedField(_ member: InlineText) -> Int? {
        guard !fieldByFoldedName.isEmpty, let f = fieldByFoldedName[Folded.name(member)] else { return nil }
        noteFolded("\(member.string) → \(shape.fields[f].name)")
        return f
    }

    func noteFolded(_ line: String) {
        if foldedMembers.count < 12, !foldedMembers.contains(line) { foldedMembers.append(line) }
    }

    func readObject(into r: inout Record) throws {
        let start = offset
        guard let c = try peek() else { throw error(recordNumber, "the file ends where a record should start") }
        guard c == UInt8(ascii: "{") else {
            throw unexpected(c, expecting: "'{' starting a record", record: recordNumber)
        }
        position += 1
        var seen = FieldSet(count: shape.fields.count)
        r.values.reset(fields: shape.fields.count)
        var firstMember = true
        while try nextMember(&firstMember, what: "a field name", inside: "the record", record: recordNumber) {
            guard let f = fieldByName[field] ?? foldedField(field) else {
                if let members = containerByName[field] {
                    try readContainer(members, seen: &seen, into: &r.values)
                    continue
                }
                if ignoredMembers.count < 8, !ignoredMembers.contains(field.string) {
                    ignoredMembers.append(field.string)
                }
                try skipValue()
                continue
            }
            // A relationship's member that is also the key's flat name (its mappedKeyName, as
            // MagicalRecord maps it) holds the key itself, or the related object as an object.
            if let members = containerByName[field], try peek() == UInt8(ascii: "{") {
                try readContainer(members, seen: &seen, into: &r.values)
                continue
            }
            try readMember(of: f, seen: &seen, into: &r.values)
            if _slowPath(sharesMembers) { copyShared(f, seen: &seen, into: &r.values) }
        }
        for (f, spec) in shape.fields.enumerated() where !seen.contains(f) || r.values.isNull(f) {
            if spec.isRequired || shape.key.contains(f) || (collection == nil && shape.parentKey.contains(f)) {
                let why = !seen.contains(f) ? "missing field" : "null field"
                let role =
                    shape.key.contains(f)
                    ? " (the key)"
                    : shape.parentKey.contains(f)
                        ? " (names the related object)"
                        : " (the model requires it and gives no default)"
                throw ImportError(
                    path: path, record: recordNumber, offset: start, message: "\(why) \"\(spec.memberPath)\"\(role)")
            }
        }
        // "" is a value like any other in a key of several attributes (an app stores it); a key
        // that is nothing but empty text names no record, and is refused as a broken line.
        if !shape.key.isEmpty, shape.key.allSatisfy({ shape.fields[$0].type == .text && r.values.byteCount($0) == 0 }) {
            let f = shape.key[0]
            throw ImportError(
                path: path, record: recordNumber, offset: start,
                message: "field \"\(shape.fields[f].fileName)\" is empty (a key needs text)")
        }
        if !shape.parentKey.isEmpty, collection == nil { try numberParent(of: &r) }
        if format == .ndjson, collection == nil { try endOfLine() }
    }

    /// Reads field `f`'s value once per record: JSON leaves a repeated name to the reader, and a
    /// record must say one thing per field.
    /// `what` names the member in messages when it is not the field's own name (a holder's member).
    func readMember(of f: Int, seen: inout FieldSet, into v: inout RecordValues, what: String? = nil) throws {
        guard !seen.contains(f) else {
            throw error(recordNumber, "\(what ?? names[f]) is given twice")
        }
        seen.insert(f)
        try readValue(
            type: types[f], what: what ?? names[f], key: keyFields.contains(f), cents: centsFields.contains(f),
            unit: units[f],
            at: f, into: &v)
    }

    /// Gives the fields that share field `f`'s member its value (`RecordShape.sharedMembers`).
    @inline(never)
    private func copyShared(_ f: Int, seen: inout FieldSet, into v: inout RecordValues) {
        guard sharingFields.contains(f) else { return }
        for g in copiesOf[f]! {
            seen.insert(g)
            v.copyValue(of: f, to: g)
        }
    }

    /// A member holding an object: a relationship's, naming the related object (`{"identifier": …}`),
    /// or a key path's (`properties.place.code`), its objects read as deep as the path goes and
    /// their other members skipped; or null (no related object, no value).
    private func readContainer(_ members: ContainerMembers, seen: inout FieldSet, into v: inout RecordValues) throws {
        let container = field.string
        guard let c = try peek() else { throw error(recordNumber, "the file ends inside the record") }
        if try matchLiteral("null") { return }
        guard c == UInt8(ascii: "{") else {
            throw typeError("member \"\(container)\"", expected: "an object", found: c)
        }
        position += 1
        var first = true
        while try nextMember(&first, what: "a member name", inside: "the record", record: recordNumber) {
            if let f = members.leaves.first(where: { $0.member == field })?.field {
                try readMember(of: f, seen: &seen, into: &v)
            } else if let inner = members.objects.first(where: { $0.member == field })?.members {
                try readContainer(inner, seen: &seen, into: &v)
            } else {
                try skipValue()
            }
        }
    }

    /// Reads the related object's attribute `p` (`shape.parentFields`), given by the element
    /// holding the records, into `holderValues`; `member` is its name as the file writes it.
    func readHolderValue(_ p: Int, member: String) throws {
        try readValue(
            type: parentTypes[p], what: "member \"\(member)\"", key: false, cents: false, unit: nil, at: p,
            into: &holderValues)
    }

    /// Reads a value of `type` into slot `f` of `v`, checked against its type.
    private func readValue(
        type: FieldType, what: String, key: Bool, cents: Bool, unit: Double?, at f: Int,
        into v: inout RecordValues
    ) throws {
        if try matchLiteral("null") {
            v.setNull(f)
            return
        }
        switch type {
        case .text:
            try readLongString(what: what)
            if key, scratch.count > InlineText.capacity {
                throw error(
                    recordNumber, "\(what) is longer than \(InlineText.capacity) bytes (loadgen's limit for a key)")
            }
            scratch.withUnsafeBytes { v.setBytes($0, at: f) }
        case .integer16, .integer32, .integer64:
            v.setInteger(try readInteger(what, type), at: f)
        case .real:
            let n = try readNumber(what)
            // Only the built-in amount is kept in whole cents; a model's Double takes any double.
            guard !cents || Record.amountRange.contains(n) else {
                throw error(
                    recordNumber,
                    "\(what) is \(n), outside what a number in whole cents holds exactly "
                        + "(±\(Record.amountRange.upperBound))")
            }
            v.setDouble(n, at: f)
        case .date:
            v.setDouble(try readDate(what, unit: unit), at: f)
        case .bool:
            v.setBool(try readBool(what), at: f)
        case .bytes:
            try readBytes(what, into: &v, at: f)
        case .uuid:
            try readString(into: &text, what: what)
            guard let bytes = UUIDText.parse(text) else {
                throw error(recordNumber, "\(what) is not a UUID (8-4-4-4-12 hex digits): \"\(text)\"")
            }
            withUnsafeBytes(of: bytes) { v.setBytes($0, at: f) }
        }
    }

    /// A date: an ISO 8601 string, or a number since 1970 as feeds that count time write it (in
    /// seconds, or in the unit the mapping gives: `:ms`); in seconds since Core Data's reference
    /// date. A number read as seconds that lands past the year 3000 is a millisecond count taken
    /// for seconds: refused, naming the year and the mapping that reads it.
    private func readDate(_ what: String, unit: Double?) throws -> Double {
        if let c = try peek(), c == UInt8(ascii: "-") || (c >= 48 && c <= 57) {
            let n = try readNumber(what)
            if let unit { return n / unit - Self.unixEpochSinceReferenceDate }
            let year = 1970 + n / 31_556_952
            guard year < 3000 else {
                throw error(
                    recordNumber,
                    "\(what) is \(String(format: "%.0f", n)), which as seconds since 1970 is in the year "
                        + "\(String(format: "%.0f", year.rounded(.down))): if the "
                        + "feed counts milliseconds, give the mapping its unit (--map ATTRIBUTE=MEMBER:ms)")
            }
            return n - Self.unixEpochSinceReferenceDate
        }
        try readString(into: &text, what: what)
        guard let d = text.withBytes(ISO8601.parse) else {
            throw error(recordNumber, "\(what) is not a date: \"\(text)\" (an ISO 8601 string, or seconds since 1970)")
        }
        return d
    }

    /// Bytes: a UUID's text (8-4-4-4-12 hex digits: its 16 bytes, as an app keeps a UUID in a
    /// Binary attribute; never base64, which has no '-'), base64 text, or a JSON array or object
    /// kept as its text.
    private func readBytes(_ what: String, into v: inout RecordValues, at f: Int) throws {
        if let c = try peek(), c == UInt8(ascii: "[") || c == UInt8(ascii: "{") {
            try readJSONText(what: what)
            scratch.withUnsafeBytes { v.setBytes($0, at: f) }
            return
        }
        try readLongString(what: what)
        if scratch.count == 36, let text = scratch.withUnsafeBytes({ InlineText(bytes: $0) }),
            let uuid = UUIDText.parse(text)
        {
            withUnsafeBytes(of: uuid) { v.setBytes($0, at: f) }
            return
        }
        guard let bytes = scratch.withUnsafeBytes(Base64.decode) else {
            throw error(recordNumber, "\(what) is neither a UUID, base64 text nor a JSON array or object")
        }
        bytes.withUnsafeBytes { v.setBytes($0, at: f) }
    }

    /// A JSON array or object given for a Binary or Transformable attribute (an app's feed holds
    /// its screenshots' URLs as an array), kept as its text: the UTF-8 bytes a JSON value
    /// transformer stores, copied from the file as they stand into `scratch`.
    private func readJSONText(what: String) throws {
        scratch.removeAll(keepingCapacity: true)
        var depth = 0
        var inString = false
        var escaped = false
        repeat {
            guard let c = try peek() else { throw error(recordNumber, "the file ends inside \(what)") }
            position += 1
            scratch.append(c)
            if inString {
                if escaped {
                    escaped = false
                } else if c == UInt8(ascii: "\\") {
                    escaped = true
                } else if c == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch c {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        } while depth > 0
    }

    /// Numbers related objects in order of first appearance, by their key's bytes.
    func numberParent(of r: inout Record) throws {
        var key = InlineText()
        for f in shape.parentKey {
            if shape.fields[f].type.isBytes {
                r.values.withBytes(f, pool: nil) { key.append($0) }
            } else {
                withUnsafeBytes(of: r.values.integer(f)) { key.append($0) }
            }
            key.append(byte: 0x1F)
        }
        if let i = parents[key] {
            r.parentIndex = i
        } else {
            r.parentIndex = parents.count
            parents[key] = r.parentIndex
        }
    }

    // MARK: Values

    private func readString(into out: inout InlineText, what: String) throws {
        try readLongString(what: what)
        guard scratch.count <= InlineText.capacity else {
            throw error(recordNumber, "\(what) is longer than \(InlineText.capacity) bytes (loadgen's limit for text)")
        }
        out.removeAll()
        scratch.withUnsafeBytes { out.append($0) }
    }

    /// Reads a JSON string into `scratch`, unescaping, and checking it is UTF-8 text.
    private func readLongString(what: String) throws {
        guard let q = try peek() else { throw error(recordNumber, "the file ends where \(what) should be") }
        guard q == UInt8(ascii: "\"") else { throw typeError(what, expected: "a string", found: q) }
        position += 1
        scratch.removeAll(keepingCapacity: true)
        var continuation = 0
        while true {
            // Fast path: copy the run of plain ASCII up to the next byte that needs a look.
            if continuation == 0 {
                var i = position
                while i < filled {
                    let b = buffer[i]
                    if b == 34 || b == 92 || b < 0x20 || b >= 0x80 { break }
                    i += 1
                }
                if i > position {
                    scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[position..<i]))
                    position = i
                }
            }
            guard let c = try peek() else { throw error(recordNumber, "the file ends inside \(what)") }
            position += 1
            if continuation > 0 {
                guard c & 0xC0 == 0x80 else { throw error(recordNumber, "\(what) is not valid UTF-8") }
                continuation -= 1
                scratch.append(c)
                continue
            }
            switch c {
            case UInt8(ascii: "\""):
                return
            case UInt8(ascii: "\\"):
                try readEscape(what: what)
            case 0..<0x20:
                throw error(
                    recordNumber, "\(what) holds control byte 0x\(String(c, radix: 16)) (binary data is not JSON)")
            case 0x80...:
                if c & 0xE0 == 0xC0 {
                    continuation = 1
                } else if c & 0xF0 == 0xE0 {
                    continuation = 2
                } else if c & 0xF8 == 0xF0 {
                    continuation = 3
                } else {
                    throw error(recordNumber, "\(what) is not valid UTF-8")
                }
                scratch.append(c)
            default:
                scratch.append(c)
            }
        }
    }

    private func readEscape(what: String) throws {
        guard let e = try peek() else { throw error(recordNumber, "the file ends inside \(what)") }
        position += 1
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(e)
        case UInt8(ascii: "b"): scratch.append(8)
        case UInt8(ascii: "f"): scratch.append(12)
        case UInt8(ascii: "n"): scratch.append(10)
        case UInt8(ascii: "r"): scratch.append(13)
        case UInt8(ascii: "t"): scratch.append(9)
        case UInt8(ascii: "u"):
            var scalar = try hex4(what)
            if (0xD800..<0xDC00).contains(scalar) {
                guard try peek() == UInt8(ascii: "\\") else {
                    throw error(recordNumber, "\(what) has a lone surrogate")
                }
                position += 1
                guard try peek() == UInt8(ascii: "u") else { throw error(recordNumber, "\(what) has a lone surrogate") }
                position += 1
                let low = try hex4(what)
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let u = Unicode.Scalar(scalar) else { throw error(recordNumber, "\(what) has an invalid \\u escape") }
            scratch.append(contentsOf: Array(String(Character(u)).utf8))
        default:
            throw error(recordNumber, "\(what) has an invalid escape '\\\(Character(Unicode.Scalar(e)))'")
        }
    }

    private func hex4(_ what: String) throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let c = try peek(), let d = hexValue(c) else {
                throw error(recordNumber, "\(what) has an invalid \\u escape")
            }
            position += 1
            v = v << 4 | d
        }
        return v
    }

    /// Reads a number; `what` names it in errors (`field "amount"`).
    /// A number's characters, at most 31, NUL-terminated (no allocation per value).
    private typealias NumberText = (chars: (UInt64, UInt64, UInt64, UInt64), count: Int)

    private func readNumberText(_ what: String) throws -> NumberText {
        guard let first = try peek() else { throw error(recordNumber, "the file ends where \(what) should be") }
        guard first == UInt8(ascii: "-") || (first >= 48 && first <= 57) else {
            throw typeError(what, expected: "a number", found: first)
        }
        var text: NumberText = ((0, 0, 0, 0), 0)
        while let c = try peek(), (c >= 48 && c <= 57) || c == 45 || c == 43 || c == 46 || c == 101 || c == 69 {
            guard text.count < 31 else { throw error(recordNumber, "\(what) is too long a number") }
            withUnsafeMutableBytes(of: &text.chars) { $0[text.count] = c }
            text.count += 1
            position += 1
        }
        return text
    }

    private func readNumber(_ what: String) throws -> Double {
        var text = try readNumberText(what)
        guard let value = Self.double(&text), value.isFinite else {
            throw error(recordNumber, "\(what) is not a number")
        }
        return value
    }

    /// An integer read exactly from its digits (never through a double, which holds 2⁵³ at
    /// most), checked against the attribute's type. `1e3` or `2.0` are read as the integer
    /// they are when a double holds it exactly.
    private func readInteger(_ what: String, _ type: FieldType) throws -> Int64 {
        var text = try readNumberText(what)
        let range = -type.integerMaximum! - 1...type.integerMaximum!
        // Messages are built only when one is thrown: no string per value read.
        func outside(_ text: NumberText) -> String {
            "\(what) is \(Self.shown(text)), outside what an \(type.attributeTypeName) attribute holds (\(range.lowerBound) … \(range.upperBound))"
        }
        if let n = Self.digits(text) {
            guard let n, range.contains(n) else { throw error(recordNumber, outside(text)) }
            return n
        }
        guard let x = Self.double(&text), x.isFinite else { throw error(recordNumber, "\(what) is not a number") }
        guard x == x.rounded() else { throw error(recordNumber, "\(what) is \(Self.shown(text)), not a whole number") }
        guard abs(x) <= 9_007_199_254_740_992 else {
            throw error(
                recordNumber,
                "\(what) is \(Self.shown(text)): above 2^53 an integer must be written as its digits to be read exactly"
            )
        }
        guard range.contains(Int64(x)) else { throw error(recordNumber, outside(text)) }
        return Int64(x)
    }

    /// The number as the file wrote it, for a message.
    private static func shown(_ text: NumberText) -> String {
        withUnsafeBytes(of: text.chars) { String(decoding: $0.prefix(text.count), as: UTF8.self) }
    }

    /// `-?[0-9]+` as an Int64: nil when the text is not plain digits, `.some(nil)` when they
    /// overflow an Int64.
    private static func digits(_ text: NumberText) -> Int64?? {
        withUnsafeBytes(of: text.chars) { raw -> Int64?? in
            let bytes = raw.prefix(text.count)
            let negative = bytes.first == UInt8(ascii: "-")
            let body = bytes.dropFirst(negative ? 1 : 0)
            guard !body.isEmpty, body.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            var n: Int64 = 0
            for c in body {
                // Accumulated negatively, so that Int64.min is reached without overflow.
                let (m, o1) = n.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.subtractingReportingOverflow(Int64(c - 48))
                if o1 || o2 { return .some(nil) }
                n = s
            }
            if negative { return .some(n) }
            return n == .min ? .some(nil) : .some(-n)
        }
    }

    private static func double(_ text: inout NumberText) -> Double? {
        let n = text.count
        var end: UnsafeMutablePointer<CChar>?
        return withUnsafeMutableBytes(of: &text.chars) { raw -> Double? in
            let p = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
            let v = strtod(p, &end)
            return end == p + n ? v : nil
        }
    }

    private func readBool(_ what: String) throws -> Bool {
        guard let c = try peek() else { throw error(recordNumber, "the file ends where \(what) should be") }
        if try matchLiteral("true") { return true }
        if try matchLiteral("false") { return false }
        throw typeError(what, expected: "true or false", found: c)
    }

    func matchLiteral(_ word: StaticString) throws -> Bool {
        try fill(atLeast: word.utf8CodeUnitCount)
        guard filled - position >= word.utf8CodeUnitCount else { return false }
        for i in 0..<word.utf8CodeUnitCount where buffer[position + i] != word.utf8Start[i] { return false }
        position += word.utf8CodeUnitCount
        return true
    }

    /// Skips a value loadgen does not use (any JSON value, nested or not).
    func skipValue() throws {
        guard let c = try peek() else { throw error(recordNumber, "the file ends inside the record") }
        switch c {
        case UInt8(ascii: "\""): try readLongString(what: "field \"\(field)\"")
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            repeat {
                guard let d = try peek() else { throw error(recordNumber, "the file ends inside the record") }
                if d == UInt8(ascii: "\"") {
                    try readLongString(what: "field \"\(field)\"")
                    continue
                }
                position += 1
                if d == UInt8(ascii: "{") || d == UInt8(ascii: "[") { depth += 1 }
                if d == UInt8(ascii: "}") || d == UInt8(ascii: "]") { depth -= 1 }
            } while depth > 0
        default:
            if try matchLiteral("true") || matchLiteral("false") || matchLiteral("null") { return }
            _ = try readNumber("field \"\(field)\"")
        }
    }

    func endOfLine() throws {
        while let c = try peek() {
            if c == 10 {
                position += 1
                return
            }
            guard c == 32 || c == 9 || c == 13 else {
                throw unexpected(c, expecting: "the end of the line after a record", record: recordNumber)
            }
            position += 1
        }
    }

    // MARK: Bytes

    var offset: Int { bufferOffset + position }

    @inline(__always)
    func peek() throws -> UInt8? {
        if position < filled { return buffer[position] }
        try fill(atLeast: 1)
        return position < filled ? buffer[position] : nil
    }

    /// Makes at least `n` bytes available from `position` (fewer at the end of the file).
    private func fill(atLeast n: Int) throws {
        guard filled - position < n, !atEOF else { return }
        let keep = filled - position
        if keep > 0 && position > 0 {
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + position, byteCount: keep)
        }
        bufferOffset += position
        position = 0
        filled = keep
        while filled < n && !atEOF {
            let got: Int
            do {
                got = try Posix.read(fd, into: buffer.baseAddress! + filled, count: buffer.count - filled)
            } catch {
                throw self.error(recordNumber == 0 ? nil : recordNumber, "cannot read: \(error)")
            }
            if got == 0 { atEOF = true }
            filled += got
        }
    }

    func skipWhitespace() throws {
        while let c = try peek(), isWhitespace(c) { position += 1 }
    }

    @inline(__always)
    private func isWhitespace(_ c: UInt8) -> Bool { c == 32 || c == 10 || c == 13 || c == 9 }

    private func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 48...57: return UInt32(c - 48)
        case 97...102: return UInt32(c - 87)
        case 65...70: return UInt32(c - 55)
        default: return nil
        }
    }

    // MARK: Errors

    func error(_ record: Int?, _ message: String) -> ImportError {
        // A member of the element holding the records belongs to no record: the element's own
        // pointer says where it is.
        if let holderPlace {
            return ImportError(path: path, record: nil, offset: offset, message: "\(holderPlace): \(message)")
        }
        return ImportError(path: path, record: record, offset: offset, message: message)
    }

    func unexpected(_ byte: UInt8, expecting: String, record: Int?) -> ImportError {
        let shown =
            byte >= 32 && byte < 127 ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        return error(
            record, "expected \(expecting), found \(shown)\(byte < 32 && !isWhitespace(byte) ? " (not JSON text)" : "")"
        )
    }

    func typeError(_ what: String, expected: String, found byte: UInt8) -> ImportError {
        let kind: String
        switch byte {
        case UInt8(ascii: "\""): kind = "a string"
        case UInt8(ascii: "{"): kind = "an object"
        case UInt8(ascii: "["): kind = "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): kind = "a boolean"
        case UInt8(ascii: "n"): kind = "null"
        case UInt8(ascii: "-"), 48...57: kind = "a number"
        default:
            kind =
                byte >= 32 && byte < 127 ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        }
        return error(recordNumber, "\(what) must be \(expected), found \(kind)")
    }
}

/// An `--input-path` that cannot lead to the run's records, whatever the file holds (a usage
/// error: the flag is wrong, not the file).
package struct InputPathError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}

/// An import file that cannot be opened.
package struct ImportFileError: Error, CustomStringConvertible {
    package let path: String
    package let errno: Int32
    /// Set when the file opened but is not one loadgen can read as an import file.
    package var why: String?
    package var description: String { "\(path): \(why ?? String(cString: strerror(errno)))" }

    init(path: String, errno: Int32, why: String? = nil) {
        self.path = path
        self.errno = errno
        self.why = why
    }
}

extension InlineText {
    /// Equality with a static ASCII string, byte for byte.
    static func == (text: InlineText, literal: StaticString) -> Bool {
        guard text.count == literal.utf8CodeUnitCount else { return false }
        return text.withBytes { b in (0..<b.count).allSatisfy { b[$0] == literal.utf8Start[$0] } }
    }
}

/// The fields an object of the record holds, as key paths reach them: members that hold a value
/// (`code` in `properties.code`) and members that hold an object holding more
/// (`place` in `properties.place.code`), each level built once, not per record.
struct ContainerMembers {
    private(set) var leaves: [(member: InlineText, field: Int)] = []
    private(set) var objects: [(member: InlineText, members: ContainerMembers)] = []

    /// Adds field `field`, reached through `path` inside this object.
    mutating func add(_ path: [InlineText], field: Int) {
        guard let first = path.first else { return }
        guard path.count > 1 else {
            leaves.append((first, field))
            return
        }
        if let i = objects.firstIndex(where: { $0.member == first }) {
            objects[i].members.add(Array(path.dropFirst()), field: field)
        } else {
            var inner = ContainerMembers()
            inner.add(Array(path.dropFirst()), field: field)
            objects.append((first, inner))
        }
    }
}
