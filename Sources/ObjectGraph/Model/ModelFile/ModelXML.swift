/// The XML of a model file, read into a small tree with the line of every element.
///
/// Xcode's `contents` files and `.xccurrentversion` plists use a plain subset of XML: elements,
/// attributes, text, comments, a declaration and a DOCTYPE. This reader handles exactly that (no
/// namespaces, no DTD processing, no external entities) and reports the line and column of the
/// first thing it cannot read, so a broken model is refused with its location. It lives here, not
/// in FoundationXML, so that the engine needs no libxml2 and every error names where it is.
package enum ModelXML {
    /// One element: its name, attributes in document order, children and text.
    package struct Element: Sendable {
        package var name: String
        package var attributes: [(name: String, value: String)] = []
        package var children: [Element] = []
        /// The element's own text (outside its children), entities decoded.
        package var text = ""
        /// Where the element starts (1-based).
        package var line: Int
        package var column: Int

        /// The value of attribute `name`, nil when absent.
        package subscript(_ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }

        /// The children named `name`.
        package func children(named name: String) -> [Element] {
            children.filter { $0.name == name }
        }

        /// The first child named `name`.
        package func child(named name: String) -> Element? {
            children.first { $0.name == name }
        }
    }

    /// XML that cannot be read: what was expected, and where.
    package struct SyntaxError: Error, Sendable, Equatable {
        package var line: Int
        package var column: Int
        package var message: String
    }

    /// The root element of `text`.
    package static func parse(_ text: String) throws(SyntaxError) -> Element {
        var parser = Parser(bytes: Array(text.utf8))
        return try parser.document()
    }
}

// MARK: - The parser

