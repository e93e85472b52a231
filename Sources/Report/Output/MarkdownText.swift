/// Text a user typed, made safe for a Markdown line or table cell: a line break would end a
/// heading and a `|` would split a cell, so a label like "v2 | fast" keeps its meaning.
package enum MarkdownText {
    /// `text` on one line, with `|`, `*`, `_`, `` ` `` and `#` escaped.
    package static func inline(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "\n", "\r", "\r\n", "\t": out.append(" ")
            case "|", "*", "_", "`", "#", "\\", "[", "]", "<", ">":
                out.append("\\")
                out.append(ch)
            default: out.append(ch)
            }
        }
        return out
    }
}
