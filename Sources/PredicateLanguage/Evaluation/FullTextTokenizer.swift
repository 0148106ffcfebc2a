/// The tokenizer of full-text search (`self CONTAINS "bob smith"`,
/// `tokenize:using:`): shared by the evaluator and the SQL engines' full-text
/// indexes, so that every engine finds the same records.
///
/// Text splits on runs of characters that are neither letters nor digits; each
/// token is folded for case and diacritics (as `[cd]` folds); the stop words of
/// the CKQuery reference are dropped.
///
/// ```swift
/// FullTextTokenizer.tokens("The Café at the END")   // ["cafe", "end"]
/// ```
public enum FullTextTokenizer {
    /// The words full-text search ignores (from the CKQuery reference), folded.
    ///
    /// ```swift
    /// FullTextTokenizer.stopWords.contains("the")   // true
    /// ```
    public static let stopWords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into",
        "is", "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then",
        "there", "these", "they", "this", "to", "was", "will", "with",
    ]

    /// The tokens of a text, in order, with repeats kept.
    ///
    /// ```swift
    /// FullTextTokenizer.tokens("Zoë and Bob")   // ["zoe", "bob"]
    /// ```
    public static func tokens(_ text: String) -> [String] {
        if let tokens = asciiTokens(text) { return tokens }
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        func flush() {
            if current.isEmpty { return }
            let token = TextFolding.fold(String(current), options: [.caseInsensitive, .diacriticInsensitive])
            current = String.UnicodeScalarView()
            // Folding may expose characters that split (it never does for letters and digits,
            // but stay safe): split the folded token again.
            var part = String.UnicodeScalarView()
            for scalar in token.unicodeScalars {
                if isWordScalar(scalar) {
                    part.append(scalar)
                } else if !part.isEmpty {
                    append(String(part))
                    part = String.UnicodeScalarView()
                }
            }
            if !part.isEmpty { append(String(part)) }
        }
        func append(_ token: String) {
            if !stopWords.contains(token) { tokens.append(token) }
        }
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                current.append(scalar)
            } else if isCombiningMark(scalar), !current.isEmpty {
                // A combining accent belongs to the letter before it; folding removes it.
                current.append(scalar)
            } else {
                flush()
            }
        }
        flush()
        return tokens
    }

    /// The tokens of a text that is all ASCII, or nil for any other text. In ASCII the word
    /// characters are the letters and digits, there are no combining marks, and folding a token
    /// is putting its letters in lower case, so the tokens are the runs of letters and digits in
    /// lower case: what ``tokens(_:)`` finds, without a scalar at a time.
    static func asciiTokens(_ text: String) -> [String]? {
        var tokens: [String] = []
        var current: [UInt8] = []
        func flush() {
            guard !current.isEmpty else { return }
            let token = String(decoding: current, as: UTF8.self)
            current.removeAll(keepingCapacity: true)
            if !stopWords.contains(token) { tokens.append(token) }
        }
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            if byte &- 0x30 < 10 {
                current.append(byte)
            } else if (byte | 0x20) &- 0x61 < 26 {
                current.append(byte | 0x20)
            } else {
                flush()
            }
        }
        flush()
        return tokens
    }

    /// The distinct tokens of a text.
    ///
    /// ```swift
    /// FullTextTokenizer.tokenSet("bob BOB")   // ["bob"]
    /// ```
    public static func tokenSet(_ text: String) -> Set<String> {
        Set(tokens(text))
    }

    /// Letters and digits (Unicode general categories L* and N*).
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (value >= 0x30 && value <= 0x39) || (value | 0x20 >= 0x61 && value | 0x20 <= 0x7A)
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// Combining marks (general categories Mn, Mc, Me).
    static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }
}
