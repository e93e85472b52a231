import Testing

@testable import Workload

@Suite struct GeneratorTests {
    let shape = Shapes.expenses
    let key = 2, amount = 0, date = 1, note = 3, parent = 4

    func spec(rows: Int, dupRate: Double = 0, seed: UInt64 = 7, dist: KeyDistribution = .uniform) -> WorkloadSpec {
        var s = WorkloadSpec()
        s.rows = rows
        s.dupRate = dupRate
        s.seed = seed
        s.keyDistribution = dist
        return s
    }

    func records(_ s: WorkloadSpec, shape: RecordShape? = nil) -> [Record] {
        var source = GeneratedRecords(spec: s, shape: shape ?? self.shape)
        var r = Record()
        var out: [Record] = []
        while source.next(into: &r) { out.append(r) }
        return out
    }

    @Test func sameSeedGivesSameRecords() {
        let a = records(spec(rows: 5_000, dupRate: 0.2))
        let b = records(spec(rows: 5_000, dupRate: 0.2))
        #expect(a == b)
    }

    @Test func differentSeedGivesDifferentRecords() {
        let a = records(spec(rows: 1_000, seed: 1))
        let b = records(spec(rows: 1_000, seed: 2))
        #expect(a.map { $0.text(key) } != b.map { $0.text(key) })
        #expect(a.map { $0.values.double(amount) } != b.map { $0.values.double(amount) })
    }

    @Test(arguments: [(1, 0.0), (1, 0.9), (10, 0.5), (1_000, 0.1), (12_345, 0.29), (100_000, 0.37), (99_999, 0.999)])
    func uniqueKeyCountIsExact(rows: Int, dupRate: Double) {
        let s = spec(rows: rows, dupRate: dupRate)
        let all = records(s)
        #expect(all.count == rows)
        #expect(Set(all.map { $0.text(key) }).count == s.uniqueKeys)
        #expect(s.uniqueKeys == rows - min(rows - 1, Int((Double(rows) * dupRate).rounded())))
    }

    /// With `--update-rate 0` every repeat is an exact copy (a retried page).
    @Test func repeatedKeyRepeatsTheWholeRecord() {
        var s = spec(rows: 20_000, dupRate: 0.3)
        s.updateRate = 0
        let all = records(s)
        var first: [String: Record] = [:]
        var repeats = 0
        for r in all {
            if let earlier = first[r.text(key)] {
                repeats += 1
                #expect(earlier.keyIndex == r.keyIndex)
                #expect(earlier.values == r.values && earlier.parentIndex == r.parentIndex)
            } else {
                first[r.text(key)] = r
            }
        }
        #expect(repeats == 6_000)
    }

    @Test func firstRecordNeverRepeatsAndRepeatsOnlyPointBackwards() {
        let plan = KeyPlan(rows: 10_000, dupRate: 0.5, distribution: .uniform, seed: 3)
        #expect(!plan.isRepeat(0))
        var issued = 0
        for i in 0..<plan.rows {
            let k = plan.keyIndex(at: i)
            if plan.isRepeat(i) {
                #expect(k < issued)
            } else {
                #expect(k == issued)
                issued += 1
            }
        }
        #expect(issued == plan.uniqueKeys)
    }

    @Test func splitStreamsEqualTheWholeStream() {
        let s = spec(rows: 3_000, dupRate: 0.1)
        let whole = records(s)
        var parts: [Record] = []
        for range in [0..<1_000, 1_000..<2_500, 2_500..<3_000] {
            var source = GeneratedRecords(spec: s, shape: shape, range: range)
            var r = Record()
            while source.next(into: &r) { parts.append(r) }
        }
        #expect(parts == whole)
    }

    @Test func keysAreDistinctForDistinctIndexes() {
        var seen = Set<UInt64>()
        for k in 0..<200_000 { seen.insert(Mixing.permute48(UInt64(k), seed: 11)) }
        #expect(seen.count == 200_000)
        for bits in [15, 31] {
            var narrow = Set<UInt64>()
            for k in 0..<20_000 { narrow.insert(Mixing.permute(UInt64(k), bits: bits, seed: 11)) }
            #expect(narrow.count == 20_000 && narrow.allSatisfy { $0 < 1 << UInt64(bits) })
        }
    }

