/// Names compared ignoring ASCII case and `_`/`-`: a feed's `product_id` and a model's
/// `productID` are one name. Used only where no name matches exactly.
enum Folded {
    /// `name` lower-cased without `_` and `-`.
    static func name(_ name: InlineText) -> InlineText {
        var out = InlineText()
        name.withBytes { bytes in
            for b in bytes where b != UInt8(ascii: "_") && b != UInt8(ascii: "-") {
                out.append(byte: b >= 65 && b <= 90 ? b + 32 : b)
            }
        }
        return out
    }

    /// `byName` by folded names: a folded name that is also another exact name, or that two names
    /// share, is left out (it would be a guess).
    static func names(_ byName: [InlineText: Int]) -> [InlineText: Int] {
        var folded: [InlineText: Int] = [:]
        var shared: Set<InlineText> = []
        for (exact, field) in byName {
            let key = name(exact)
            if folded[key] != nil { shared.insert(key) } else { folded[key] = field }
        }
        for key in shared { folded[key] = nil }
        return folded.filter { byName[$0.key] == nil || byName[$0.key] == $0.value }
    }
}
