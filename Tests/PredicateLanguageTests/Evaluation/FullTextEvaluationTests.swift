import Foundation
import Testing
@testable import PredicateLanguage
import TestSupport

@Suite("Evaluation: full-text search, folding, custom objects")
struct FullTextEvaluationTests {
    static let record: [String: Value] = [
        "name": "Bob Smith",
        "bio": "Dévelopeur à Zürich",
        "tags": ["Swift", "databases"],
        "nested": ["secret": "hidden"],
        "age": 42,
    ]

    func search(_ query: String, in record: [String: Value] = Self.record) throws -> Bool {
        try EvaluationTestSupport.comparison(.evaluatedObject, .contains, .constant(.string(query))).evaluate(with: record)
    }

    @Test func tokenizer() {
        #expect(FullTextTokenizer.tokens("The Café at the END") == ["cafe", "end"])
        #expect(FullTextTokenizer.tokens("  Hello,world!! 42x  ") == ["hello", "world", "42x"])
        #expect(FullTextTokenizer.tokens("e\u{301}te\u{301}") == ["ete"])
        #expect(FullTextTokenizer.tokens("Straße") == ["strasse"])
        #expect(FullTextTokenizer.tokens("it is a THE") == [])
        #expect(FullTextTokenizer.tokens("日本語 テキスト") == ["日本語", "テキスト"])
        #expect(FullTextTokenizer.tokens("") == [])
        #expect(FullTextTokenizer.stopWords.count == 33)
    }

