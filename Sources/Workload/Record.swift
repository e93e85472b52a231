/// One record, as a producer hands it to a strategy: where it sits in the stream, which key and
/// related object it carries, and its values, one per field of the run's `RecordShape`.
///
/// A plain value whose values live inline (`RecordValues`): producing, copying and passing
/// records between threads allocates nothing for records of ordinary size.
package struct Record: Sendable, Equatable {
    /// Position in the stream, from 0.
    package var index = 0
    /// When the record was due to arrive (monotonic nanoseconds), in an open-loop run; 0 otherwise.
    package var arrival: UInt64 = 0
    /// Which unique key this record carries (0..<uniqueKeys), or -1 when read from a file.
    package var keyIndex = 0
    /// The related object's position (in generation order, or in order of first appearance in an
    /// import file).
    package var parentIndex = 0
    /// The values, one per field of the shape.
    package var values = RecordValues()

    /// The amounts a real field read from an import file may carry in whole cents: exact in a
    /// Double up to 2⁵³ cents, about 90 trillion units either way.
    package static let amountRange: ClosedRange<Double> = -9.007_199_254_740_992e13...9.007_199_254_740_992e13

    package init() {}
}
