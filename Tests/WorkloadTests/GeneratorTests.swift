import Testing
@testable import Workload

@Suite struct GeneratorTests {
    func spec(rows: Int, dupRate: Double = 0, seed: UInt64 = 7, dist: KeyDistribution = .uniform,
              dataset: Dataset = .expenses) -> WorkloadSpec {
        var s = WorkloadSpec()
        s.rows = rows; s.dupRate = dupRate; s.seed = seed; s.keyDistribution = dist; s.dataset = dataset
        return s
    }

    func records(_ s: WorkloadSpec) -> [Record] {
        var source = GeneratedRecords(spec: s)
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
        #expect(a.map(\.key) != b.map(\.key))
        #expect(a.map(\.amount) != b.map(\.amount))
    }

    @Test(arguments: [(1, 0.0), (1, 0.9), (10, 0.5), (1_000, 0.1), (12_345, 0.29), (100_000, 0.37), (99_999, 0.999)])
    func uniqueKeyCountIsExact(rows: Int, dupRate: Double) {
        let s = spec(rows: rows, dupRate: dupRate)
        let all = records(s)
        #expect(all.count == rows)
        #expect(Set(all.map(\.key)).count == s.uniqueKeys)
        #expect(s.uniqueKeys == rows - min(rows - 1, Int((Double(rows) * dupRate).rounded())))
    }

    @Test func repeatedKeyRepeatsTheWholeRecord() {
        let all = records(spec(rows: 20_000, dupRate: 0.3))
        var first: [InlineText: Record] = [:]
        var repeats = 0
        for r in all {
            if let earlier = first[r.key] {
                repeats += 1
                #expect(earlier.keyIndex == r.keyIndex)
                #expect(earlier.amount == r.amount && earlier.date == r.date && earlier.note == r.note)
                #expect(earlier.parentName == r.parentName)
            } else {
                first[r.key] = r
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
            if plan.isRepeat(i) { #expect(k < issued) } else { #expect(k == issued); issued += 1 }
        }
        #expect(issued == plan.uniqueKeys)
    }

    @Test func splitStreamsEqualTheWholeStream() {
        let s = spec(rows: 3_000, dupRate: 0.1)
        let whole = records(s)
        var parts: [Record] = []
        for range in [0..<1_000, 1_000..<2_500, 2_500..<3_000] {
            var source = GeneratedRecords(spec: s, range: range)
            var r = Record()
            while source.next(into: &r) { parts.append(r) }
        }
        #expect(parts == whole)
    }

    @Test func keysAreDistinctForDistinctIndexes() {
        var seen = Set<UInt64>()
        for k in 0..<200_000 { seen.insert(Mixing.permute48(UInt64(k), seed: 11)) }
        #expect(seen.count == 200_000)
    }

    @Test func expectedSetIsTheUniqueKeysWithTheirParents() {
        let s = spec(rows: 2_000, dupRate: 0.25)
        var fromStream: [String: String] = [:]
        for r in records(s) { fromStream[r.key.string] = r.parentName.string }
        var expected: [String: String] = [:]
        Generator(spec: s).forEachExpected { key, parent in
            expected[String(decoding: key, as: UTF8.self)] = String(decoding: parent, as: UTF8.self)
        }
        #expect(expected == fromStream)
    }

    @Test func valuesLookLikeAnExpenseTracker() {
        let r = Generator(spec: spec(rows: 10)).record(at: 0)
        #expect(r.key.string.hasPrefix("ex-") && r.key.count == 15)
        #expect(r.amount > 0 && r.amount < 1_000)
        #expect((r.amount * 100).rounded() == r.amount * 100)
        #expect(r.date <= Generator.dateBase && r.date > Generator.dateBase - 366 * 86_400)
        #expect(!r.note.isEmpty && !r.parentName.isEmpty)
    }

    @Test func photosHaveURLKeysAndPayloadOffsets() {
        let r = Generator(spec: spec(rows: 10, dataset: .photos)).record(at: 3)
        #expect(r.key.string.hasPrefix("https://img.example.com/p/") && r.key.string.hasSuffix(".jpg"))
        #expect(r.payloadOffset >= 0 && r.payloadOffset < PayloadPool.slack)
        let pool = PayloadPool(payloadBytes: 100, seed: 1)
        #expect(pool.payload(at: r.payloadOffset).count == 100)
    }
}

@Suite struct InlineTextTests {
    @Test func roundTripsAndCompares() {
        let a = InlineText("Groceries")!, b = InlineText("Groceries")!, c = InlineText("Rent")!
        #expect(a == b && a != c && a.string == "Groceries")
        #expect(a.hashValue == b.hashValue)
        #expect(InlineText(String(repeating: "x", count: InlineText.capacity + 1)) == nil)
        var d = InlineText()
        d.append(decimal: 42, width: 5)
        d.append(hex: 0xbeef, digits: 6)
        #expect(d.string == "0004200beef")
    }
}
