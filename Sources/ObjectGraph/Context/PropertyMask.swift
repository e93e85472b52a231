import Bits

/// An object's change mask, and its other sets of properties: which attributes and to-ones it
/// changed, which to-manys it loaded or touched, which values a `propertiesToFetch` fault holds
/// (a `BitSet`, so any number of properties: Core Data has no limit on an entity's).
///
/// The positions of one entity's change mask: attribute `i` at `i`, to-one `j` at
/// `Entity.toOnePosition(j)` (after the attributes). To-manys and many-to-manys have masks of
/// their own, by their index.
package typealias PropertyMask = BitSet
