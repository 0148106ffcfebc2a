import Foundation
import Testing
@testable import PredicateLanguage

/// Canonically equivalent strings (NFC `"São"` and NFD `"Sa\u{303}o"`) are the same string under every
/// operator, as `NSString` compares them for every non-literal comparison (`NSString`'s
/// "Normalization" note: `compare:` without `NSLiteralSearch` treats composed character sequences as
/// equivalent); issue #27's differential run found `<`, `BETWEEN`, `BEGINSWITH`, `CONTAINS`, `ENDSWITH`
/// and `LIKE` comparing bytes.
@Suite("Evaluation: canonical equivalence")
struct CanonicalEquivalenceTests {
    let composed = "S\u{E3}o Paulo"        // São Paulo, NFC
    let decomposed = "Sa\u{303}o Paulo"    // the same, NFD

    func holds(_ format: String, _ object: [String: Value], _ arguments: Value...) throws -> Bool {
        try CompiledPredicate(FormatPredicate(format: format, argumentArray: arguments)).evaluate(value: .object(object))
    }

    @Test func everyOperatorTakesBothSpellingsAlike() throws {
        for (stored, literal) in [(composed, decomposed), (decomposed, composed), (decomposed, decomposed)] {
            let record: [String: Value] = ["name": .string(stored), "names": [.string(stored), "x"]]
            for options in ["", "[c]", "[cd]", "[d]"] {
                #expect(try holds("name ==\(options) %@", record, .string(literal)), "\(options)")
                #expect(try !holds("name !=\(options) %@", record, .string(literal)), "\(options)")
                #expect(try holds("name <=\(options) %@", record, .string(literal)), "\(options)")
                #expect(try holds("name >=\(options) %@", record, .string(literal)), "\(options)")
                #expect(try !holds("name <\(options) %@", record, .string(literal)), "\(options)")
                #expect(try holds("name BETWEEN\(options) {%@, %@}", record, .string(literal), .string(literal)), "\(options)")
                #expect(try holds("name BEGINSWITH\(options) %@", record, .string(String(literal.prefix(3)))), "\(options)")
                #expect(try holds("name ENDSWITH\(options) %@", record, .string(String(literal.suffix(8)))), "\(options)")
                #expect(try holds("name CONTAINS\(options) %@", record, .string(String(literal.prefix(3)))), "\(options)")
                #expect(try holds("%@ IN\(options) name", record, .string(String(literal.prefix(3)))), "\(options)")
                #expect(try holds("name LIKE\(options) %@", record, .string(String(literal.prefix(3)) + "*")), "\(options)")
                #expect(try holds("name MATCHES\(options) %@", record, .string(String(literal.prefix(3)) + ".*")), "\(options)")
                #expect(try holds("name IN\(options) %@", record, .list([.string(literal)])), "\(options)")
                #expect(try holds("ANY names BEGINSWITH\(options) %@", record, .string(String(literal.prefix(3)))), "\(options)")
            }
        }
    }

    // Code points of the NFC forms order strings: "Sa\u{303}o" sorts as "São" (U+00E3 after "Sb").
    @Test func orderIsTheOrderOfTheNFCForms() {
        #expect(ValueOrdering.compare(.string(decomposed), "Sb") == .orderedDescending)
        #expect(ValueOrdering.compare(.string(decomposed), .string(composed)) == .orderedSame)
        #expect(ValueOrdering.compare("e\u{301}", "\u{E9}", options: .caseInsensitive) == .orderedSame)
    }

