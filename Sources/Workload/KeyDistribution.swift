/// Which earlier key a repeated record carries.
public enum KeyDistribution: Sendable, Equatable, Codable {
    /// Every key seen so far is equally likely (retries spread evenly).
    case uniform
    /// Zipf over keys by age: the oldest key is the most repeated, with exponent `s`
    /// (popular items re-sent again and again).
    case zipf(s: Double)

    /// The name used on the command line and in CSV (`uniform`, `zipf`).
    public var name: String {
        switch self {
        case .uniform: return "uniform"
        case .zipf: return "zipf"
        }
    }
}
