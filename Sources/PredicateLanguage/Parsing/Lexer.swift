/// Splits the UTF-8 bytes of a format string into tokens, one at a time, on demand.
///
/// The lexer never allocates for names, keywords, numbers or operators: tokens
/// are byte ranges, and keywords are recognized by comparing bytes without regard
/// to case. A string literal with escape sequences is decoded once, into
/// ``decodedString``, when its token is produced.
struct Lexer {
    /// The UTF-8 bytes of the source. Valid only while the source string is pinned.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    private(set) var position = 0
    /// The decoded text of the last string token that had escape sequences.
    private(set) var decodedString = ""

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: - Tokens

    /// Reads the next token.
    mutating func next() throws(ParseFailure) -> Token {
        skipWhitespace()
        let start = position
        guard start < bytes.count else {
            return Token(kind: .end, start: start, end: start, sourceStart: start)
        }
        let byte = bytes[start]
        switch byte {
        case UInt8(ascii: "("): return single(.leftParenthesis, start)
        case UInt8(ascii: ")"): return single(.rightParenthesis, start)
        case UInt8(ascii: "{"): return single(.leftBrace, start)
        case UInt8(ascii: "}"): return single(.rightBrace, start)
        case UInt8(ascii: "["): return single(.leftBracket, start)
        case UInt8(ascii: "]"): return single(.rightBracket, start)
        case UInt8(ascii: ","): return single(.comma, start)
        case UInt8(ascii: "+"): return single(.plus, start)
        case UInt8(ascii: "-"): return single(.minus, start)
        case UInt8(ascii: "/"): return single(.slash, start)
        case UInt8(ascii: "*"):
            return peek(1) == UInt8(ascii: "*") ? double(.doubleStar, start) : single(.star, start)
        case UInt8(ascii: "="):
            switch peek(1) {
            case UInt8(ascii: "="): return double(.equal, start)
            case UInt8(ascii: "<"): return double(.lessOrEqual, start)
            case UInt8(ascii: ">"): return double(.greaterOrEqual, start)
            default: return single(.equal, start)
            }
        case UInt8(ascii: "!"):
            return peek(1) == UInt8(ascii: "=") ? double(.notEqual, start) : single(.exclamation, start)
        case UInt8(ascii: "<"):
            switch peek(1) {
            case UInt8(ascii: "="): return double(.lessOrEqual, start)
            case UInt8(ascii: ">"): return double(.notEqual, start)
            case UInt8(ascii: "<"): return double(.shiftLeft, start)
            default:
                if spellsNullValue(at: start) {
                    position = start + 6
                    return Token(kind: .nullValue, start: start, end: position, sourceStart: start)
                }
                return single(.less, start)
            }
        case UInt8(ascii: ">"):
            switch peek(1) {
            case UInt8(ascii: "="): return double(.greaterOrEqual, start)
            case UInt8(ascii: ">"): return double(.shiftRight, start)
            default: return single(.greater, start)
            }
        case UInt8(ascii: "&"):
            return peek(1) == UInt8(ascii: "&") ? double(.doubleAmpersand, start) : single(.ampersand, start)
        case UInt8(ascii: "|"):
            return peek(1) == UInt8(ascii: "|") ? double(.doubleBar, start) : single(.bar, start)
        case UInt8(ascii: "^"):
            return single(.caret, start)
        case UInt8(ascii: ":"):
            guard peek(1) == UInt8(ascii: "=") else {
                throw ParseFailure(expected: "an expression or an operator", found: "':'", byteOffset: start)
            }
            return double(.assignment, start)
        case UInt8(ascii: "."):
            if let following = peek(1), Lexer.isDigit(following) { return try number(start) }
            return single(.dot, start)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number(start)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return try string(start, quote: byte)
        case UInt8(ascii: "$"):
            position += 1
            guard scanName() else {
                throw ParseFailure(expected: "a variable name after '$'", found: describeCharacter(at: position), byteOffset: position)
            }
            return Token(kind: .variable, start: start + 1, end: position, sourceStart: start)
        case UInt8(ascii: "#"):
            position += 1
            guard scanName() else {
                throw ParseFailure(expected: "a key name after '#'", found: describeCharacter(at: position), byteOffset: position)
            }
            return Token(kind: .identifier, start: start + 1, end: position, sourceStart: start)
        case UInt8(ascii: "@"):
            position += 1
            guard scanName() else {
                throw ParseFailure(
                    expected: "a collection operator name after '@'", found: describeCharacter(at: position),
                    byteOffset: position)
            }
            return Token(kind: .collectionOperator, start: start, end: position, sourceStart: start)
        case UInt8(ascii: "%"):
            return try formatSpecifier(start)
        default:
            if scanName() { return name(start) }
            throw unexpectedCharacter(at: start)
        }
    }

