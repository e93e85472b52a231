/// A stream of records, read by one consumer.
package protocol RecordSource {
    /// Fills `record` with the next record; false at the end of the stream.
    mutating func next(into record: inout Record) throws -> Bool
    /// Where generated binary values point (nil for sources that hold their bytes).
    var pool: PayloadPool? { get }
}

extension RecordSource {
    package var pool: PayloadPool? { nil }
}

/// The generated records of a spec, positions `range` (by default all of them).
package struct GeneratedRecords: RecordSource, Sendable {
    package let generator: Generator
    private var position: Int
    private let end: Int

    package init(spec: WorkloadSpec, shape: RecordShape, range: Range<Int>? = nil) {
        generator = Generator(spec: spec, shape: shape)
        let r = range ?? 0..<spec.rows
        position = r.lowerBound
        end = r.upperBound
    }

    package var pool: PayloadPool? { generator.pool }

    @inline(__always)
    package mutating func next(into record: inout Record) -> Bool {
        guard position < end else { return false }
        generator.record(at: position, into: &record)
        position += 1
        return true
    }
}

extension Generator {
    /// Feeds the record of every unique key to `sink`, in key-index order: what a store must hold
    /// after a deduplicating import of this spec (its key fields and related object's key).
    package func forEachExpected(_ sink: (Record) throws -> Void) rethrows {
        var record = Record()
        for k in 0..<plan.uniqueKeys {
            fill(keyIndex: k, into: &record)
            try sink(record)
        }
    }
}
