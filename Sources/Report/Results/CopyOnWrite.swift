/// A value behind a reference, for a large or repeated part of a row (`ResultRow.measurement`,
/// `RunIdentity.system`): copies of the row share the box, and a write copies it first unless
/// the writer holds the only reference. The copy-on-write rule lives here once; its owners only
/// forward to `value`.
struct CopyOnWrite<Value: Sendable>: Sendable {
    private var box: Box

    init(_ value: Value) { box = Box(value) }

    var value: Value {
        _read { yield box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }

    /// Holds `other`'s box (the same value) instead of a copy of it.
    mutating func share(_ other: CopyOnWrite) { box = other.box }

    /// `@unchecked Sendable`: `value` is written only through `CopyOnWrite.value`'s `_modify`,
    /// after `isKnownUniquelyReferenced` made the box the writer's own, so a box that two values
    /// (or two threads) share is never written.
    private final class Box: @unchecked Sendable {
        var value: Value

        init(_ value: Value) { self.value = value }
    }
}
