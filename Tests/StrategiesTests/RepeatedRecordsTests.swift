import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Testing
import Workload

@testable import Strategies

/// Feeds that resend records with new values, and the lost updates they expose (issue 54, item 4):
/// a repeat changes the record's other values (`--update-rate`), and the verifier counts the rows
/// left with an older copy's values (`stale`), exactly.
@Suite struct RepeatedRecordsTests {
    func spec(rows: Int = 600, dupRate: Double = 0.2, updateRate: Double = 0.5) -> WorkloadSpec {
        var spec = WorkloadSpec()
        spec.rows = rows
        spec.dupRate = dupRate
        spec.updateRate = updateRate
        spec.categories = 7
        return spec
    }

    /// Keys whose last record in the stream, as strategies read it, differs from its first in a
    /// value a repeat may change: counted here from the records alone (no verifier, no SQL).
    func keysUpdatedAfterTheirFirstCopy(_ spec: WorkloadSpec) throws -> Int {
        let shape = try ImportSource.resolve(
            {
                var c = RunConfiguration()
                c.workload = spec
                return c
            }()
        ).shape(ShapeOptions())
        let generator = Generator(spec: spec, shape: shape)
        var first: [Int: [Value]] = [:]
        var last: [Int: [Value]] = [:]
        var record = Record()
        for i in 0..<spec.rows {
            generator.record(at: i, into: &record)
            let values = shape.changingFields.map {
                RecordMapper.value(record.values, $0, type: shape.fields[$0].type, pool: generator.pool)
            }
            if first[record.keyIndex] == nil { first[record.keyIndex] = values }
            last[record.keyIndex] = values
        }
        return first.keys.filter { first[$0] != last[$0] }.count
    }

    @Test func aRepeatWithNewValuesKeepsItsKeyAndRelatedObject() throws {
        let spec = spec(updateRate: 1)
        let shape = try ImportSource.resolve(
            {
                var c = RunConfiguration()
                c.workload = spec
                return c
            }()
        ).shape(ShapeOptions())
        let generator = Generator(spec: spec, shape: shape)
        let firstRepeat = try #require((0..<spec.rows).first { generator.plan.isRepeat($0) })
        let copy = generator.record(at: firstRepeat)
        var original = Record()
        generator.fill(keyIndex: copy.keyIndex, into: &original)
        let value = { (r: Record, f: Int) in
            RecordMapper.value(r.values, f, type: shape.fields[f].type, pool: generator.pool)
        }
        for f in shape.key + shape.parentKey { #expect(value(copy, f) == value(original, f)) }
        #expect(copy.parentIndex == original.parentIndex)
        #expect(shape.changingFields.contains { value(copy, $0) != value(original, $0) })
        // An exact copy at rate 0.
        let exact = Generator(spec: self.spec(updateRate: 0), shape: shape).record(at: firstRepeat)
        for f in shape.changingFields { #expect(value(exact, f) == value(original, f)) }
    }

    /// The acceptance of item 4: `stale` is exact for the batch insert, which keeps each key's
    /// first copy (INSERT OR IGNORE), and 0 for the idioms that let the last copy win.
    @Test(arguments: ["batch", "batch-upsert", "find-or-create", "context-reset", "raw-sqlite-unique"])
    func staleIsExactForFirstWinsAndZeroForLastWins(name: String) throws {
        let strategy = StrategyRegistry.strategy(named: name)!
        let updated = try keysUpdatedAfterTheirFirstCopy(spec())
        #expect(updated > 20, "the feed must hold updates to find")
        let o = try run(strategy, rows: 600, dupRate: 0.2, updateRate: 0.5)
        #expect(o.verification.lost == 0 && o.verification.duplicates == 0)
        #expect(o.verification.stale == (strategy.repeatedKey == .first ? updated : 0), "\(name): \(o.verification)")
    }

    /// Exact copies leave nothing stale whatever the idiom keeps; records without repeats are not judged.
    @Test func exactCopiesLeaveNothingStale() throws {
        #expect(try run(BatchStrategy(), rows: 600, dupRate: 0.2, updateRate: 0).verification.stale == 0)
        #expect(try run(BatchStrategy(), rows: 600, dupRate: 0).verification.stale == nil)
    }
}