    // LIKE compares code points of the NFC forms: `?` is one code point (as SQL's LIKE and ICU's `.`), so a
    // literal followed by one `*` is exactly BEGINSWITH of the literal.
    @Test func likeIsCodePointsOfTheNFCForms() throws {
        #expect(LikePattern("S?o*").matches(TextFolding.normalized(decomposed)))
        #expect(!LikePattern("S??o*").matches(TextFolding.normalized(decomposed)))
        #expect(LikePattern.prefixLiteral(of: "san*") == "san")
        #expect(LikePattern.prefixLiteral(of: "san**") == "san")
        #expect(LikePattern.prefixLiteral(of: "Sa\u{303}o*") == composed.prefix(3).description)
        #expect(LikePattern.prefixLiteral(of: "s?n*") == nil)
        #expect(LikePattern.prefixLiteral(of: "san") == nil)
        #expect(LikePattern.prefixLiteral(of: "*") == nil)
        #expect(LikePattern.prefixLiteral(of: #"a\*b*"#) == "a*b")
        // The Devanagari spacing vowel sign after क is its own code point: LIKE "क*" agrees with BEGINSWITH "क".
        for subject in ["\u{915}\u{93F}", "q\u{307}x", "\u{1F1EB}\u{1F1F7}"] {
            let prefix = String(subject.unicodeScalars.first!)
            let begins = try holds("name BEGINSWITH %@", ["name": .string(subject)], .string(prefix))
            let like = try holds("name LIKE %@", ["name": .string(subject)], .string(prefix + "*"))
            #expect(begins == like, "\(subject)")
            #expect(like)
        }
    }

    @Test func normalizationKeepsStringsBelowU0300() {
        #expect(TextFolding.normalized("Zürich") == "Zürich")
        #expect(TextFolding.normalized("e\u{301}").unicodeScalars.map(\.value) == [0xE9])
        #expect(TextFolding.fold("Sa\u{303}o", options: []) == "S\u{E3}o")
    }

    /// The quick check that spares Foundation's normalization gives Foundation's NFC byte for byte:
    /// on text already in NFC beyond U+0300, and on what the quick check must not pass (composition
    /// exclusions, singletons, conjoining Hangul, marks out of canonical order).
    @Test func normalizationAgreesWithFoundationBeyondU0300() {
        let strings = [
            "Москва", "東京都", "서울", "\u{1100}\u{1161}\u{11A8}", "\u{0F73}", "a\u{0F73}\u{0323}", "\u{2126}", "\u{212B}",
            "\u{F900}", "\u{0958}", "q\u{323}\u{307}", "q\u{307}\u{323}", "Ba\u{300}mak\u{254}", "\u{0344}", "\u{1E9B}\u{323}",
            "\u{915}\u{93F}", "\u{1F1EB}\u{1F1F7}", "ཀྵ", "ﬁ", "\u{FB1D}",
        ]
        for string in strings {
            let expected = Array(string.precomposedStringWithCanonicalMapping.utf8)
            #expect(Array(TextFolding.normalized(string).utf8) == expected, "\(string.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(TextFolding.isKnownNFC("東京都"))
        #expect(!TextFolding.isKnownNFC("Ba\u{300}mak\u{254}"))
    }
}

@Suite("LIKE patterns SQL can decide")
struct LikePatternLiteralTests {
    // A LIKE without wildcards is equality of the NFC forms (Predicate Programming Guide: LIKE's `*` and `?` are its only wildcards).
    @Test func aPatternWithoutWildcardsIsItsText() throws {
        #expect(LikePattern.wholeLiteral(of: "Paris") == "Paris")
        #expect(LikePattern.wholeLiteral(of: #"a\*b\?"#) == "a*b?")
        #expect(LikePattern.wholeLiteral(of: "Sa\u{303}o") == "S\u{E3}o")
        #expect(LikePattern.wholeLiteral(of: "a*b") == nil)
        #expect(LikePattern.wholeLiteral(of: "a?") == nil)
        #expect(LikePattern.wholeLiteral(of: "") == "")
        let like = try FormatPredicate(format: "name LIKE[c] 'PARIS'")
        #expect(try like.evaluate(withValue: ["name": "paris"]) == true)
        #expect(try like.evaluate(withValue: ["name": "parisx"]) == false)
    }
}
