import PredicateLanguage
@testable import RecordStoreSQLite
import Testing

/// A row's full-text document written byte by byte (``SQLiteFullTextDocument``) is the one the
/// tokenizer's tokens joined with spaces give, for ASCII and other text, stop words anywhere.
struct SQLiteFullTextDocumentTests {
    /// The document the tokenizer gives for some strings, in order: nil for no token.
    private static func expected(_ strings: [String]) -> String? {
        let tokens = strings.flatMap(FullTextTokenizer.tokens)
        return tokens.isEmpty ? nil : tokens.joined(separator: " ")
    }

    private static func written(_ strings: [String]) -> String? {
        var document = SQLiteFullTextDocument()
        for string in strings { document.append(string) }
        return document.text
    }

    static let strings: [String] = [
        "", " ", "Paris", "The Café at the END", "the", "THE", "a", "A b", "b a", "there these their", "theirs", "thes",
        "Takht-e Qeyşar", "Asia/Tehran", "15", "IR", "  leading and trailing  ", "New York City", "of-the-and",
        "Sa\u{303}o Paulo", "東京 Tokyo", "x1y2 Z9", "it's", "into the wild", "tee", "an", "ann", "Zoë and Bob", "_under_score_",
    ]

    @Test(arguments: strings)
    func oneStringGivesTheTokenizersDocument(_ string: String) {
        #expect(Self.written([string]) == Self.expected([string]))
    }

    @Test func severalStringsGiveTheTokenizersDocument() {
        for first in Self.strings {
            for second in Self.strings {
                for third in ["", "the", "Tehran", "Zoë"] {
                    let strings = [first, second, third]
                    #expect(Self.written(strings) == Self.expected(strings), "\(strings)")
                }
            }
        }
    }

    @Test func examples() {
        #expect(Self.written(["The Café at the END", "Paris"]) == "cafe end paris")
        #expect(Self.written(["the", "a an"]) == nil)
        #expect(Self.written(["Seyyed Nūr", "IR", "Asia/Tehran", "15"]) == "seyyed nur ir asia tehran 15")
    }
}
