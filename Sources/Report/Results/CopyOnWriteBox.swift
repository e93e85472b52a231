/// A value behind a reference, for a large or repeated part of a row (`ResultRow.measurement`,
/// `RunIdentity.system`): copies of the row share the box, and a write copies it first unless
/// the writer holds the only reference.
///
/// `@unchecked Sendable`: `value` is written only through the owners' `_modify` accessors, after
/// `isKnownUniquelyReferenced` made the box the writer's own, so a box that two values (or two
/// threads) share is never written.
final class CopyOnWriteBox<Value: Sendable>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) { self.value = value }
}
