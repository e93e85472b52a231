import Foundation

/// How much more one managed object may cost on a device than here before a lead flips.
///
/// loadgen's engine does the object layer's work per object (issue 43), but a device's objects
/// cost what its CPU, allocator and the real framework make them cost, which no run here can
/// measure. What a run can say exactly is how many managed objects each configuration handles
/// per record (`RunSummary.Configuration.objectsPerRow`) and how far apart their times per record
/// are. If every object costs δ more on a device, a configuration's time per record grows by δ
/// times its objects per record, so the first's lead over another holds while
/// δ < (t_other − t_first) / (objects_first − objects_other), and whatever δ is when the first
/// handles no more objects than the other. A team compares δ with its own measurement
/// (`guide`).
package struct BreakEven: Sendable, Equatable {
    /// Managed objects per record of the first and of the other.
    package let firstObjects: Double
    package let otherObjects: Double
    /// The extra cost per object, in seconds, at which the other catches up; nil when the lead
    /// holds whatever an object costs (the first handles no more objects).
    package let seconds: Double?

    /// The break-even of `first`'s lead over `other` by rate, nil when either lacks a rate or a
    /// count of objects (rows written before the count), or the first is not the faster.
    static func of(_ first: RunSummary.Configuration, over other: RunSummary.Configuration) -> BreakEven? {
        guard let a = first.rate?.median, let b = other.rate?.median, a > b, b > 0,
            let objectsA = first.objectsPerRow, let objectsB = other.objectsPerRow
        else { return nil }
        let gap = 1 / b - 1 / a   // seconds per record the other is behind
        // Counts within a hundredth of an object per record are the same work: a difference of
        // 0.0002 would otherwise give a figure of milliseconds that means nothing.
        let seconds = objectsA - objectsB > minimumDifference ? gap / (objectsA - objectsB) : nil
        return BreakEven(firstObjects: objectsA, otherObjects: objectsB, seconds: seconds)
    }

    /// Where a team learns to measure a managed object's cost on its own device.
    package static let guide = "docs/MEASURING-ON-A-DEVICE.md"

    /// Objects per record below which two configurations handle the same objects.
    static let minimumDifference = 0.01

    /// In microseconds, nil when it holds whatever an object costs.
    package var microseconds: Double? { seconds.map { $0 * 1e6 } }

    /// "unless a managed object costs at least 3.1 µs more on a device than here (2.0 against 1.0
    /// per record)", or "whatever a managed object costs (it handles 0.0 against 2.0 per record)".
    package var text: String {
        let counts = String(
            format: "%@ against %@ objects per record", Self.count(firstObjects), Self.count(otherObjects))
        guard let microseconds else { return "holds whatever a managed object costs: \(counts)" }
        return
            "holds unless a managed object costs at least \(Self.duration(microseconds)) more on a device than here: \(counts)"
    }

    /// "3.1 µs", "0.42 µs", "85 ns".
    static func duration(_ microseconds: Double) -> String {
        if microseconds >= 10 { return String(format: "%.0f µs", microseconds) }
        if microseconds >= 1 { return String(format: "%.1f µs", microseconds) }
        if microseconds >= 0.1 { return String(format: "%.2f µs", microseconds) }
        return String(format: "%.0f ns", microseconds * 1000)
    }

    static func count(_ x: Double) -> String { x < 10 ? String(format: "%.2f", x) : String(format: "%.1f", x) }
}

extension Recommendation {
    /// The break-even of the first's lead over each configuration it is told apart from, where
    /// the objective is the rate (a per-object cost is time, not memory) and both counted objects.
    package var breakEvens: [(other: RunSummary.Configuration, breakEven: BreakEven)] {
        guard objective == .rate, let first = ranked.first?.configuration else { return [] }
        return ranked.dropFirst().compactMap { entry in
            guard entry.lead?.toldApart == true else { return nil }
            return BreakEven.of(first, over: entry.configuration).map { (entry.configuration, $0) }
        }
    }
}
