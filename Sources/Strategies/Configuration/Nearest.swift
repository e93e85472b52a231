/// The word nearest to a mistyped one, for "did you mean …?" in errors about options and values.
package enum Nearest {
    /// The candidate closest to `word` by edit distance, when it is close enough to be a typo
    /// (at most two edits, or three for words of eight letters or more).
    package static func word(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance > 0, distance <= (word.count >= 8 ? 3 : 2) else { return nil }
        return best
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a)
        let y = Array(b)
        guard !x.isEmpty else { return y.count }
        guard !y.isEmpty else { return x.count }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count]
    }
}