    /// ASCII text takes a path of its own (``FullTextTokenizer/asciiTokens(_:)``); with a
    /// non-ASCII word after it, the same text takes the general path, which must find the same
    /// tokens, then that word's. Every printable ASCII character and the control characters
    /// around the letters appear, in 2,000 texts from a fixed seed.
    @Test func asciiTextTokenizesAsTheGeneralPathDoes() {
        var generator = SplitMix64(seed: 29)
        let characters = Array((0x01...0x7F).map { Character(Unicode.Scalar(UInt8($0))) })
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let text = String((0..<length).map { _ in characters.randomElement(using: &generator) ?? " " })
            #expect(FullTextTokenizer.asciiTokens(text) != nil)
            #expect(FullTextTokenizer.tokens(text) + ["zoe"] == FullTextTokenizer.tokens(text + " Zo\u{EB}"), "\(text.debugDescription)")
        }
        #expect(FullTextTokenizer.asciiTokens("Zo\u{EB}") == nil)
    }

    @Test func fullTextMatching() throws {
        #expect(try search("bob") == true)
        #expect(try search("SMITH") == true)
        #expect(try search("zurich") == true)
        #expect(try search("developeur") == true)
        #expect(try search("swift") == true)
        #expect(try search("alice smith") == true)
        #expect(try search("alice") == false)
        #expect(try search("smi") == false)
        #expect(try search("hidden") == false)
        #expect(try search("42") == false)
        #expect(try search("the") == false)
        #expect(try search("...") == false)
        #expect(try search("") == false)
        // Both words: two searches joined by AND.
        let both = FormatPredicate.and([
            EvaluationTestSupport.comparison(.evaluatedObject, .contains, .constant("bob")),
            EvaluationTestSupport.comparison(.evaluatedObject, .contains, .constant("alice")),
        ])
        #expect(try both.evaluate(with: Self.record) == false)
        // A search string known only at evaluation.
        let variable = EvaluationTestSupport.comparison(.evaluatedObject, .contains, .variable("q"))
        #expect(try CompiledPredicate(variable).evaluate(Self.record, variables: ["q": "databases"]) == true)
    }

    @Test func selfContainsOnStringsAndListsIsNotFullText() throws {
        let predicate = EvaluationTestSupport.comparison(.evaluatedObject, .contains, .constant("ob"))
        #expect(try predicate.evaluate(withValue: "Bob") == true)
        #expect(try predicate.evaluate(withValue: ["ob"]) == true)
        #expect(try predicate.evaluate(withValue: ["Bob"]) == false)
    }

    @Test func textFolding() {
        #expect(TextFolding.fold("Ärger", options: [.caseInsensitive, .diacriticInsensitive]) == "arger")
        #expect(TextFolding.fold("Ärger", options: .caseInsensitive) == "ärger")
        #expect(TextFolding.fold("Ärger", options: .diacriticInsensitive) == "Arger")
        #expect(TextFolding.fold("Ärger", options: []) == "Ärger")
        #expect(TextFolding.fold("Ärger", options: .normalized) == "Ärger")
        #expect(TextFolding.fold("straße", options: .caseInsensitive) == "strasse")
        #expect(TextFolding.fold("straße", options: .diacriticInsensitive) == "straße")
        #expect(TextFolding.fold("HeLLo World", options: .caseInsensitive) == "hello world")
        #expect(TextFolding.fold("HeLLo", options: .diacriticInsensitive) == "HeLLo")
        // The ASCII fast path agrees with Foundation on every ASCII character.
        for byte in UInt8(0)..<128 {
            let text = String(decoding: [byte, 0x41, 0x7A], as: UTF8.self)
            for options: ComparisonOptions in [.caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]] {
                var foundation: String.CompareOptions = []
                if options.contains(.caseInsensitive) { foundation.insert(.caseInsensitive) }
                if options.contains(.diacriticInsensitive) { foundation.insert(.diacriticInsensitive) }
                #expect(TextFolding.fold(text, options: options) == text.folding(options: foundation, locale: nil))
            }
        }
    }

    struct City: KeyValueReadable {
        var name: String
        var population: Int64
        var nicknames: [String]

        func value(forKey key: String) -> Value {
            switch key {
            case "name": .string(name)
            case "population": .int(population)
            case "nicknames": .list(nicknames.map(Value.string))
            default: .null
            }
        }

        func fullTextValues() -> [String] { [name] + nicknames }
    }

    @Test func customKeyValueReadable() throws {
        let paris = City(name: "Paris", population: 2_148_000, nicknames: ["Ville Lumière"])
        let predicate = FormatPredicate.and([
            EvaluationTestSupport.comparison(.keyPath("population"), .greaterThan, .constant(1_000_000)),
            EvaluationTestSupport.comparison(.keyPath("name"), .beginsWith, .constant("pa"), options: .caseInsensitive),
            EvaluationTestSupport.comparison(.keyPath("nicknames"), .contains, .constant("lumiere"), modifier: .any,
                                              options: [.caseInsensitive, .diacriticInsensitive]),
            EvaluationTestSupport.comparison(.keyPath("nicknames.@count"), .equalTo, .constant(1)),
            EvaluationTestSupport.comparison(.evaluatedObject, .contains, .constant("lumiere")),
        ])
        #expect(try CompiledPredicate(predicate).evaluate(paris) == true)
        #expect(try EvaluationTestSupport.comparison(.keyPath("mayor"), .equalTo, .constant(.null)).evaluate(with: paris) == true)
        #expect(try EvaluationTestSupport.comparison(.evaluatedObject, .contains, .constant("london")).evaluate(with: paris) == false)
        #expect(try CompiledExpression(.evaluatedObject).value(for: paris) == .null)
    }

    @Test func valueConformance() {
        let object: Value = ["name": "Paris", "tags": ["a", 1], "inner": ["x": "y"], "n": 1]
        #expect(object.value(forKey: "name") == "Paris")
        #expect(object.value(forKey: "missing") == .null)
        #expect(Value.string("x").value(forKey: "name") == .null)
        #expect(object.fullTextValues() == ["Paris", "a"])
        #expect(Value.string("x").fullTextValues() == ["x"])
        let dictionary: [String: Value] = ["b": "2", "a": "1", "c": ["3", 4]]
        #expect(dictionary.fullTextValues() == ["1", "2", "3"])
        #expect(dictionary.evaluatedObjectValue() == .object(dictionary))
    }
}
