/// A small, strict XML reader for the files Core Data models are kept in (a model's `contents`,
/// a model bundle's `.xccurrentversion` property list): it turns a document into a tree of
/// ``XMLElementNode``s, without FoundationXML (which would bring libxml2 to every user of the
/// store).
///
/// It reads the XML declaration (UTF-8 only), comments, processing instructions (dropped),
/// elements with attributes in single or double quotes, self-closing elements, text, CDATA
/// sections, the five predefined entities (`&lt;` `&gt;` `&amp;` `&apos;` `&quot;`) and numeric
/// character references (`&#10;`, `&#x27;`). Line ends are normalized (CR LF and CR become LF),
/// and so are white space characters written literally in attribute values (to spaces), as
/// XML 1.0 says. A document type declaration is refused, since its entities could expand
/// without bound; only a property list's external one (`<!DOCTYPE plist PUBLIC "…" "…">`, no
/// internal subset, nothing fetched) is accepted, and only when asked for. Everything
/// malformed is an ``XMLReaderError`` with the line and column. Reading never recurses, and
/// elements nest at most ``maximumDepth`` levels, so a hostile document cannot exhaust the stack.
///
/// ```swift
/// let root = try XMLElementReader.read("""
///     <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
///     <model><entity name="Employee"/></model>
///     """)
/// root.children[0].attribute("name")   // "Employee"
/// ```
package struct XMLElementReader {
    private var scalars: [Unicode.Scalar]
    private var position = 0
    private var place = TextPosition()
    private var line: Int { place.line }
    private var column: Int { place.column }
    private let allowsExternalDocumentType: Bool

    /// How deeply elements may nest: model files nest five levels; a limit keeps a hostile
    /// document from building a tree whose release would recurse that deep.
    package static let maximumDepth = 256

    private init(_ scalars: [Unicode.Scalar], allowsExternalDocumentType: Bool) {
        self.scalars = scalars
        self.allowsExternalDocumentType = allowsExternalDocumentType
    }

    /// Reads a document from text and returns its root element.
    ///
    /// - Parameter allowingExternalDocumentType: whether a `<!DOCTYPE …>` naming only an external
    ///   definition (as every property list has) is accepted and skipped.
    package static func read(_ text: String, allowingExternalDocumentType: Bool = false) throws(XMLReaderError) -> XMLElementNode {
        var reader = XMLElementReader(try normalized(Array(text.unicodeScalars)), allowsExternalDocumentType: allowingExternalDocumentType)
        return try reader.readDocument()
    }

    /// Reads a document from UTF-8 bytes (a byte order mark is skipped) and returns its root element.
    package static func read(_ bytes: [UInt8], allowingExternalDocumentType: Bool = false) throws(XMLReaderError) -> XMLElementNode {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var decoded: [Unicode.Scalar] = []
        decoded.reserveCapacity(bytes.count)
        var place = TextPosition()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                decoded.append(scalar)
                place.pass(scalar)
            case .emptyInput:
                break decoding
            case .error:
                throw XMLReaderError(line: place.line, column: place.column, message: "the bytes here are not UTF-8; model files are written in UTF-8")
            }
        }
        var reader = XMLElementReader(try normalized(decoded), allowsExternalDocumentType: allowingExternalDocumentType)
        return try reader.readDocument()
    }

    /// The scalars with CR LF and lone CR made LF, after checking that each is a character XML allows.
    private static func normalized(_ input: [Unicode.Scalar]) throws(XMLReaderError) -> [Unicode.Scalar] {
        var output: [Unicode.Scalar] = []
        output.reserveCapacity(input.count)
        var place = TextPosition()
        var index = 0
        while index < input.count {
            let scalar = input[index]
            guard isCharacter(scalar) else {
                throw XMLReaderError(line: place.line, column: place.column, message: "the character U+\(hex(scalar)) is not allowed in XML")
            }
            if scalar == "\r" {
                if index + 1 < input.count, input[index + 1] == "\n" { index += 1 }
                output.append("\n")
            } else {
                output.append(scalar)
            }
            place.pass(output[output.count - 1])
            index += 1
        }
        return output
    }

    private static func isCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: - Scalars

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let index = position + offset
        return index < scalars.count ? scalars[index] : nil
    }

    private func starts(with text: String) -> Bool {
        var offset = 0
        for scalar in text.unicodeScalars {
            guard peek(offset) == scalar else { return false }
            offset += 1
        }
        return true
    }

    private mutating func advance(_ count: Int = 1) {
        for _ in 0..<count {
            guard position < scalars.count else { return }
            place.pass(scalars[position])
            position += 1
        }
    }

    private func error(_ message: String) -> XMLReaderError {
        XMLReaderError(line: line, column: column, message: message)
    }

    private func error(_ line: Int, _ column: Int, _ message: String) -> XMLReaderError {
        XMLReaderError(line: line, column: column, message: message)
    }

    private var shownCurrent: String {
        guard let scalar = peek() else { return "the end of the document" }
        if scalar.properties.isWhitespace || scalar.value < 32 { return "U+\(Self.hex(scalar))" }
        return "'\(scalar)'"
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n"
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = position
        while let scalar = peek(), Self.isSpace(scalar) { advance() }
        return position > start
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar == ":" || scalar.value >= 0x80
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "."
    }

    private mutating func readName(_ what: String) throws(XMLReaderError) -> String {
        guard let first = peek(), Self.isNameStart(first) else { throw error("expected \(what), found \(shownCurrent)") }
        var name = String.UnicodeScalarView()
        while let scalar = peek(), Self.isNameCharacter(scalar) {
            name.append(scalar)
            advance()
        }
        return String(name)
    }

    private mutating func expect(_ text: String, _ what: String) throws(XMLReaderError) {
        guard starts(with: text) else { throw error("expected \(what), found \(shownCurrent)") }
        advance(text.unicodeScalars.count)
    }

    // MARK: - Document

    private mutating func readDocument() throws(XMLReaderError) -> XMLElementNode {
        if peek() == "\u{FEFF}" { advance() }
        if starts(with: "<?xml"), let after = peek(5), Self.isSpace(after) || after == "?" {
            try readDeclaration()
        }
        var root: XMLElementNode?
        var sawDocumentType = false
        while true {
            skipSpace()
            guard peek() != nil else { break }
            if starts(with: "<!--") {
                try skipComment()
            } else if starts(with: "<?") {
                try skipProcessingInstruction()
            } else if starts(with: "<!DOCTYPE") {
                guard root == nil, !sawDocumentType else { throw error("a document type declaration must come once, before the root element") }
                try skipDocumentType()
                sawDocumentType = true
            } else if peek() == "<" {
                guard root == nil else { throw error("a second root element; a document has exactly one") }
                root = try readElement()
            } else {
                throw error("expected an element, a comment or a processing instruction, found \(shownCurrent) outside the root element")
            }
        }
        guard let root else { throw error("the document has no root element") }
        return root
    }

    /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`.
    private mutating func readDeclaration() throws(XMLReaderError) {
        advance(5)
        var sawVersion = false
        while true {
            let hadSpace = skipSpace()
            if starts(with: "?>") {
                advance(2)
                break
            }
            guard hadSpace else { throw error("expected white space or '?>' in the XML declaration, found \(shownCurrent)") }
            let nameLine = line
            let nameColumn = column
            let name = try readName("'version', 'encoding' or 'standalone' in the XML declaration")
            skipSpace()
            try expect("=", "'=' after '\(name)'")
            skipSpace()
            let value = try readQuotedLiteral()
            switch name {
            case "version":
                guard value.hasPrefix("1.") else { throw error(nameLine, nameColumn, "XML version '\(value)' is not supported; expected 1.0") }
                sawVersion = true
            case "encoding":
                guard ["utf-8", "utf8"].contains(value.lowercased()) else {
                    throw error(nameLine, nameColumn, "encoding '\(value)' is not supported; model files are written in UTF-8")
                }
            case "standalone":
                guard value == "yes" || value == "no" else { throw error(nameLine, nameColumn, "standalone must be 'yes' or 'no', not '\(value)'") }
            default:
                throw error(nameLine, nameColumn, "unknown '\(name)' in the XML declaration")
            }
        }
        guard sawVersion else { throw error(1, 1, "the XML declaration has no version") }
    }

    /// A quoted value without references (the XML declaration's, a document type's identifiers).
    private mutating func readQuotedLiteral() throws(XMLReaderError) -> String {
        guard let quote = peek(), quote == "\"" || quote == "'" else { throw error("expected a value in quotes, found \(shownCurrent)") }
        let startLine = line
        let startColumn = column
        advance()
        var value = String.UnicodeScalarView()
        while true {
            guard let scalar = peek() else { throw error(startLine, startColumn, "a quoted value is not closed") }
            advance()
            if scalar == quote { break }
            value.append(scalar)
        }
        return String(value)
    }

    private mutating func skipComment() throws(XMLReaderError) {
        let startLine = line
        let startColumn = column
        advance(4)
        while true {
            guard peek() != nil else { throw error(startLine, startColumn, "a comment ('<!--') is not closed by '-->'") }
            if starts(with: "--") {
                guard peek(2) == ">" else { throw error("'--' is not allowed inside a comment") }
                advance(3)
                return
            }
            advance()
        }
    }

    private mutating func skipProcessingInstruction() throws(XMLReaderError) {
        let startLine = line
        let startColumn = column
        advance(2)
        let target = try readName("a processing instruction's target after '<?'")
        if target.lowercased() == "xml" {
            throw error(startLine, startColumn, "an XML declaration ('<?xml …?>') is only allowed at the very start of the document")
        }
        guard starts(with: "?>") || skipSpace() else { throw error("expected white space or '?>' after '<?\(target)', found \(shownCurrent)") }
        while !starts(with: "?>") {
            guard peek() != nil else { throw error(startLine, startColumn, "a processing instruction ('<?\(target)') is not closed by '?>'") }
            advance()
        }
        advance(2)
    }

    /// `<!DOCTYPE plist PUBLIC "…" "…">`: refused unless allowed, and always refused with an
    /// internal subset (`[…]`), whose entity declarations this reader does not read.
    private mutating func skipDocumentType() throws(XMLReaderError) {
        let startLine = line
        let startColumn = column
        guard allowsExternalDocumentType else {
            throw error(startLine, startColumn, "a document type declaration ('<!DOCTYPE') is refused: model files have none, and its entities are not read")
        }
        advance(9)
        guard skipSpace() else { throw error("expected white space after '<!DOCTYPE', found \(shownCurrent)") }
        _ = try readName("the root element's name after '<!DOCTYPE'")
        while true {
            skipSpace()
            guard let scalar = peek() else { throw error(startLine, startColumn, "the document type declaration is not closed by '>'") }
            if scalar == ">" {
                advance()
                return
            } else if scalar == "[" {
                throw error("a document type declaration with an internal subset ('[…]') is refused: its declarations are not read")
            } else if scalar == "\"" || scalar == "'" {
                _ = try readQuotedLiteral()
            } else {
                let keyword = try readName("'PUBLIC', 'SYSTEM', an identifier in quotes or '>'")
                guard keyword == "PUBLIC" || keyword == "SYSTEM" else {
                    throw error("expected 'PUBLIC', 'SYSTEM', an identifier in quotes or '>' in the document type declaration, found '\(keyword)'")
                }
            }
        }
    }

    // MARK: - Elements

    /// An element whose start tag has been read and whose end tag has not.
    private struct OpenElement {
        var node: XMLElementNode
        var text = String.UnicodeScalarView()
    }

    /// The element at `<` and everything inside it, with a stack of open elements instead of recursion.
    private mutating func readElement() throws(XMLReaderError) -> XMLElementNode {
        let (first, firstIsEmpty) = try readStartTag()
        if firstIsEmpty { return first }
        var stack = [OpenElement(node: first)]
        while let top = stack.last {
            guard let scalar = peek() else {
                throw error("the document ends inside '<\(top.node.name)>' (line \(top.node.line), column \(top.node.column)), which is not closed")
            }
            if scalar == "<" {
                if starts(with: "</") {
                    let endLine = line
                    let endColumn = column
                    advance(2)
                    let name = try readName("an element name after '</'")
                    skipSpace()
                    try expect(">", "'>' to end '</\(name)'")
                    guard name == top.node.name else {
                        throw error(endLine, endColumn, "the end tag '</\(name)>' does not close '<\(top.node.name)>' (line \(top.node.line), column \(top.node.column))")
                    }
                    var closed = stack.removeLast()
                    closed.node.text = String(closed.text)
                    guard !stack.isEmpty else { return closed.node }
                    stack[stack.count - 1].node.children.append(closed.node)
                } else if starts(with: "<!--") {
                    try skipComment()
                } else if starts(with: "<![CDATA[") {
                    let startLine = line
                    let startColumn = column
                    advance(9)
                    while !starts(with: "]]>") {
                        guard let inside = peek() else { throw error(startLine, startColumn, "a CDATA section ('<![CDATA[') is not closed by ']]>'") }
                        stack[stack.count - 1].text.append(inside)
                        advance()
                    }
                    advance(3)
                } else if starts(with: "<?") {
                    try skipProcessingInstruction()
                } else if starts(with: "<!") {
                    throw error("a declaration ('<!') is not allowed inside an element")
                } else {
                    let (child, isEmpty) = try readStartTag()
                    guard stack.count < Self.maximumDepth else {
                        throw error(child.line, child.column, "elements are nested deeper than \(Self.maximumDepth) levels")
                    }
                    if isEmpty {
                        stack[stack.count - 1].node.children.append(child)
                    } else {
                        stack.append(OpenElement(node: child))
                    }
                }
            } else if scalar == "&" {
                let replacement = try readReference()
                stack[stack.count - 1].text.append(replacement)
            } else {
                if starts(with: "]]>") { throw error("']]>' is not allowed in text; write ']]&gt;'") }
                stack[stack.count - 1].text.append(scalar)
                advance()
            }
        }
        throw error("the document ends inside an element")   // not reached: the loop returns when the stack empties
    }

    /// A start tag at `<`: the element (no children yet) and whether it closed itself (`/>`).
    private mutating func readStartTag() throws(XMLReaderError) -> (XMLElementNode, isEmpty: Bool) {
        let startLine = line
        let startColumn = column
        advance()
        let name = try readName("an element name after '<'")
        var node = XMLElementNode(name: name, line: startLine, column: startColumn)
        while true {
            let hadSpace = skipSpace()
            if starts(with: "/>") {
                advance(2)
                return (node, true)
            }
            if peek() == ">" {
                advance()
                return (node, false)
            }
            guard peek() != nil else { throw error(startLine, startColumn, "the start tag '<\(name)' is not closed by '>'") }
            guard hadSpace else { throw error("expected white space, '>' or '/>' in '<\(name)', found \(shownCurrent)") }
            let attributeLine = line
            let attributeColumn = column
            let attributeName = try readName("an attribute name, '>' or '/>' in '<\(name)'")
            guard node.attribute(attributeName) == nil else {
                throw error(attributeLine, attributeColumn, "the attribute '\(attributeName)' appears twice in '<\(name)>'")
            }
            skipSpace()
            try expect("=", "'=' after the attribute '\(attributeName)'")
            skipSpace()
            node.attributes.append((attributeName, try readAttributeValue()))
        }
    }

    private mutating func readAttributeValue() throws(XMLReaderError) -> String {
        guard let quote = peek(), quote == "\"" || quote == "'" else { throw error("expected an attribute value in quotes, found \(shownCurrent)") }
        let startLine = line
        let startColumn = column
        advance()
        var value = String.UnicodeScalarView()
        while true {
            guard let scalar = peek() else { throw error(startLine, startColumn, "an attribute value is not closed by \(quote)") }
            if scalar == quote {
                advance()
                return String(value)
            } else if scalar == "<" {
                throw error("'<' is not allowed in an attribute value; write '&lt;'")
            } else if scalar == "&" {
                value.append(try readReference())
            } else {
                value.append(Self.isSpace(scalar) ? " " : scalar)
                advance()
            }
        }
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&apos;`, `&quot;`, `&#10;`, `&#x27;`.
    private mutating func readReference() throws(XMLReaderError) -> Unicode.Scalar {
        let startLine = line
        let startColumn = column
        advance()
        var body = String.UnicodeScalarView()
        while let scalar = peek(), scalar != ";" {
            guard body.count < 32, !Self.isSpace(scalar), scalar != "&", scalar != "<", scalar != "\"", scalar != "'" else {
                throw error(startLine, startColumn, "'&' starts a reference that is not closed by ';'; write '&amp;' for '&'")
            }
            body.append(scalar)
            advance()
        }
        guard peek() == ";" else { throw error(startLine, startColumn, "'&' starts a reference that is not closed by ';'; write '&amp;' for '&'") }
        advance()
        let name = String(body)
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "apos": return "'"
        case "quot": return "\""
        default:
            let number: UInt32?
            if name.hasPrefix("#x") {
                number = name.dropFirst(2).allSatisfy(\.isHexDigit) ? UInt32(name.dropFirst(2), radix: 16) : nil
            } else if name.hasPrefix("#") {
                number = name.dropFirst().allSatisfy { ("0"..."9").contains($0) } ? UInt32(name.dropFirst()) : nil
            } else {
                throw error(startLine, startColumn, "unknown entity '&\(name);'; XML defines &lt; &gt; &amp; &apos; &quot; and numeric references (&#10;, &#x27;)")
            }
            guard let number, let scalar = Unicode.Scalar(number), Self.isCharacter(scalar) else {
                throw error(startLine, startColumn, "'&\(name);' is not a character XML allows")
            }
            return scalar
        }
    }
}
