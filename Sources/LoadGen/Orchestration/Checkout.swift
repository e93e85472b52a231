import Foundation
import Host

/// The checkout the binary was built in (`.build/…/loadgen` inside it), found from the
/// executable's own location, so that its files (plots.gnuplot, results/baseline.csv, the git
/// revision) are the code's that runs, not whatever folder the user stands in.
enum Checkout {
    static let root: String? = {
        var url = URL(fileURLWithPath: Host.executablePath).deletingLastPathComponent()
        for _ in 0..<8 {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.path
            }
            url.deleteLastPathComponent()
        }
        return nil
    }()
}
