import Foundation
import Testing

@testable import Workload

@Suite struct ImportFileTests {
    func write(_ spec: WorkloadSpec, _ shape: RecordShape, _ format: RecordFileFormat) throws -> String {
        let path = NSTemporaryDirectory() + "records-\(UUID().uuidString).\(format.rawValue)"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(fd) }
        var source = GeneratedRecords(spec: spec, shape: shape)
        var writer = RecordFileWriter(fd: fd, format: format, shape: shape, pool: source.pool)
        var r = Record()
        while source.next(into: &r) { try writer.write(r) }
        try writer.finish()
        return path
    }

    func spec(rows: Int = 2_000) -> WorkloadSpec {
        var s = WorkloadSpec()
        s.rows = rows
        s.dupRate = 0.2
        s.seed = 5
        s.payloadBytes = 40
        return s
    }

    @Test(arguments: [
        ("expenses", RecordFileFormat.json), ("expenses", .ndjson), ("photos", .json), ("photos", .ndjson),
    ])
    func generateThenReadGivesTheSameRecords(dataset: String, format: RecordFileFormat) throws {
        let s = spec()
        let shape = dataset == "expenses" ? Shapes.expenses : Shapes.photos(payloadBytes: 40)
        let path = try write(s, shape, format)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try RecordFileReader(path: path, shape: shape)
        #expect(reader.format == format)
        #expect(try RecordFileReader.header(of: path).arrayName == (format == .json ? shape.arrayName : nil))
        let generator = Generator(spec: s, shape: shape)
        var r = Record()
        var n = 0
        while try reader.next(into: &r) {
            let g = generator.record(at: n)
            for f in shape.fields.indices {
                switch shape.fields[f].type {
                case .text, .bytes:
                    #expect(r.bytes(f, pool: nil) == g.bytes(f, pool: generator.pool), "\(shape.fields[f].name)")
                case .bool: #expect(r.values.bool(f) == g.values.bool(f))
                default: #expect(r.values.double(f) == g.values.double(f), "\(shape.fields[f].name)")
                }
            }
            n += 1
        }
        #expect(n == s.rows)
    }

    @Test func sameSpecSameBytes() throws {
        let a = try write(spec(), Shapes.expenses, .json)
        let b = try write(spec(), Shapes.expenses, .json)
        defer {
            try? FileManager.default.removeItem(atPath: a)
            try? FileManager.default.removeItem(atPath: b)
        }
        #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b))
    }

    func read(_ text: String, shape: RecordShape = Shapes.expenses) -> ImportError? {
        let path = NSTemporaryDirectory() + "bad-\(UUID().uuidString).json"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let reader = try RecordFileReader(path: path, shape: shape)
            var r = Record()
            while try reader.next(into: &r) {}
            return nil
        } catch let error as ImportError {
            return error
        } catch {
            // Any other error is a bug in the reader: malformed input must give a located ImportError.
            Issue.record("expected an ImportError, got \(type(of: error)): \(error)")
            return nil
        }
    }

    static let good = #"{"id": "a", "amount": 1.5, "date": "2025-01-01T00:00:00Z", "note": "x", "categoryName": "c"}"#

    @Test func malformedFilesNameTheRecordAndTheProblem() {
        #expect(read("")?.message.contains("empty") == true)
        let type = read(
            "{\"expenses\": [\n\(Self.good),\n" + Self.good.replacingOccurrences(of: "1.5", with: "\"1.5\"") + "]}")
        #expect(type?.record == 2 && type?.message == "field \"amount\" must be a number, found a string")
        let missing = read(Self.good + "\n" + Self.good.replacingOccurrences(of: #""id": "a", "#, with: "") + "\n")
        #expect(missing?.record == 2 && missing?.message == "missing field \"id\" (the key)")
        // An optional attribute may be missing or null (the model's default applies); a required one may not.
        #expect(read(Self.good.replacingOccurrences(of: #""note": "x", "#, with: "")) == nil)
        #expect(read(Self.good.replacingOccurrences(of: #""note": "x""#, with: #""note": null"#)) == nil)
        var strict = Shapes.expenses
        strict.fields[3].isRequired = true
        let required = read(Self.good.replacingOccurrences(of: #""note": "x", "#, with: ""), shape: strict)
        #expect(required?.message == "missing field \"note\" (the model requires it and gives no default)")
        let truncated = read("{\"expenses\": [\n\(Self.good),\n" + Self.good.prefix(40))
        #expect(truncated?.record == 2 && truncated?.message.contains("ends") == true)
        let date = read(Self.good.replacingOccurrences(of: "2025-01-01T00:00:00Z", with: "yesterday"))
        #expect(date?.record == 1 && date?.message.contains("ISO 8601") == true)
        // A number is seconds since 1970: 2025-01-01T00:00:00Z is 1735689600.
        #expect(read(Self.good.replacingOccurrences(of: #""2025-01-01T00:00:00Z""#, with: "1735689600")) == nil)
        let binary = read("\u{0}\u{1}\u{2}")
        #expect(binary?.offset == 0 && binary?.message.contains("not JSON") == true)
        #expect(read("{\"expenses\": [" + Self.good + "]}") == nil)
        #expect(read("{\"expenses\": []}") == nil)
        let unclosed = read("{\"expenses\": [" + Self.good)
        #expect(unclosed?.message.contains("']'") == true)
    }

    /// Records that parse as JSON but cannot be a record: each refused where it is.
    @Test func repeatedFieldsEmptyKeysAndAmountsBeyondCentsAreRefused() {
        let twice = read(
            Self.good + "\n" + Self.good.replacingOccurrences(of: #""note": "x""#, with: #""id": "b", "note": "x""#)
                + "\n")
        #expect(twice?.record == 2 && twice?.message == "field \"id\" is given twice")
        let empty = read(Self.good.replacingOccurrences(of: #""id": "a""#, with: #""id": """#))
        #expect(empty?.record == 1 && empty?.message.contains("\"id\" is empty") == true)
        let huge = read(Self.good.replacingOccurrences(of: "1.5", with: "1e300"))
        #expect(
            huge?.record == 1 && huge?.message.contains("\"amount\"") == true && huge?.message.contains("cents") == true
        )
        #expect(read(Self.good.replacingOccurrences(of: "1.5", with: "-90071992547409.92")) == nil)
        let photo = #"{"remoteURL": "", "imageData": "", "isSeen": false, "albumName": "a"}"#
        #expect(read(photo, shape: Shapes.photos())?.message.contains("\"remoteURL\" is empty") == true)
    }

    @Test func unknownFieldsAreSkippedAndEscapesDecoded() throws {
        let text =
            #"{"id": "a\"b", "extra": {"x": [1, "]"]}, "amount": -2e1, "date": "2025-01-01T00:00:00.250+01:00", "#
            + #""note": "caf\u00e9 \ud83d\ude00", "categoryName": "c"}"#
        let path = NSTemporaryDirectory() + "escapes-\(UUID().uuidString).ndjson"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try RecordFileReader(path: path, shape: Shapes.expenses)
        var r = Record()
        #expect(try reader.next(into: &r))
        #expect(r.text(2) == "a\"b" && r.values.double(0) == -20 && r.text(3) == "café 😀")
        #expect(r.values.double(1) == 788_914_800.25 - 86_400 * 365)
        #expect(reader.ignoredMembers == ["extra"])
        #expect(try !reader.next(into: &r))
    }

    /// A date given as a number is seconds since 1970: the same instant as its ISO 8601 text.
    @Test func datesAsUnixSecondsAreTheSameInstant() throws {
        let text =
            Self.good + "\n" + Self.good.replacingOccurrences(of: #""2025-01-01T00:00:00Z""#, with: "1735689600") + "\n"
        let path = NSTemporaryDirectory() + "dates-\(UUID().uuidString).ndjson"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try RecordFileReader(path: path, shape: Shapes.expenses)
        var a = Record()
        var b = Record()
        #expect(try reader.next(into: &a) && reader.next(into: &b))
        #expect(a.values.double(1) == b.values.double(1) && a.values.double(1) == 757_382_400)
    }

    @Test func isoDatesRoundTrip() {
        for seconds in [0.0, 788_918_400, -1_000_000_000, 2_000_000_000.5] {
            var out: [UInt8] = []
            ISO8601.write(seconds, into: &out)
            #expect(out.withUnsafeBytes(ISO8601.parse) == seconds, "\(String(decoding: out, as: UTF8.self))")
        }
    }

    /// ISO 8601 as feeds write it (issue 28): a calendar date alone, fractions of any length,
    /// offsets with or without their colon or minutes; a date without a zone is UTC (a shop's API
    /// writes its `date_created_gmt` so: issue 41, item 12); one out of range is refused.
    @Test func isoDatesInTheFormsFeedsWrite() {
        func parse(_ text: String) -> Double? { Array(text.utf8).withUnsafeBytes(ISO8601.parse) }
        let midnight = 603_763_200.0   // 2020-02-19T00:00:00Z
        #expect(parse("2020-02-19") == midnight)
        #expect(parse("2020-02-19T00:00:00Z") == midnight)
        #expect(parse("2020-02-19T05:00:00+05:00") == midnight)
        #expect(parse("2020-02-19T05:00:00+0500") == midnight)
        #expect(parse("2020-02-19T05:00:00+05") == midnight)
        #expect(parse("2020-02-18T19:00:00-05:00") == midnight)
        #expect(parse("2020-02-19T00:00:00.123456Z").map { abs($0 - midnight - 0.123456) < 1e-6 } == true)
        #expect(parse("2020-02-19T00:00:00") == midnight)
        for bad in ["2020-13-19", "2020-02-19T00:00:00+25:00", "2020-02-1", "2020-02-19T00:00:00+05:0"] {
            #expect(parse(bad) == nil, "\(bad)")
        }
    }

    /// Key paths as deep as a feed nests its values (`properties.when.time`, `meta.a.b.note`):
    /// `generate` writes each object once with its members together, and the reader reads the
    /// values back through every level, skipping what else each object holds.
    @Test func keyPathsReadAndWriteAtAnyDepth() throws {
        var shape = Shapes.expenses
        shape.fields[0].container = .init(name: "properties", member: "mag", only: true)
        shape.fields[1].container = .init(name: "properties", member: "when.time", only: true)
        shape.fields[3].container = .init(name: "meta", member: "a.b.note", only: true)
        let s = spec(rows: 50)
        let path = try write(s, shape, .json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let first = try #require(text.split(separator: "\n").dropFirst().first)
        #expect(
            first.contains(#""properties": {"mag": "#) && first.contains(#", "when": {"time": "#)
                && first.contains(#"}}, "meta": {"a": {"b": {"note": "#) && first.hasSuffix("}}}},"),
            "\(first)")
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any], "well-formed JSON")
        let reader = try RecordFileReader(path: path, shape: shape)
        let generator = Generator(spec: s, shape: shape)
        var r = Record()
        var n = 0
        while try reader.next(into: &r) {
            let g = generator.record(at: n)
            #expect(r.values.double(0) == g.values.double(0) && r.values.double(1) == g.values.double(1))
            #expect(r.bytes(3, pool: nil) == g.bytes(3, pool: generator.pool))
            n += 1
        }
        #expect(n == s.rows)
        let feed = NSTemporaryDirectory() + "deep-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: feed) }
        try
            (#"{"expenses": [{"id": "a", "categoryName": "Rent", "meta": {"x": [1, {"note": 2}], "a": {"c": 1, "#
            + #""b": {"note": "deep", "y": {}}}}, "properties": {"mag": 2.5, "when": {"time": "2020-02-19"}}}]}"#)
            .write(toFile: feed, atomically: true, encoding: .utf8)
        let hand = try RecordFileReader(path: feed, shape: shape)
        #expect(try hand.next(into: &r))
        #expect(r.text(3) == "deep" && r.values.double(0) == 2.5)
    }
}

@Suite struct ZipfTests {
    /// 1 M draws over 100 ranks: each of the first ranks' shares is within 3% (relative) of
    /// 1/k^s / H(100, s).
    @Test(arguments: [0.8, 1.1, 2.0])
    func frequenciesFollowTheory(s: Double) {
        let sampler = ZipfSampler(s: s)
        let n = 100
        let draws = 1_000_000
        var counts = [Int](repeating: 0, count: n + 1)
        for i in 0..<draws {
            let h = Mixing.hash(42, UInt64(i))
            counts[sampler.rank(n: n) { a in Mixing.unit(a == 0 ? h : Mixing.hash(h, UInt64(a))) }] += 1
        }
        let harmonic = (1...n).reduce(0.0) { $0 + pow(Double($1), -s) }
        for k in 1...5 {
            let expected = pow(Double(k), -s) / harmonic
            let observed = Double(counts[k]) / Double(draws)
            #expect(abs(observed - expected) / expected < 0.03, "rank \(k): \(observed) vs \(expected)")
        }
        #expect(counts[0] == 0)
    }

    @Test func zipfRepeatsFavourTheOldestKeys() {
        var s = WorkloadSpec()
        s.rows = 20_000
        s.dupRate = 0.5
        s.keyDistribution = .zipf(s: 1.2)
        let plan = s.keyPlan
        var first = 0
        var repeats = 0
        for i in 0..<s.rows where plan.isRepeat(i) {
            repeats += 1
            if plan.keyIndex(at: i) == 0 { first += 1 }
        }
        #expect(repeats == 10_000)
        #expect(first > repeats / 10)
        #expect(Set((0..<s.rows).map(plan.keyIndex)).count == s.uniqueKeys)
    }

    /// The records' array inside a feed's document, named by a JSON Pointer as the path's
    /// fragment (RFC 6901): members before and after it are skipped, nested objects descended,
    /// `~1` read as `/`; a missing member or a non-array is refused where it is (issue 28).
    @Test func aJSONPointerFindsTheRecordsInsideTheDocument() throws {
        let record = #"{"id": "a", "amount": 1.5, "date": "2020-02-19", "note": "x", "categoryName": "Rent"}"#
        let path = NSTemporaryDirectory() + "feed-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try
            (#"{"name": "Feed", "meta": {"tags": ["]", {"x": 1}], "a/b": {"expenses": ["# + record + ", " + record
            + #"], "after": [1]}}, "tail": null}"#).write(toFile: path, atomically: true, encoding: .utf8)
        func count(_ input: String) throws -> Int {
            let reader = try RecordFileReader(path: input, shape: Shapes.expenses)
            var r = Record()
            var n = 0
            while try reader.next(into: &r) { n += 1 }
            return n
        }
        #expect(try count(path + "#/meta/a~1b/expenses") == 2)
        #expect(throws: ImportError.self) { try count(path + "#/meta/nothing") }
        #expect(throws: ImportError.self) { try count(path + "#/name") }
        #expect(throws: ImportError.self) { try count(path + "#meta") }
        #expect(
            try RecordFileReader.header(of: path + "#/meta/a~1b/expenses").firstMembers == [
                "id", "amount", "date", "note", "categoryName",
            ])
    }

    /// A related object named by a nested object, as feeds nest them (issue 28): its key is read
    /// from the relationship's member, other members skipped; a flat name the model gives an
    /// attribute is left to the attribute; a member that is not an object is refused by name.
    @Test func aNestedRelationshipObjectNamesTheRelatedObject() throws {
        var shape = Shapes.expenses
        shape.fields[4].container = .init(name: "category", member: "name", only: false)
        func read(_ json: String, _ shape: RecordShape) throws -> Record {
            let path = NSTemporaryDirectory() + "nested-\(UUID().uuidString).json"
            defer { try? FileManager.default.removeItem(atPath: path) }
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            let reader = try RecordFileReader(path: path, shape: shape)
            var r = Record()
            #expect(try reader.next(into: &r))
            #expect(reader.ignoredMembers.isEmpty, "\(reader.ignoredMembers)")
            return r
        }
        let record = #"{"expenses": [{"id": "a", "amount": 1.5, "date": "2020-02-19T00:00:00Z", "note": "x", "#
        let nested = try read(record + #""category": {"name": "Rent", "color": [1, 2]}}]}"#, shape)
        #expect(nested.bytes(4, pool: nil) == Array("Rent".utf8))
        let flat = try read(record + #""categoryName": "Rent"}]}"#, shape)
        #expect(flat.bytes(4, pool: nil) == Array("Rent".utf8))
        #expect(throws: ImportError.self) { try read(record + #""category": "Rent"}]}"#, shape) }
        shape.fields[4].container?.only = true
        #expect(shape.fields[4].flatName == nil && shape.fields[4].memberPath == "category.name")
        #expect(throws: ImportError.self) { try read(record + #""category": null}]}"#, shape) }
    }

    /// Issue 54, item 9: key paths into an object the record holds (GeoJSON's `properties`), two
    /// fields in one object, and a date counted in milliseconds read by the mapping's unit;
    /// without the unit, a millisecond count is refused naming the year it would land in.
    @Test func keyPathsAndATimeUnitReadAGeoJSONFeature() throws {
        var shape = Shapes.expenses
        shape.fields[0].container = .init(name: "properties", member: "mag", only: true)
        shape.fields[1].container = .init(name: "properties", member: "time", only: true)
        shape.fields[1].unitsPerSecond = 1000
        func read(_ shape: RecordShape) throws -> Record {
            let path = NSTemporaryDirectory() + "geojson-\(UUID().uuidString).json"
            defer { try? FileManager.default.removeItem(atPath: path) }
            try
                (#"{"features": [{"type": "Feature", "id": "a", "note": "x", "categoryName": "Rent", "#
                + #""properties": {"mag": 2.5, "place": "somewhere", "time": 1700000000123}, "geometry": {"coordinates": [1, 2]}}]}"#)
                .write(toFile: path, atomically: true, encoding: .utf8)
            let reader = try RecordFileReader(path: path + "#/features", shape: shape)
            var r = Record()
            #expect(try reader.next(into: &r))
            return r
        }
        let r = try read(shape)
        #expect(r.values.double(0) == 2.5)
        #expect(r.values.double(1) == 1_700_000_000.123 - RecordFileReader.unixEpochSinceReferenceDate)
        shape.fields[1].unitsPerSecond = nil
        #expect { try read(shape) } throws: {
            "\($0)".contains("is 1700000000123, which as seconds since 1970 is in the year 55840")
        }
    }

    /// A feed's JSON array or object for a bytes attribute (an app's screenshot URLs, given where
    /// the model has a Transformable) is kept as its text, nested strings and brackets included;
    /// base64 text is decoded as before; anything else is refused naming both forms.
    @Test func aJSONArrayOrObjectForBytesIsKeptAsItsText() throws {
        func read(_ imageData: String) throws -> Record {
            let path = NSTemporaryDirectory() + "json-bytes-\(UUID().uuidString).json"
            defer { try? FileManager.default.removeItem(atPath: path) }
            let json =
                #"{"photos": [{"imageData": "# + imageData
                + #", "isSeen": false, "remoteURL": "https://a/1", "albumName": "x"}]}"#
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            let reader = try RecordFileReader(path: path, shape: Shapes.photos())
            var r = Record()
            #expect(try reader.next(into: &r))
            return r
        }
        let array = #"["https://a/1.png", {"w": 2, "s": "a]\"}"}, [3]]"#
        #expect(try read(array).bytes(0, pool: nil) == Array(array.utf8))
        #expect(try read(#"{"k": []}"#).bytes(0, pool: nil) == Array(#"{"k": []}"#.utf8))
        #expect(try read(#""AAEC""#).bytes(0, pool: nil) == [0, 1, 2])
        #expect { try read("12") } throws: { "\($0)".contains("must be a string, found a number") }
        #expect { try read(#""%%""#) } throws: {
            "\($0)".contains("neither a UUID, base64 text nor a JSON array or object")
        }
    }

    /// Records nested in their related objects' to-many, as feeds publish them (issue 28, item 4):
    /// `/categories/*/expenses` reads every category's expenses, each related to the category
    /// whose key is read from its members (before or after the array); an empty, null or absent
    /// array holds none; NDJSON lines may be the holders; a holder without its key, a '*' not
    /// followed by the relationship's to-many, or a shape with no relationship is refused.
    @Test func recordsNestedInTheirRelatedObjectsReadAsThatManyRecords() throws {
        var shape = Shapes.expenses
        shape.fields[4].container = .init(name: "category", member: "name", only: false)
        shape.parentCollection = "expenses"
        func read(_ text: String, _ pointer: String, ndjson: Bool = false) throws -> [(
            id: String, category: String, parent: Int
        )] {
            let path = NSTemporaryDirectory() + "holders-\(UUID().uuidString)." + (ndjson ? "ndjson" : "json")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let reader = try RecordFileReader(path: path + "#" + pointer, shape: shape)
            var r = Record()
            var out: [(String, String, Int)] = []
            while try reader.next(into: &r) { out.append((r.text(2), r.text(4), r.parentIndex)) }
            #expect(reader.recordNumber == out.count)
            return out
        }
        let expense = { (id: String) in #"{"id": "\#(id)", "amount": 1.5, "date": "2020-02-19", "note": "x"}"# }
        let feed =
            #"{"name": "Feed", "categories": [{"name": "Rent", "color": 3, "expenses": ["# + expense("a") + ", "
            + expense("b")
            + #"]}, {"expenses": [], "name": "Empty"}, {"name": "Food", "expenses": null}, {"name": "Bare"}, "#
            + #"{"expenses": ["# + expense("c") + #"], "name": "Fuel"}, {"name": "Rent", "expenses": ["# + expense("d")
            + "]}]}"
        let records = try read(feed, "/categories/*/expenses")
        #expect(
            records.map(\.id) == ["a", "b", "c", "d"] && records.map(\.category) == ["Rent", "Rent", "Fuel", "Rent"]
                && records.map(\.parent) == [0, 0, 1, 0], "\(records)")
        let lines =
            #"{"name": "Rent", "expenses": ["# + expense("a") + "]}\n" + #"{"expenses": ["# + expense("b")
            + #"], "name": "Fuel"}"# + "\n"
        #expect(try read(lines, "/*/expenses", ndjson: true).map(\.category) == ["Rent", "Fuel"])
        #expect {
            try read(#"{"categories": [{"expenses": ["# + expense("a") + "]}]}", "/categories/*/expenses")
        } throws: {
            "\($0)".contains("/categories/0: missing member \"name\" (the key of the Category its records relate to)")
        }
        #expect { try read(feed, "/categories/*/items") } throws: { "\($0)".contains("give …/*/expenses") }
        #expect { try read(feed, "/categories/*") } throws: { "\($0)".contains("followed by one member") }
        shape.parentEntity = nil
        #expect { try read(feed, "/categories/*/expenses") } throws: { "\($0)".contains("give --relationship") }
    }
}
