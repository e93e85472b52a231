/// The order in which new keys arrive.
package enum KeyOrder: String, Sendable, Hashable, Codable, CaseIterable {
    /// Each new key sorts after the previous ones, as server IDs that grow with time do
    /// (auto-increment IDs, ULIDs, UUIDv7) and as pages sorted by ID deliver them. An index on
    /// the key grows at its end.
    case ascending
    /// Keys in random order, as UUIDv4s: every insert lands somewhere in the key's index.
    case random
}

/// Which earlier key a repeated record carries.
package enum KeyDistribution: Sendable, Hashable, Codable {
    /// Every key seen so far is equally likely (retries spread evenly).
    case uniform
    /// Zipf over keys by age: the oldest key is the most repeated, with exponent `s`
    /// (popular items re-sent again and again).
    case zipf(s: Double)

    /// The name used on the command line and in CSV (`uniform`, `zipf`).
    package var name: String {
        switch self {
        case .uniform: return "uniform"
        case .zipf: return "zipf"
        }
    }
}