private struct Parser {
    let bytes: [UInt8]
    var i = 0
    var line = 1
    var lineStart = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte-order mark is not content.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            i = 3
            lineStart = 3
        }
    }

    var column: Int { i - lineStart + 1 }

    func fail(_ message: String) -> ModelXML.SyntaxError {
        ModelXML.SyntaxError(line: line, column: column, message: message)
    }

    // MARK: Document

    mutating func document() throws(ModelXML.SyntaxError) -> ModelXML.Element {
        try skipMisc()
        guard i < bytes.count else { throw fail("the file holds no XML element") }
        guard bytes[i] == UInt8(ascii: "<") else { throw fail("expected '<' to start an element") }
        let root = try element()
        try skipMisc()
        guard i == bytes.count else { throw fail("content after the root element </\(root.name)>") }
        return root
    }

    /// Whitespace, comments, the declaration and a DOCTYPE, outside the root element.
    mutating func skipMisc() throws(ModelXML.SyntaxError) {
        while true {
            skipWhitespace()
            if looking(at: "<?") {
                try skip(past: "?>", what: "the <? … ?> declaration")
            } else if looking(at: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if looking(at: "<!DOCTYPE") {
                try skipDoctype()
            } else {
                return
            }
        }
    }

    /// A DOCTYPE naming its DTD is skipped; one declaring entities or elements inside `[ … ]`
    /// is refused by name: Xcode writes none, and its declarations could change what the model
    /// says (entities expanded into names), which this reader does not do.
    mutating func skipDoctype() throws(ModelXML.SyntaxError) {
        let (start, startLine, startColumn) = (i, line, column)
        try skip(past: ">", what: "the DOCTYPE")
        if bytes[start..<i].contains(UInt8(ascii: "[")) {
            throw ModelXML.SyntaxError(
                line: startLine, column: startColumn,
                message: "the DOCTYPE declares entities or elements ([ … ]), which a model Xcode writes never "
                    + "does and this reader does not expand: remove the DOCTYPE line")
        }
    }

    // MARK: Elements

    mutating func element() throws(ModelXML.SyntaxError) -> ModelXML.Element {
        var e = ModelXML.Element(name: "", line: line, column: column)
        i += 1   // '<'
        e.name = try name(what: "an element name")
        while true {
            let hadSpace = skipWhitespace()
            guard i < bytes.count else { throw fail("the file ends inside <\(e.name)>") }
            if bytes[i] == UInt8(ascii: "/") {
                guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ">") else {
                    throw fail("expected '/>' to close <\(e.name)>")
                }
                i += 2
                return e
            }
            if bytes[i] == UInt8(ascii: ">") {
                i += 1
                break
            }
            guard hadSpace else { throw fail("expected a space, '>' or '/>' in <\(e.name)>") }
            let attribute = try name(what: "an attribute name")
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                throw fail("expected '=' after attribute \(attribute)")
            }
            i += 1
            skipWhitespace()
            let value = try quoted(attribute)
            if e[attribute] != nil { throw fail("attribute \(attribute) is given twice in <\(e.name)>") }
            e.attributes.append((attribute, value))
        }
        try content(of: &e)
        return e
    }

    /// Children, text, comments and CDATA up to `</name>`.
    mutating func content(of e: inout ModelXML.Element) throws(ModelXML.SyntaxError) {
        var text: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail("the file ends before </\(e.name)> (opened on line \(e.line))") }
            let c = bytes[i]
            if c == UInt8(ascii: "<") {
                if looking(at: "</") {
                    i += 2
                    let closing = try name(what: "the closing element's name")
                    guard closing == e.name else {
                        throw fail("</\(closing)> closes <\(e.name)> (opened on line \(e.line))")
                    }
                    skipWhitespace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else {
                        throw fail("expected '>' after </\(closing)")
                    }
                    i += 1
                    e.text = String(decoding: text, as: UTF8.self)
                    return
                }
                if looking(at: "<!--") {
                    try skip(past: "-->", what: "a comment")
                    continue
                }
                if looking(at: "<![CDATA[") {
                    i += 9
                    let start = i
                    try skip(past: "]]>", what: "a CDATA section")
                    text.append(contentsOf: bytes[start..<(i - 3)])
                    continue
                }
                if looking(at: "<?") {
                    try skip(past: "?>", what: "a processing instruction")
                    continue
                }
                e.children.append(try element())
            } else if c == UInt8(ascii: "&") {
                try entity(into: &text)
            } else {
                advance()
                text.append(c)
            }
        }
    }

    // MARK: Pieces

    mutating func name(what: String) throws(ModelXML.SyntaxError) -> String {
        let start = i
        while i < bytes.count, isNameByte(bytes[i], first: i == start) { i += 1 }
        guard i > start else { throw fail("expected \(what)") }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    func isNameByte(_ c: UInt8, first: Bool) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: ":"), 0x80...:
            return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return !first
        default:
            return false
        }
    }

    mutating func quoted(_ attribute: String) throws(ModelXML.SyntaxError) -> String {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
            throw fail("expected a quoted value for attribute \(attribute)")
        }
        let quote = bytes[i]
        i += 1
        var value: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail("the value of attribute \(attribute) is not closed") }
            let c = bytes[i]
            if c == quote {
                i += 1
                return String(decoding: value, as: UTF8.self)
            }
            if c == UInt8(ascii: "<") { throw fail("'<' inside the value of attribute \(attribute)") }
            if c == UInt8(ascii: "&") {
                try entity(into: &value)
            } else {
                advance()
                value.append(c)
            }
        }
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` and `&#xH;`.
    mutating func entity(into out: inout [UInt8]) throws(ModelXML.SyntaxError) {
        guard let end = bytes[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw fail("'&' starts no entity (write &amp; for a literal '&')")
        }
        let body = String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
        let named: [String: UInt8] = ["amp": 38, "lt": 60, "gt": 62, "quot": 34, "apos": 39]
        if let byte = named[body] {
            out.append(byte)
        } else if body.hasPrefix("#"), let scalar = Self.codePoint(body.dropFirst()), let u = Unicode.Scalar(scalar) {
            out.append(contentsOf: Array(String(Character(u)).utf8))
        } else {
            throw fail("unknown entity &\(body);")
        }
        i = end + 1
    }

    static func codePoint(_ digits: Substring) -> UInt32? {
        if digits.hasPrefix("x") || digits.hasPrefix("X") { return UInt32(digits.dropFirst(), radix: 16) }
        return UInt32(digits, radix: 10)
    }

    func looking(at prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        return prefix.withUTF8Buffer { p in
            for k in 0..<n where bytes[i + k] != p[k] { return false }
            return true
        }
    }

    /// Moves past the next `terminator`, counting lines.
    mutating func skip(past terminator: StaticString, what: String) throws(ModelXML.SyntaxError) {
        let startLine = line
        while i < bytes.count {
            if looking(at: terminator) {
                i += terminator.utf8CodeUnitCount
                return
            }
            advance()
        }
        throw ModelXML.SyntaxError(
            line: startLine, column: column, message: "\(what) that starts on line \(startLine) is not closed")
    }

    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = i
        while i < bytes.count, [9, 10, 13, 32].contains(bytes[i]) { advance() }
        return i > start
    }

    /// One byte forward, keeping the line count.
    mutating func advance() {
        if bytes[i] == 10 {
            line += 1
            lineStart = i + 1
        }
        i += 1
    }
}
