/// A stream of records, read by one consumer.
package protocol RecordSource {
    /// Fills `record` with the next record; false at the end of the stream.
    mutating func next(into record: inout Record) throws -> Bool
}

/// The generated records of a spec, positions `range` (by default all of them).
package struct GeneratedRecords: RecordSource, Sendable {
    package let generator: Generator
    private var position: Int
    private let end: Int

    package init(spec: WorkloadSpec, range: Range<Int>? = nil) {
        generator = Generator(spec: spec)
        let r = range ?? 0..<spec.rows
        position = r.lowerBound
        end = r.upperBound
    }

    @inline(__always)
    package mutating func next(into record: inout Record) -> Bool {
        guard position < end else { return false }
        generator.record(at: position, into: &record)
        position += 1
        return true
    }
}

extension Generator {
    /// Feeds every unique key with its parent's name to `sink`, in key-index order: what a store
    /// must hold after a deduplicating import of this spec.
    package func forEachExpected(_ sink: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) rethrows {
        var record = Record()
        for k in 0..<plan.uniqueKeys {
            fill(keyIndex: k, into: &record)
            try record.key.withBytes { key in try record.parentName.withBytes { parent in try sink(key, parent) } }
        }
    }
}
