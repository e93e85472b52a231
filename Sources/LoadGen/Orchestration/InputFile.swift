import Foundation
import Host
import Strategies
import Workload

/// An import file given with `--input`, read once in full before any repetition: a malformed
/// file stops the run at once (exit 65) with nothing created, and the run learns how many
/// records and distinct keys the file holds, and which dataset it is when no model is named.
struct InputFile {
    let path: String
    let format: RecordFileFormat
    /// The built-in dataset the file holds (recognised from it), when the run names no model.
    let dataset: Dataset
    let records: Int
    /// Distinct keys, counted by 64-bit hashes of the key bytes (memory stays small: 8 bytes
    /// per key; a collision, about 1 in 10^7 at a million keys, would undercount by one).
    let uniqueKeys: Int
    /// Members of the file's records that no field of the model reads.
    let ignoredMembers: [String]
    /// Members read for a field by their name ignoring case and `_` ("product_id → productID").
    var foldedMembers: [String] = []
    /// The version of the file these counts are of: every repetition must read the same one.
    var version: Version?

    /// A file (without its `#pointer`) and the version of it that was read.
    struct Version {
        let path: String
        let identity: FileIdentity
    }

    /// Reads the file at `path` for `configuration`'s model (or the dataset the file holds).
    /// `addedConstraints`: every constraint a sweep of `--add-constraint` adds (each point reads
    /// this file).
    static func scan(
        _ path: String, for configuration: RunConfiguration, datasetGiven: Dataset?,
        addedConstraints: [[String]] = []
    ) throws -> InputFile {
        var configuration = configuration
        do {
            if configuration.model.path == nil {
                configuration.workload.dataset = try datasetGiven ?? recognise(path)
            }
            let source = try ImportSource.resolve(configuration)
            let shape = try source.shape(configuration.shapeOptions)
            let location = try RecordFileReader.location(path).path
            let before = FileIdentity(path: location)
            let reader = try RecordFileReader(path: path, shape: shape)
            var record = Record()
            var keys = Set<UInt64>()
            var oneToOne = OneToOneCheck(shape: shape)
            var others = OtherConstraintsCheck(
                shape: shape, constraints: Self.otherConstraints(source, added: addedConstraints))
            do {
                while try reader.next(into: &record) {
                    let key = keyHash(record, shape, shape.key)
                    keys.insert(key)
                    try oneToOne.check(record, key: key, number: reader.recordNumber, path: path)
                    try others.check(record, key: key, number: reader.recordNumber, path: path)
                }
            } catch let error as ImportError {
                throw nestedHint(error, reader)
            }
            guard reader.recordNumber > 0 else {
                throw CommandError(
                    message: "run: --input \(path): the file holds no records", exitCode: ExitCode.dataError)
            }
            var file = InputFile(
                path: path, format: reader.format, dataset: configuration.workload.dataset,
                records: reader.recordNumber,
                uniqueKeys: shape.key.isEmpty ? reader.recordNumber : keys.count, ignoredMembers: reader.ignoredMembers)
            file.foldedMembers = reader.foldedMembers
            if let before, let after = FileIdentity(path: location), before != after {
                throw CommandError(
                    message: "run: --input \(location): the file changed while it was read (\(before) → \(after)); "
                        + "run again once nothing writes it", exitCode: ExitCode.dataError)
            }
            file.version = before.map { Version(path: location, identity: $0) }
            return file
        } catch let error as InputPathError {
            throw CommandError.usage("run: \(error)")
        } catch let error as ImportFileError {
            throw CommandError(message: "run: --input \(error)", exitCode: ExitCode.noInput)
        } catch let error as ImportError {
            throw CommandError(message: "run: --input \(error)", exitCode: ExitCode.dataError)
        } catch let error as ImportModelError {
            throw RunPlan.modelError(error)
        }
    }

    /// The record entity's uniqueness constraints other than its key (LoopKit's `uuid` and
    /// `syncIdentifier`, or one `--add-constraint` adds), as attribute names.
    private static func otherConstraints(_ source: ImportSource, added: [[String]]) -> [[String]] {
        guard let entity = source.file.entity(named: source.roles.entity) else { return [] }
        let key = Set(source.roles.key)
        return (entity.uniquenessConstraints + added).filter { !$0.isEmpty && Set($0) != key }.uniqued()
    }

    /// The built-in dataset whose file this is: by the JSON wrapper's array name, or by the key's
    /// member in the first record (expenses when neither tells).
    static func recognise(_ path: String) throws -> Dataset {
        let header = try RecordFileReader.header(of: path)
        for dataset in Dataset.allCases {
            var c = RunConfiguration()
            c.workload.dataset = dataset
            let shape = try ImportSource.resolve(c).shape(c.shapeOptions)
            if header.arrayName == shape.arrayName { return dataset }
            if header.arrayName == nil, header.firstMembers.contains(shape.fields[shape.key[0]].fileName) {
                return dataset
            }
        }
        return .expenses
    }