    @Test func expectedSetIsTheUniqueKeysWithTheirParents() {
        let s = spec(rows: 2_000, dupRate: 0.25)
        var fromStream: [String: String] = [:]
        for r in records(s) { fromStream[r.text(key)] = r.text(parent) }
        var expected: [String: String] = [:]
        Generator(spec: s, shape: shape).forEachExpected { r in expected[r.text(key)] = r.text(parent) }
        #expect(expected == fromStream)
    }

    @Test func valuesLookLikeAnExpenseTracker() {
        let r = Generator(spec: spec(rows: 10), shape: shape).record(at: 0)
        #expect(r.text(key).hasPrefix("ex-") && r.text(key).utf8.count == 15)
        let a = r.values.double(amount)
        #expect(a > 0 && a < 1_000 && (a * 100).rounded() == a * 100)
        #expect(
            r.values.double(date) <= Generator.dateBase && r.values.double(date) > Generator.dateBase - 366 * 86_400)
        #expect(!r.text(note).isEmpty && !r.text(parent).isEmpty)
    }

    @Test func photosHaveURLKeysAndPooledPayloads() {
        let shape = Shapes.photos(payloadBytes: 100)
        let generator = Generator(spec: spec(rows: 10), shape: shape)
        let r = generator.record(at: 3)
        #expect(r.text(2).hasPrefix("https://img.example.com/p/") && r.text(2).hasSuffix(".jpg"))
        #expect(r.bytes(0, pool: generator.pool).count == 100)
        // Another pool of the same size and seed holds the same bytes.
        #expect(r.bytes(0, pool: PayloadPool(for: shape, seed: 7)) == r.bytes(0, pool: generator.pool))
    }

    /// Every type a model's attribute can have gets values of its kind, within its range.
    @Test func everyFieldTypeIsGenerated() {
        var shape = RecordShape(
            entity: "Thing",
            fields: [
                FieldSpec("id", .integer16, .key(prefix: "", suffix: "")),
                FieldSpec("count", .integer32, .integer(minimum: -5, maximum: 5)),
                FieldSpec("ratio", .real, .number(minimum: 0, maximum: 1)),
                FieldSpec("flag", .bool, .share(0.5)),
                FieldSpec("token", .uuid, .uuid),
                FieldSpec("link", .text, .uri(prefix: "https://example.com/thing/")),
                FieldSpec("body", .text, .text(minimum: 200, maximum: 600)),
            ], key: [0], arrayName: "things")
        shape.targetField = 2
        var s = spec(rows: 5_000)
        s.keyOrder = .random
        let all = records(s, shape: shape)
        #expect(Set(all.map { $0.values.integer(0) }).count == 5_000)
        #expect(all.allSatisfy { $0.values.integer(0) >= 0 && $0.values.integer(0) <= Int64(Int16.max) })
        #expect(all.allSatisfy { (-5...5).contains($0.values.integer(1)) })
        #expect(all.allSatisfy { (0..<1).contains($0.values.double(2)) })
        #expect(
            Set(all.map { $0.bytes(4, pool: nil) }).count == 5_000
                && all.allSatisfy { $0.bytes(4, pool: nil).count == 16 })
        #expect(all.allSatisfy { $0.text(5).hasPrefix("https://example.com/thing/") })
        // Long texts leave the record's inline arena for a buffer of its own, and stay intact.
        #expect(all.allSatisfy { (200...600).contains($0.text(6).utf8.count) })
        #expect(all[0] == Generator(spec: s, shape: shape).record(at: 0))
    }
}

@Suite struct InlineTextTests {
    @Test func roundTripsAndCompares() {
        let a = InlineText("Groceries")!
        let b = InlineText("Groceries")!
        let c = InlineText("Rent")!
        #expect(a == b && a != c && a.string == "Groceries")
        #expect(a.hashValue == b.hashValue)
        #expect(InlineText(String(repeating: "x", count: InlineText.capacity + 1)) == nil)
        var d = InlineText()
        d.append(decimal: 42, width: 5)
        d.append(hex: 0xbeef, digits: 6)
        #expect(d.string == "0004200beef")
    }
}
