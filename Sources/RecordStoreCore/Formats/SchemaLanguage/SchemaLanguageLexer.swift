/// Splits schema-language text into tokens, one at a time, skipping white space and comments
/// (`// …`, `-- …` to the end of the line, `/* … */`). Never recurses; each call does work
/// proportional to the text it consumes.
struct SchemaLanguageLexer {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var place = TextPosition()
    private var line: Int { place.line }
    private var column: Int { place.column }

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let index = position + offset
        return index < scalars.count ? scalars[index] : nil
    }

    private mutating func advance() {
        guard position < scalars.count else { return }
        place.pass(scalars[position])
        position += 1
    }

    private func error(_ line: Int, _ column: Int, _ message: String) -> SchemaLanguageError {
        .syntax(line: line, column: column, message: message)
    }

    /// The next token; `.end` at the end of the text (and for every call after).
    mutating func next() throws(SchemaLanguageError) -> SchemaLanguageToken {
        try skipSpaceAndComments()
        let startLine = line
        let startColumn = column
        guard let scalar = peek() else { return SchemaLanguageToken(kind: .end, line: line, column: column) }
        if "(),;<>".unicodeScalars.contains(scalar) {
            advance()
            return SchemaLanguageToken(kind: .symbol(scalar), line: startLine, column: startColumn)
        }
        if scalar == "\"" {
            advance()
            var name = String.UnicodeScalarView()
            while true {
                guard let inside = peek(), inside != "\n" else {
                    throw error(startLine, startColumn, "a name in double quotes is not closed before the end of the line")
                }
                advance()
                if inside == "\"" { break }
                name.append(inside)
            }
            guard !name.isEmpty else { throw error(startLine, startColumn, "a name in double quotes is empty") }
            return SchemaLanguageToken(kind: .quoted(String(name)), line: startLine, column: startColumn)
        }
        if SchemaLanguageIdentifier.isNameCharacter(scalar) {
            var word = String.UnicodeScalarView()
            while let inside = peek(), SchemaLanguageIdentifier.isNameCharacter(inside) {
                word.append(inside)
                advance()
            }
            guard SchemaLanguageIdentifier.isLetter(scalar) else {
                throw error(startLine, startColumn, "a name must start with a letter; write '\(String(word))' in double quotes (\"\(String(word))\") for a system name")
            }
            return SchemaLanguageToken(kind: .word(String(word)), line: startLine, column: startColumn)
        }
        let shown = scalar.properties.isWhitespace || scalar.value < 32 ? "U+\(String(scalar.value, radix: 16, uppercase: true))" : String(scalar)
        throw error(startLine, startColumn, "unexpected character '\(shown)'")
    }

    private mutating func skipSpaceAndComments() throws(SchemaLanguageError) {
        while let scalar = peek() {
            if scalar.properties.isWhitespace {
                advance()
            } else if (scalar == "/" && peek(1) == "/") || (scalar == "-" && peek(1) == "-") {
                while let inside = peek(), inside != "\n" { advance() }
            } else if scalar == "/" && peek(1) == "*" {
                let startLine = line
                let startColumn = column
                advance()
                advance()
                while !(peek() == "*" && peek(1) == "/") {
                    guard peek() != nil else { throw error(startLine, startColumn, "a comment '/*' is not closed with '*/'") }
                    advance()
                }
                advance()
                advance()
            } else {
                return
            }
        }
    }
}
