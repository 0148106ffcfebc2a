import Foundation
import Testing
@testable import PredicateLanguage

/// `FUNCTION(receiver, 'selector', ...)` sends the message when no function of that name is
/// registered, as Apple does: `FUNCTION('a', 'uppercaseString') == 'A'` holds.
@Suite("FUNCTION sends its message to the receiver")
struct MessageSendTests {
    static let object: [String: Value] = [
        "name": "Paris", "population": 2_138_551, "ratio": 2.5, "flag": true, "tags": ["a", "b", "c"], "empty": .list([]),
        "founded": .date(Date(timeIntervalSinceReferenceDate: 0)), "digits": " 42 apples",
    ]

    static func value(_ format: String) throws -> Value {
        try CompiledExpression(FormatExpression(format: format)).value(for: object)
    }

    @Test("Zero- and one-argument messages of strings, numbers, dates and lists")
    func messages() throws {
        let cases: [(String, Value)] = [
            ("FUNCTION('a', 'uppercaseString')", "A"),
            ("FUNCTION(name, 'lowercaseString')", "paris"),
            ("FUNCTION('hello world', 'capitalizedString')", "Hello World"),
            ("FUNCTION(name, 'length')", 5),
            ("FUNCTION(digits, 'intValue')", 42),
            ("FUNCTION(digits, 'doubleValue')", 42.0),
            ("FUNCTION('yes', 'boolValue')", true),
            ("FUNCTION(population, 'stringValue')", "2138551"),
            ("FUNCTION(ratio, 'intValue')", 2),
            ("FUNCTION(ratio, 'description')", "2.5"),
            ("FUNCTION(flag, 'boolValue')", true),
            ("FUNCTION(founded, 'timeIntervalSinceReferenceDate')", 0.0),
            ("FUNCTION(founded, 'description')", "2001-01-01 00:00:00 +0000"),
            ("FUNCTION(tags, 'count')", 3),
            ("FUNCTION(tags, 'firstObject')", "a"),
            ("FUNCTION(tags, 'lastObject')", "c"),
            ("FUNCTION(empty, 'firstObject')", .null),
            ("FUNCTION(tags, 'objectAtIndex:', 1)", "b"),
            ("FUNCTION(tags, 'containsObject:', 'c')", true),
            ("FUNCTION(name, 'stringByAppendingString:', '!')", "Paris!"),
            ("FUNCTION(name, 'hasPrefix:', 'Pa')", true),
            ("FUNCTION(name, 'hasSuffix:', 'Pa')", false),
            ("FUNCTION(name, 'containsString:', 'ari')", true),
            ("FUNCTION(name, 'isEqualToString:', 'Paris')", true),
            ("FUNCTION(missing, 'uppercaseString')", .null),
        ]
        for (format, expected) in cases {
            #expect(try Self.value(format) == expected, "\(format)")
        }
        #expect(try FormatPredicate(format: "FUNCTION('a', 'uppercaseString') == 'A'").evaluate(with: Self.object))
        #expect(try FormatPredicate(format: "FUNCTION(name, 'hasPrefix:', 'Pa') == YES AND FUNCTION(tags, 'count') == 3").evaluate(with: Self.object))
    }

    @Test("A registered function of the same name wins; unknown selectors and bad arguments are errors")
    func refusals() throws {
        var options = EvaluationOptions()
        options.functions["uppercaseString"] = { _ in "registered" }
        #expect(try CompiledExpression(FormatExpression(format: "FUNCTION('a', 'uppercaseString')"), options: options).value(for: Self.object) == "registered")
        #expect(throws: FormatPredicateError.evaluation("no function named \"frobnicate\" is registered; add it to EvaluationOptions.functions")) {
            try Self.value("FUNCTION(name, 'frobnicate')")
        }
        #expect(throws: FormatPredicateError.evaluation("no function named \"count\" is registered; add it to EvaluationOptions.functions")) {
            try Self.value("FUNCTION(name, 'count')")
        }
        #expect(throws: FormatPredicateError.evaluation("FUNCTION(..., 'objectAtIndex:'): index 3 beyond bounds [0 .. 2]")) {
            try Self.value("FUNCTION(tags, 'objectAtIndex:', 3)")
        }
        #expect(throws: FormatPredicateError.evaluation("FUNCTION(..., 'hasPrefix:') needs a string argument, not 1")) {
            try Self.value("FUNCTION(name, 'hasPrefix:', 1)")
        }
        #expect(throws: FormatPredicateError.evaluation("FUNCTION(..., 'hasPrefix:') takes 1 argument, not 0")) {
            try Self.value("FUNCTION(name, 'hasPrefix:')")
        }
    }
}
