/// The layout of an object's change mask: one `UInt64` per object says which properties changed,
/// attributes in the low bits and to-one relationships in the high ones, so that tracking a
/// change costs one OR and a save reads its columns off the bits. The capacities are the model's
/// limits: `ManagedObjectModel` and the model reader refuse an entity that exceeds them, rather
/// than letting two properties share a bit.
package enum ChangeMask {
    /// Attributes an entity may have: bits 0 ..< 32.
    package static let attributeCapacity = 32
    /// To-one relationships an entity may have: bits 32 ..< 64.
    package static let toOneCapacity = 32
    /// To-many relationships an entity may have (their loaded and touched masks hold one bit each).
    package static let toManyCapacity = 64

    /// The bit of attribute `index`.
    @inline(__always) package static func attribute(_ index: Int) -> UInt64 { 1 << UInt64(index) }
    /// The bit of to-one relationship `index`.
    @inline(__always) package static func toOne(_ index: Int) -> UInt64 { 1 << UInt64(attributeCapacity + index) }
}