    /// A file whose elements hold the records in their to-many (each subscription its
    /// notifications) read as if the elements were the records: the error says where they are.
    private static func nestedHint(_ error: ImportError, _ reader: RecordFileReader) -> ImportError {
        guard reader.collection == nil, let member = reader.shape.parentCollection,
            reader.ignoredMembers.contains(member)
        else { return error }
        let array = reader.pointer.isEmpty ? "" : "/" + reader.pointer.joined(separator: "/")
        return ImportError(
            path: error.path, record: error.record, offset: error.offset,
            message: error.message
                + " — the records may be the \(member) inside each element: --input-path \(array)/*/\(member)")
    }

    /// A 64-bit hash of the record's `fields` (its key, or its related object's).
    static func keyHash(_ record: Record, _ shape: RecordShape, _ fields: [Int]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ bytes: UnsafeRawBufferPointer) { for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 } }
        for f in fields {
            if shape.fields[f].type.isBytes {
                record.values.withBytes(f, pool: nil, add)
            } else {
                withUnsafeBytes(of: record.values.integer(f), add)
            }
            h = (h ^ 0x1F) &* 0x100_0000_01b3
        }
        return Mixing.mix(h)
    }
}

/// A one-to-one relates each related object to one record: a feed where two records (two keys)
/// name the same related object would run every strategy and fail each with a bad link, so it
/// is refused when read, naming both records. A repeated record (the same key) may name it again.
struct OneToOneCheck {
    private let shape: RecordShape
    private let active: Bool
    /// Each related object's key hash: the first record naming it, and that record's key hash.
    private var first: [UInt64: (record: Int, key: UInt64)] = [:]

    init(shape: RecordShape) {
        self.shape = shape
        active = shape.parentPerRecord && !shape.parentKey.isEmpty
    }

    mutating func check(_ record: Record, key: UInt64, number: Int, path: String) throws {
        guard active else { return }
        let parent = InputFile.keyHash(record, shape, shape.parentKey)
        if let earlier = first[parent] {
            guard earlier.key != key else { return }
            let names = shape.parentKey.map { shape.fields[$0].fileName }.joined(separator: ", ")
            throw ImportError(
                path: path, record: number, offset: -1,
                message:
                    "names the same \(shape.parentEntity ?? "related object") (by \(names)) as record \(earlier.record), "
                    + "and the relationship is one-to-one: each \(shape.entity) has its own; give each record its own")
        }
        first[parent] = (number, key)
    }
}

/// The record entity's other uniqueness constraints: two records under different keys with the
/// same values of one would run every strategy and fail most of them afterwards (the store keeps
/// one row per value), so the feed is refused when read, naming both records (issue 55, item 15).
/// A repeated record (the same key) may carry the same values again; a missing value is NULL,
/// which a UNIQUE index lets repeat.
struct OtherConstraintsCheck {
    private let shape: RecordShape
    /// Each constraint as its fields, and its attributes' names for the message.
    private let constraints: [(fields: [Int], names: [String])]
    /// Per constraint, each value's hash: the first record holding it, and that record's key hash.
    private var first: [[UInt64: (record: Int, key: UInt64)]]

    init(shape: RecordShape, constraints: [[String]]) {
        self.shape = shape
        // A constraint on an attribute the records do not fill holds NULL in every row: no conflict.
        self.constraints = constraints.compactMap { names in
            let fields = names.compactMap { name in shape.fields.firstIndex { $0.name == name } }
            return fields.count == names.count ? (fields, names) : nil
        }
        first = Array(repeating: [:], count: self.constraints.count)
    }

    mutating func check(_ record: Record, key: UInt64, number: Int, path: String) throws {
        for (i, constraint) in constraints.enumerated() where !constraint.fields.contains(where: record.values.isNull) {
            let value = InputFile.keyHash(record, shape, constraint.fields)
            guard let earlier = first[i][value] else {
                first[i][value] = (number, key)
                continue
            }
            guard earlier.key != key else { continue }
            let names = constraint.names.joined(separator: ", ")
            throw ImportError(
                path: path, record: number, offset: -1,
                message: "has the same \(names) as record \(earlier.record) under another key, and \(shape.entity) "
                    + "is unique by \(names) too (a second uniqueness constraint): a store keeps one of them, so every "
                    + "strategy would fail; give each record its own \(names), or drop that constraint")
        }
    }
}
