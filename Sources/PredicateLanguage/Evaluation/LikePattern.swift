/// A compiled `LIKE` pattern: `*` matches any run of characters (also none),
/// `?` exactly one character, `\` makes the next character literal. The whole
/// string must match. Pattern and string are compared in NFC (folded when the options say), one
/// Unicode code point at a time, so `?` is one code point (as in SQL's `LIKE` and `GLOB`, and as
/// ICU's `.`), and a pattern that is literal text and one trailing `*` holds exactly when
/// `BEGINSWITH` that text holds.
///
/// ```swift
/// let pattern = LikePattern("Sa*o?")
/// pattern.matches("Santos")   // true
/// pattern.matches("Sao")      // false
/// ```
public struct LikePattern: Sendable, Hashable {
    /// One element of a pattern.
    enum Element: Sendable, Hashable {
        case literal(Unicode.Scalar)
        case anyOne
        case anyRun
    }

    let elements: [Element]

    /// The literal characters a pattern starts with, before its first `*` or `?` (escapes
    /// resolved, not folded): every string the pattern matches starts with them.
    ///
    /// ```swift
    /// LikePattern.literalPrefix(of: "San*o")    // "San"
    /// LikePattern.literalPrefix(of: "a\\*b*")   // "a*b"
    /// ```
    public static func literalPrefix(of pattern: String) -> String {
        var prefix = String.UnicodeScalarView()
        for element in LikePattern(pattern).elements {
            guard case .literal(let scalar) = element else { break }
            prefix.append(scalar)
        }
        return String(prefix)
    }

    /// The literal text of a pattern that is literal text followed by one `*` (`"san*"` gives
    /// `"san"`; escapes resolved, in NFC, not folded), for which `LIKE` holds exactly when
    /// `BEGINSWITH` that text holds; nil for any other pattern.
    ///
    /// ```swift
    /// LikePattern.prefixLiteral(of: "san*")    // "san"
    /// LikePattern.prefixLiteral(of: "s?n*")    // nil
    /// ```
    public static func prefixLiteral(of pattern: String) -> String? {
        let elements = LikePattern(pattern).elements
        guard elements.count >= 2, elements.last == .anyRun else { return nil }
        var prefix = String.UnicodeScalarView()
        for element in elements.dropLast() {
            guard case .literal(let scalar) = element else { return nil }
            prefix.append(scalar)
        }
        return String(prefix)
    }

    /// The text of a pattern without wildcards (escapes resolved, in NFC, not folded), for which
    /// `LIKE` holds exactly when `==` that text holds (both compare the NFC forms, folded alike);
    /// nil for a pattern with a `*` or `?`.
    ///
    /// ```swift
    /// LikePattern.wholeLiteral(of: #"a\*b"#)   // "a*b"
    /// LikePattern.wholeLiteral(of: "a*b")     // nil
    /// ```
    public static func wholeLiteral(of pattern: String) -> String? {
        var text = String.UnicodeScalarView()
        for element in LikePattern(pattern).elements {
            guard case .literal(let scalar) = element else { return nil }
            text.append(scalar)
        }
        return String(text)
    }

    /// Compiles a pattern. When `options` fold (`[c]`, `[d]`), the literal parts
    /// are folded so that the pattern matches folded strings.
    ///
    /// ```swift
    /// let pattern = LikePattern("sa*", options: .caseInsensitive)
    /// ```
    public init(_ pattern: String, options: ComparisonOptions = []) {
        var elements: [Element] = []
        var literal = ""
        func flush() {
            if literal.isEmpty { return }
            for scalar in TextFolding.fold(literal, options: options).unicodeScalars {
                elements.append(.literal(scalar))
            }
            literal = ""
        }
        var escaped = false
        for character in pattern {
            if escaped {
                literal.append(character)
                escaped = false
                continue
            }
            switch character {
            case "\\":
                escaped = true
            case "*":
                flush()
                if elements.last != .anyRun { elements.append(.anyRun) }
            case "?":
                flush()
                elements.append(.anyOne)
            default:
                literal.append(character)
            }
        }
        // A trailing backslash stands for itself.
        if escaped { literal.append("\\") }
        flush()
        self.elements = elements
    }

    /// The pattern written in another wildcard language, element by element: each `*` as
    /// `anyRun`, each `?` as `anyOne`, and each literal code point (folded as the pattern was
    /// compiled) as `literal` writes it, escaped as that language needs. A matcher that reads
    /// the result one code point at a time matches exactly the strings ``matches(_:)`` matches:
    /// the SQL engines write `GLOB` and `LIKE` patterns with it.
    ///
    /// ```swift
    /// LikePattern("a*b?%").translated(anyRun: "%", anyOne: "_") { $0 == "%" ? "\\%" : String($0) }   // "a%b_\\%"
    /// ```
    public func translated(anyRun: String, anyOne: String, literal: (Unicode.Scalar) -> String) -> String {
        var result = ""
        for element in elements {
            switch element {
            case .anyRun: result += anyRun
            case .anyOne: result += anyOne
            case .literal(let scalar): result += literal(scalar)
            }
        }
        return result
    }

    /// Whether the whole (already folded, when the pattern was compiled with folding options) string matches.
    ///
    /// ```swift
    /// LikePattern("a?c").matches("abc")   // true
    /// ```
    public func matches(_ text: String) -> Bool {
        // Iterative wildcard matching with backtracking to the last `*`: O(n * m) worst case.
        let string = text.unicodeScalars
        var stringIndex = string.startIndex
        var elementIndex = 0
        var starElement: Int? = nil
        var starStringIndex = string.startIndex
        while stringIndex < string.endIndex {
            if elementIndex < elements.count {
                switch elements[elementIndex] {
                case .anyRun:
                    starElement = elementIndex
                    starStringIndex = stringIndex
                    elementIndex += 1
                    continue
                case .anyOne:
                    elementIndex += 1
                    stringIndex = string.index(after: stringIndex)
                    continue
                case .literal(let scalar):
                    if string[stringIndex] == scalar {
                        elementIndex += 1
                        stringIndex = string.index(after: stringIndex)
                        continue
                    }
                }
            }
            guard let star = starElement else { return false }
            elementIndex = star + 1
            starStringIndex = string.index(after: starStringIndex)
            stringIndex = starStringIndex
        }
        while elementIndex < elements.count, elements[elementIndex] == .anyRun { elementIndex += 1 }
        return elementIndex == elements.count
    }
}
