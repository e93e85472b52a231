/// Why files cannot be compared. Exit status 2.
package enum CompareError: Error, CustomStringConvertible, Equatable {
    /// The file cannot be read; the text says which and why.
    case unreadable(String)
    case malformed(String, line: Int, String)
    case foreignMachines(String)
    /// The two sides share no configuration: nothing could be judged.
    case nothingInCommon(String)

    package var description: String {
        switch self {
        case .unreadable(let why): return why
        case .malformed(let path, let line, let why): return "\(path):\(line): \(why)"
        case .foreignMachines(let what): return what
        case .nothingInCommon(let what): return what
        }
    }
}
