/// Bytes a statement keeps for the text bound to it, so that SQLite can read them in place
/// (`SQLITE_STATIC`) instead of copying each string into memory of its own.
///
/// A round of binding starts with `startRound()` and copies each string in with `copy(_:)`.
/// Copies stay where they are until the next round: when the buffer is full a bigger one is
/// started and the full one kept until the arena goes, so no bound text ever moves or is freed
/// while a binding may still point at it. Rounds reuse the largest buffer, so a steady workload
/// allocates nothing after its first rounds.
final class TextArena {
    private var buffer: UnsafeMutableRawBufferPointer
    /// Full buffers of earlier rounds, kept for bindings that still point into them.
    private var retired: [UnsafeMutableRawBufferPointer] = []
    private var used = 0

    init(capacity: Int = 1_024) {
        buffer = .allocate(byteCount: capacity, alignment: 1)
    }

    deinit {
        buffer.deallocate()
        for b in retired { b.deallocate() }
    }

    /// Starts a round: the text of the previous one may be overwritten (bind it again first).
    @inline(__always)
    func startRound() { used = 0 }

    /// Copies `text`'s UTF-8 bytes in; they stay valid and unchanged until the next round.
    @inline(__always)
    func copy(_ text: String) -> UnsafeRawBufferPointer {
        var text = text
        return text.withUTF8 { utf8 in
            if used + utf8.count > buffer.count { grow(toFit: utf8.count) }
            let start = buffer.baseAddress! + used
            if let source = utf8.baseAddress { start.copyMemory(from: source, byteCount: utf8.count) }
            used += utf8.count
            return UnsafeRawBufferPointer(start: start, count: utf8.count)
        }
    }

    private func grow(toFit count: Int) {
        retired.append(buffer)
        buffer = .allocate(byteCount: max(buffer.count * 2, count), alignment: 1)
        used = 0
    }
}
