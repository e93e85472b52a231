/// One record of a dataset, as a producer hands it to a strategy.
///
/// A plain value with its text stored inline: producing, copying and passing records between
/// threads allocates nothing. Fields belong to one dataset or the other (see `Dataset`);
/// the unused ones stay at their defaults.
package struct Record: Sendable, Equatable {
    /// Position in the stream, from 0.
    package var index = 0
    /// When the record was due to arrive (monotonic nanoseconds), in an open-loop run; 0 otherwise.
    package var arrival: UInt64 = 0
    /// Which unique key this record carries (0..<uniqueKeys), or -1 when read from a file.
    package var keyIndex = 0
    /// The unique key: an expense's `externalID`, a photo's `remoteURL`.
    package var key = InlineText()
    /// The related object's position in the dataset's list (categories, albums). Import
    /// readers number names in order of first appearance.
    package var parentIndex = 0
    /// The related object's unique name: a category's or an album's `name`.
    package var parentName = InlineText()

    // MARK: expenses
    /// Amount in currency units, whole cents.
    package var amount = 0.0
    /// The amounts a record may carry: whole cents stay exact in a Double up to 2⁵³ cents,
    /// about 90 trillion units either way. An import file's amount beyond it is refused.
    package static let amountRange: ClosedRange<Double> = -9.007_199_254_740_992e13...9.007_199_254_740_992e13
    /// Seconds since 2001-01-01 00:00:00 UTC, as Core Data stores dates.
    package var date = 0.0
    /// Free text.
    package var note = InlineText()

    // MARK: photos
    /// Whether the user has seen the photo.
    package var isSeen = false
    /// Offset of the photo's bytes in the dataset's `PayloadPool`; the length is `payloadBytes`.
    package var payloadOffset = 0
    /// The photo's bytes when they came from an import file (generated photos use the pool).
    package var payload: [UInt8]? = nil

    package init() {}
}
