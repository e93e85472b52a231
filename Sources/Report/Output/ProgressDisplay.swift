import Foundation
import Host
import Synchronization

/// Progress on stderr: a live bar on a terminal, a plain line every few seconds otherwise.
///
/// Called from the sampler thread every 10 ms; it redraws at most every 100 ms (bar) or 5 s
/// (lines) so the terminal is not the bottleneck.
package final class ProgressDisplay: Sendable {
    package enum Style: String, Sendable, Codable, CaseIterable { case auto, bar, lines, none }

    private let style: Style
    private let label: String
    private let total: Int
    private let lastDraw = Atomic<UInt64>(0)

    /// Nil when nothing should be shown (`none`, or `--quiet`).
    package init?(style: Style, label: String, total: Int) {
        let resolved: Style = style == .auto ? (Posix.isTerminal(2) ? .bar : .lines) : style
        guard resolved != .none else { return nil }
        self.style = resolved
        self.label = label
        self.total = total
    }

    func update(rows: Int, elapsedNanoseconds: UInt64) {
        let every: UInt64 = style == .bar ? 100_000_000 : 5_000_000_000
        guard elapsedNanoseconds &- lastDraw.load(ordering: .relaxed) >= every else { return }
        lastDraw.store(elapsedNanoseconds, ordering: .relaxed)
        draw(rows: rows, elapsedNanoseconds: elapsedNanoseconds, final: false)
    }

    func finish(rows: Int, elapsedNanoseconds: UInt64) {
        if style == .bar { write("\r\u{1B}[K") }
    }

    private func draw(rows: Int, elapsedNanoseconds: UInt64, final: Bool) {
        let seconds = Double(elapsedNanoseconds) / 1e9
        let rate = seconds > 0 ? Double(rows) / seconds : 0
        let fraction = total > 0 ? min(1, Double(rows) / Double(total)) : 0
        let eta = rate > 0 ? Double(total - rows) / rate : 0
        let stats = "\(rows)/\(total) rows  \(Format.rate(rate))  ETA \(Format.duration(eta))"
        switch style {
        case .bar:
            let width = 24
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            write("\r\u{1B}[K\(label)  \(bar) \(Int(fraction * 100))%  \(stats)")
        default:
            write("loadgen: \(label): \(Int(fraction * 100))%  \(stats)\n")
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