    /// Whether the bytes at `start` spell `<null>`: how a null that arrived as a value (Apple's
    /// `NSNull`) prints. Apple's parser does not read it back; this one does, so that printing then
    /// parsing gives an equal tree. (`x <null> ...` is not valid otherwise: a comparison with `NULL`
    /// cannot be followed by `>`.)
    private func spellsNullValue(at start: Int) -> Bool {
        guard start + 6 <= bytes.count else { return false }
        let word: StaticString = "<null>"
        let letters = word.utf8Start
        for index in 0..<6 where bytes[start + index] != letters[index] { return false }
        return true
    }

    private func peek(_ distance: Int) -> UInt8? {
        let index = position + distance
        return index < bytes.count ? bytes[index] : nil
    }

    private mutating func single(_ kind: TokenKind, _ start: Int) -> Token {
        position = start + 1
        return Token(kind: kind, start: start, end: start + 1, sourceStart: start)
    }

    private mutating func double(_ kind: TokenKind, _ start: Int) -> Token {
        position = start + 2
        return Token(kind: kind, start: start, end: start + 2, sourceStart: start)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C: position += 1
            default: return
            }
        }
    }

    // MARK: - Names, keywords and selectors

    /// Reads a name (letters, digits, `_`, non-ASCII letters) at the current position.
    /// Returns false, without moving, when no name starts here.
    private mutating func scanName() -> Bool {
        let start = position
        let count = bytes.count
        var index = position
        while index < count {
            let byte = bytes[index]
            if Lexer.isNameByte(byte) {
                index += 1
            } else if byte >= 0x80, let length = nonASCIINameLength(at: index) {
                index += length
            } else {
                break
            }
        }
        position = index
        return index > start
    }

    /// The byte length of the non-ASCII letter, digit or mark at `index`, or nil when it is none.
    @inline(never)
    private func nonASCIINameLength(at index: Int) -> Int? {
        guard let (scalar, length) = scalar(at: index), Lexer.isNameScalar(scalar) else { return nil }
        return length
    }

    /// Builds the token for the name just scanned from `start`: a keyword, a selector or an identifier.
    private mutating func name(_ start: Int) -> Token {
        // A selector: name followed by ':' (but not ':='), possibly several parts.
        if position < bytes.count, bytes[position] == UInt8(ascii: ":"), peek(1) != UInt8(ascii: "=") {
            while position < bytes.count, bytes[position] == UInt8(ascii: ":"), peek(1) != UInt8(ascii: "=") {
                position += 1
                guard scanName() else { break }
            }
            return Token(kind: .selector, start: start, end: position, sourceStart: start)
        }
        if let keyword = keyword(start, position - start) {
            return Token(kind: .keyword(keyword), start: start, end: position, sourceStart: start)
        }
        if position - start == 3, spells(start, "uti"), position < bytes.count, bytes[position] == UInt8(ascii: "-") {
            if let keyword = uniformTypeOperator(start) {
                return Token(kind: .keyword(keyword), start: start, end: position, sourceStart: start)
            }
        }
        return Token(kind: .identifier, start: start, end: position, sourceStart: start)
    }

    /// `UTI-CONFORMS-TO` or `UTI-EQUALS` (any case), the name `UTI` at `start` already scanned:
    /// consumes the rest of the operator when it follows and no name character continues it.
    private mutating func uniformTypeOperator(_ start: Int) -> Keyword? {
        for (word, keyword) in [("uti-conforms-to" as StaticString, Keyword.utiConformsTo), ("uti-equals", .utiEquals)] {
            let end = start + word.utf8CodeUnitCount
            guard end <= bytes.count, spells(start, word) else { continue }
            // `spells` folds case by setting bit 0x20, which would also take a carriage return for '-'.
            let hyphens = (0..<word.utf8CodeUnitCount).allSatisfy { word.utf8Start[$0] != UInt8(ascii: "-") || bytes[start + $0] == UInt8(ascii: "-") }
            guard hyphens else { continue }
            if end < bytes.count, Lexer.isNameByte(bytes[end]) || bytes[end] >= 0x80 { continue }
            position = end
            return keyword
        }
        return nil
    }

    /// Whether the bytes at `start` spell `word` (given in lower case) in any case.
    private func spells(_ start: Int, _ word: StaticString) -> Bool {
        let letters = word.utf8Start
        for index in 0..<word.utf8CodeUnitCount where bytes[start + index] | 0x20 != letters[index] {
            return false
        }
        return true
    }

    /// The keyword spelled by the name of `length` bytes at `start`, if any.
    /// Dispatches on the first letter and the length, so most names cost one or two comparisons.
    private func keyword(_ start: Int, _ length: Int) -> Keyword? {
        guard length >= 2, length <= 14 else { return nil }
        switch bytes[start] | 0x20 {
        case UInt8(ascii: "a"):
            if length == 3 {
                if spells(start, "and") { return .and }
                if spells(start, "any") { return .any }
                if spells(start, "all") { return .all }
            }
        case UInt8(ascii: "b"):
            if length == 10, spells(start, "beginswith") { return .beginsWith }
            if length == 7, spells(start, "between") { return .between }
        case UInt8(ascii: "c"):
            if length == 8, spells(start, "contains") { return .contains }
            if length == 4, spells(start, "cast") { return .cast }
        case UInt8(ascii: "e"):
            if length == 8, spells(start, "endswith") { return .endsWith }
        case UInt8(ascii: "f"):
            if length == 5 {
                if spells(start, "false") { return .false }
                if spells(start, "first") { return .first }
            }
            if length == 14, spells(start, "falsepredicate") { return .falsePredicate }
            if length == 8, spells(start, "function") { return .function }
        case UInt8(ascii: "i"):
            if length == 2, spells(start, "in") { return .in }
        case UInt8(ascii: "l"):
            if length == 4 {
                if spells(start, "like") { return .like }
                if spells(start, "last") { return .last }
            }
        case UInt8(ascii: "m"):
            if length == 7, spells(start, "matches") { return .matches }
        case UInt8(ascii: "n"):
            if length == 3 {
                if spells(start, "not") { return .not }
                if spells(start, "nil") { return .nil }
            }
            if length == 2, spells(start, "no") { return .no }
            if length == 4 {
                if spells(start, "none") { return .noneModifier }
                if spells(start, "null") { return .null }
            }
        case UInt8(ascii: "o"):
            if length == 2, spells(start, "or") { return .or }
        case UInt8(ascii: "s"):
            if length == 4 {
                if spells(start, "self") { return .self }
                if spells(start, "some") { return .some }
                if spells(start, "size") { return .size }
            }
            if length == 8, spells(start, "subquery") { return .subquery }
        case UInt8(ascii: "t"):
            if length == 4, spells(start, "true") { return .true }
            if length == 13, spells(start, "truepredicate") { return .truePredicate }
            if length == 7, spells(start, "ternary") { return .ternary }
        case UInt8(ascii: "y"):
            if length == 3, spells(start, "yes") { return .yes }
        default:
            break
        }
        return nil
    }

    // MARK: - Numbers

    private mutating func number(_ start: Int) throws(ParseFailure) -> Token {
        position = start
        if bytes[start] == UInt8(ascii: "0"), let prefix = peek(1) {
            let notation: NumberNotation? =
                switch prefix | 0x20 {
                case UInt8(ascii: "x"): .hexadecimal
                case UInt8(ascii: "o"): .octal
                case UInt8(ascii: "b"): .binary
                default: nil
                }
            if let notation {
                position = start + 2
                let digitsStart = position
                while position < bytes.count, Lexer.digitValue(bytes[position], radix: notation.radix) != nil {
                    position += 1
                }
                guard position > digitsStart else {
                    let name = notation == .hexadecimal ? "hexadecimal" : notation == .octal ? "octal" : "binary"
                    throw ParseFailure(
                        expected: "\(name) digits after '\(Lexer.text(bytes, start, start + 2))'",
                        found: describeCharacter(at: position), byteOffset: position)
                }
                return Token(kind: .number(notation), start: start, end: position, sourceStart: start)
            }
        }
        var notation = NumberNotation.decimalInteger
        while position < bytes.count, Lexer.isDigit(bytes[position]) { position += 1 }
        if position < bytes.count, bytes[position] == UInt8(ascii: "."), let following = peek(1), Lexer.isDigit(following) {
            notation = .floatingPoint
            position += 1
            while position < bytes.count, Lexer.isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            var exponentStart = position + 1
            if exponentStart < bytes.count, bytes[exponentStart] == UInt8(ascii: "+") || bytes[exponentStart] == UInt8(ascii: "-") {
                exponentStart += 1
            }
            if exponentStart < bytes.count, Lexer.isDigit(bytes[exponentStart]) {
                notation = .floatingPoint
                position = exponentStart
                while position < bytes.count, Lexer.isDigit(bytes[position]) { position += 1 }
            }
        }
        return Token(kind: .number(notation), start: start, end: position, sourceStart: start)
    }

    // MARK: - Strings

    private mutating func string(_ start: Int, quote: UInt8) throws(ParseFailure) -> Token {
        let contentStart = start + 1
        var index = contentStart
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                position = index + 1
                return Token(kind: .string(hasEscapes: false), start: contentStart, end: index, sourceStart: start)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte == 0x0A || byte == 0x0D { throw lineBreakInString(at: index, quote: quote) }
            index += 1
        }
        guard index < bytes.count else {
            throw ParseFailure(
                expected: "a closing \(quote == UInt8(ascii: "'") ? "\"'\"" : "'\"'")", found: "an unterminated string",
                byteOffset: start)
        }
        // Escapes present: decode into a buffer.
        var decoded: [UInt8] = []
        decoded.reserveCapacity(index - contentStart + 16)
        decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                position = index + 1
                decodedString = String(decoding: decoded, as: UTF8.self)
                return Token(kind: .string(hasEscapes: true), start: contentStart, end: index, sourceStart: start)
            }
            if byte == 0x0A || byte == 0x0D { throw lineBreakInString(at: index, quote: quote) }
            if byte != UInt8(ascii: "\\") {
                decoded.append(byte)
                index += 1
                continue
            }
            let escapeStart = index
            guard index + 1 < bytes.count else { break }
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): decoded.append(escaped)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "0"): decoded.append(0x00)
            case UInt8(ascii: "u"):
                let scalar = try unicodeEscape(escapeStart, after: &index)
                decoded.append(contentsOf: String(Character(scalar)).utf8)
            default:
                throw ParseFailure(
                    expected: #"a valid escape sequence (\\, \", \', \n, \r, \t, \0, \uXXXX or \u{X})"#,
                    found: "'\\\(describeCharacterText(at: escapeStart + 1))'", byteOffset: escapeStart)
            }
        }
        throw ParseFailure(
            expected: "a closing \(quote == UInt8(ascii: "'") ? "\"'\"" : "'\"'")", found: "an unterminated string",
            byteOffset: start)
    }

    /// A raw line feed or carriage return inside a quoted string: a syntax error, as in Apple's
    /// parser (write `\n` or `\r` instead).
    private func lineBreakInString(at index: Int, quote: UInt8) -> ParseFailure {
        let closing = quote == UInt8(ascii: "'") ? "\"'\"" : "'\"'"
        return ParseFailure(
            expected: "a closing \(closing) before the end of the line (write a line break inside a string as \\n)",
            found: "a line break inside a quoted string", byteOffset: index)
    }

    /// Decodes `\uXXXX` (with a following low surrogate when needed) or `\u{X...}`;
    /// `index` is just past the `u` and moves past the escape.
    private func unicodeEscape(_ escapeStart: Int, after index: inout Int) throws(ParseFailure) -> Unicode.Scalar {
        let escapeEnd = min(bytes.count, index + 4)
        var invalid: ParseFailure {
            ParseFailure(
                expected: #"a Unicode escape of the form \uXXXX or \u{X...} naming a valid scalar"#,
                found: "'\(Lexer.text(bytes, escapeStart, escapeEnd))'", byteOffset: escapeStart)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
            var value: UInt32 = 0
            var digits = 0
            index += 1
            while index < bytes.count, let digit = Lexer.digitValue(bytes[index], radix: 16) {
                value = value &* 16 &+ UInt32(digit)
                digits += 1
                index += 1
                if digits > 8 { throw invalid }
            }
            guard digits > 0, index < bytes.count, bytes[index] == UInt8(ascii: "}"),
                let scalar = Unicode.Scalar(value)
            else { throw invalid }
            index += 1
            return scalar
        }
        guard let unit = fourHexDigits(at: index) else { throw invalid }
        index += 4
        if (0xD800...0xDBFF).contains(unit) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                let low = fourHexDigits(at: index + 2), (0xDC00...0xDFFF).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
            else { throw invalid }
            index += 6
            return scalar
        }
        guard let scalar = Unicode.Scalar(unit) else { throw invalid }
        return scalar
    }

    private func fourHexDigits(at index: Int) -> UInt16? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt16 = 0
        for offset in 0..<4 {
            guard let digit = Lexer.digitValue(bytes[index + offset], radix: 16) else { return nil }
            value = value * 16 + UInt16(digit)
        }
        return value
    }

    // MARK: - Format specifiers

    private mutating func formatSpecifier(_ start: Int) throws(ParseFailure) -> Token {
        var index = start + 1
        guard index < bytes.count else {
            throw ParseFailure(expected: "a format specifier such as %@, %K, %d or %f", found: "a lone '%' at the end of the input", byteOffset: start)
        }
        if bytes[index] == UInt8(ascii: "%") {
            throw ParseFailure(
                expected: "an expression (a literal percent sign '%%' is only meaningful inside a quoted string)",
                found: "'%%'", byteOffset: start)
        }
        // Length modifiers: h, hh, l, ll, q.
        var modifiers = 0
        while index < bytes.count, modifiers < 2,
            bytes[index] == UInt8(ascii: "l") || bytes[index] == UInt8(ascii: "h") || bytes[index] == UInt8(ascii: "q")
        {
            index += 1
            modifiers += 1
        }
        let specifier: FormatSpecifier?
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "@") where modifiers == 0: specifier = .object
            case UInt8(ascii: "K") where modifiers == 0: specifier = .keyPath
            case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "u"): specifier = .integer
            case UInt8(ascii: "f"), UInt8(ascii: "g"), UInt8(ascii: "e"), UInt8(ascii: "F"), UInt8(ascii: "G"), UInt8(ascii: "E"):
                specifier = modifiers == 0 || (modifiers == 1 && bytes[index - 1] == UInt8(ascii: "l")) ? .floatingPoint : nil
            default: specifier = nil
            }
        } else {
            specifier = nil
        }
        guard let specifier else {
            // Name the specifier: '%' plus the modifiers and the next character.
            var end = min(index, bytes.count)
            if end < bytes.count, let (_, length) = scalar(at: end) { end += length }
            throw ParseFailure(
                expected: "a supported format specifier (%@, %K, %d, %i, %ld, %lld, %u, %f, %lf, %g or %e)",
                found: "the unsupported specifier '\(Lexer.text(bytes, start, end))'", byteOffset: start)
        }
        position = index + 1
        return Token(kind: .formatSpecifier(specifier), start: start, end: position, sourceStart: start)
    }

    // MARK: - Characters

    private func scalar(at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        switch lead {
        case 0x00..<0x80: return (Unicode.Scalar(lead), 1)
        case 0xC0..<0xE0: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0..<0xF0: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0..<0xF8: length = 4; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let continuation = bytes[index + offset]
            guard continuation & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// The character at `index` as text, or an empty string at the end.
    private func describeCharacterText(at index: Int) -> String {
        guard index < bytes.count else { return "" }
        let length = scalar(at: index)?.1 ?? 1
        return Lexer.text(bytes, index, min(bytes.count, index + length))
    }

    /// "'x'" for the character at `index`, or "the end of the input".
    private func describeCharacter(at index: Int) -> String {
        guard index < bytes.count else { return "the end of the input" }
        switch bytes[index] {
        case 0x20: return "a space"
        case 0x09, 0x0A, 0x0D, 0x0B, 0x0C: return "whitespace"
        default: break
        }
        return "'\(describeCharacterText(at: index))'"
    }

    private func unexpectedCharacter(at index: Int) -> ParseFailure {
        if let (scalar, _) = scalar(at: index) {
            switch scalar.value {
            case 0x2018, 0x2019, 0x201A, 0x201B, 0x201C, 0x201D, 0x201E, 0x201F, 0x00AB, 0x00BB:
                return ParseFailure(
                    expected: #"a straight quote (' or ") around a string"#,
                    found: "the typographic quote '\(Character(scalar))'", byteOffset: index)
            default:
                break
            }
        }
        return ParseFailure(
            expected: "an expression or an operator",
            found: "the unexpected character \(describeCharacter(at: index))", byteOffset: index)
    }

    // MARK: - Byte classes

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        let letter = byte | 0x20
        return (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }

    static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isAlphabetic { return true }
        switch properties.generalCategory {
        case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: return true
        default: return false
        }
    }

    static func digitValue(_ byte: UInt8, radix: UInt64) -> UInt64? {
        let value: UInt64
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = UInt64(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = UInt64(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
        return value < radix ? value : nil
    }

    /// The source text between two byte offsets.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<max(start, end)]), as: UTF8.self)
    }
}
