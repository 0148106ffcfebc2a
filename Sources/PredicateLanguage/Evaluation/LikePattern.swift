/// A compiled `LIKE` pattern: `*` matches any run of characters (also none),
/// `?` exactly one character, `\` makes the next character literal. The whole
/// string must match. Matching compares `Character`s (extended grapheme clusters).
///
/// ```swift
/// let pattern = LikePattern("Sa*o?")
/// pattern.matches("Santos")   // true
/// pattern.matches("Sao")      // false
/// ```
public struct LikePattern: Sendable, Hashable {
    /// One element of a pattern.
    enum Element: Sendable, Hashable {
        case literal(Character)
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
        var prefix = ""
        for element in LikePattern(pattern).elements {
            guard case .literal(let character) = element else { break }
            prefix.append(character)
        }
        return prefix
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
            for character in TextFolding.fold(literal, options: options) {
                elements.append(.literal(character))
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

    /// Whether the whole (already folded, when the pattern was compiled with folding options) string matches.
    ///
    /// ```swift
    /// LikePattern("a?c").matches("abc")   // true
    /// ```
    public func matches(_ string: String) -> Bool {
        // Iterative wildcard matching with backtracking to the last `*`: O(n * m) worst case.
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
                case .literal(let character):
                    if string[stringIndex] == character {
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
