import Foundation
import Testing
@testable import PredicateLanguage

@Suite("Evaluation: string operators")
struct StringOperatorEvaluationTests {
    @Test func beginsWith() throws {
        #expect(try holds("Strasbourg", .beginsWith, "Stras") == true)
        #expect(try holds("Strasbourg", .beginsWith, "stras") == false)
        #expect(try holds("Strasbourg", .beginsWith, "s", [.caseInsensitive]) == true)
        #expect(try holds("Strasbourg", .beginsWith, "Strasbourg!") == false)
        #expect(try holds("Étienne", .beginsWith, "e", [.caseInsensitive]) == false)
        #expect(try holds("Étienne", .beginsWith, "e", [.caseInsensitive, .diacriticInsensitive]) == true)
        #expect(try holds("Étienne", .beginsWith, "E", [.diacriticInsensitive]) == true)
        // An ASCII prefix followed by a combining accent: the fast path must not decide alone.
        // Folding gives NFC, so a decomposed accent starts with the composed letter, as Apple's
        // canonical matching has it: "E\u{301}" is "é", which does not start with "e".
        #expect(try holds("E\u{301}tienne", .beginsWith, "e", [.caseInsensitive]) == false)
        #expect(try holds("E\u{301}tienne", .beginsWith, "ét", [.caseInsensitive]) == true)
        #expect(try holds("E\u{301}tienne", .beginsWith, "e\u{301}t", [.caseInsensitive]) == true)
        #expect(try holds("ﬁne", .beginsWith, "fi", [.caseInsensitive]) == true)
        #expect(try holds("abc", .beginsWith, "") == false)
        #expect(try holds("abc", .beginsWith, "", [.caseInsensitive]) == false)
        #expect(try holds(.int(12), .beginsWith, "1") == false)
        #expect(try holds("12", .beginsWith, .int(1)) == false)
        #expect(try holds(.null, .beginsWith, "a") == false)
    }

    @Test func endsWith() throws {
        #expect(try holds("Strasbourg", .endsWith, "bourg") == true)
        #expect(try holds("Strasbourg", .endsWith, "BOURG") == false)
        #expect(try holds("Strasbourg", .endsWith, "BOURG", [.caseInsensitive]) == true)
        #expect(try holds("résumé", .endsWith, "me", [.diacriticInsensitive]) == true)
        #expect(try holds("résumé", .endsWith, "me") == false)
        #expect(try holds("abc", .endsWith, "") == false)
        #expect(try holds("c", .endsWith, "abc") == false)
        #expect(try holds(.null, .endsWith, "a") == false)
    }

    @Test func containsOnStrings() throws {
        #expect(try holds("Strasbourg", .contains, "asb") == true)
        #expect(try holds("Strasbourg", .contains, "ASB") == false)
        #expect(try holds("Strasbourg", .contains, "ASB", [.caseInsensitive]) == true)
        #expect(try holds("Saint-Étienne", .contains, "etienne", [.caseInsensitive, .diacriticInsensitive]) == true)
        #expect(try holds("Saint-Étienne", .contains, "etienne", [.caseInsensitive]) == false)
        #expect(try holds("abc", .contains, "") == false)
        #expect(try holds("abc", .contains, "abcd") == false)
        #expect(try holds("aaab", .contains, "aab") == true)
        #expect(try holds(.int(123), .contains, "2") == false)
    }

    @Test func likePatternsLiteralPrefix() {
        #expect(LikePattern.literalPrefix(of: "San*o") == "San")
        #expect(LikePattern.literalPrefix(of: "a\\*b*") == "a*b")
        #expect(LikePattern.literalPrefix(of: "?abc") == "")
        #expect(LikePattern.literalPrefix(of: "plain") == "plain")
        #expect(LikePattern.literalPrefix(of: "ends\\") == "ends\\")
    }

    @Test func like() throws {
        #expect(try holds("Santos", .like, "Sa*o?") == true)
        #expect(try holds("Sao", .like, "Sa*o?") == false)
        #expect(try holds("Santos", .like, "san*", [.caseInsensitive]) == true)
        #expect(try holds("Santos", .like, "san*") == false)
        #expect(try holds("Santos", .like, "*") == true)
        #expect(try holds("", .like, "*") == true)
        #expect(try holds("", .like, "?") == false)
        #expect(try holds("abc", .like, "a?c") == true)
        #expect(try holds("abbc", .like, "a?c") == false)
        #expect(try holds("a*c", .like, "a\\*c") == true)
        #expect(try holds("abc", .like, "a\\*c") == false)
        #expect(try holds("a?c", .like, "a\\?c") == true)
        #expect(try holds("a\\", .like, "a\\") == true)
        #expect(try holds("mississippi", .like, "*sip*") == true)
        #expect(try holds("mississippi", .like, "m*s*s*i") == true)
        #expect(try holds("mississippi", .like, "m*x*") == false)
        // `?` matches one Character, even one made of several code points.
        #expect(try holds("e\u{301}", .like, "?") == true)
        #expect(try holds("Élan", .like, "el*", [.caseInsensitive, .diacriticInsensitive]) == true)
        #expect(try holds("Élan", .like, "el*", [.caseInsensitive]) == false)
        #expect(try holds(.null, .like, "*") == false)
        #expect(try holds(.int(5), .like, "*") == false)
        #expect(LikePattern("a**b").matches("ab") == true)
    }

    @Test func matches() throws {
        #expect(try holds("Paris", .matches, "[A-Z][a-z]+") == true)
        #expect(try holds("Paris!", .matches, "[A-Z][a-z]+") == false)
        #expect(try holds("xParis", .matches, "[A-Z][a-z]+") == false)
        #expect(try holds("ab", .matches, "a|ab") == true)
        #expect(try holds("PARIS", .matches, "paris") == false)
        #expect(try holds("PARIS", .matches, "paris", [.caseInsensitive]) == true)
        #expect(try holds("café", .matches, "cafe", [.diacriticInsensitive]) == true)
        #expect(try holds("café", .matches, "cafe") == false)
        #expect(try holds("", .matches, ".*") == true)
        #expect(try holds("line1\nline2", .matches, "line1.line2") == false)
        #expect(try holds(.int(1), .matches, "1") == false)
        #expect(try holds(.null, .matches, ".*") == false)
    }

    @Test func invalidRegularExpressionNamesThePattern() throws {
        let predicate = EvaluationTestSupport.comparison(.keyPath("name"), .matches, .constant("(unclosed"))
        let compileError = EvaluationTestSupport.error { try CompiledPredicate(predicate) }
        guard case .evaluation(let message)? = compileError else {
            Issue.record("expected an evaluation error, got \(String(describing: compileError))")
            return
        }
        #expect(message.hasPrefix("invalid regular expression \"(unclosed\" in MATCHES: not a valid ICU pattern"))
        // A pattern known only at evaluation fails then, with the same message.
        let variable = EvaluationTestSupport.comparison(.keyPath("name"), .matches, .variable("pattern"))
        let compiled = try CompiledPredicate(variable)
        let evaluationError = EvaluationTestSupport.error {
            try compiled.evaluate(["name": "x"] as [String: Value], variables: ["pattern": "(unclosed"])
        }
        #expect(evaluationError == compileError)
    }

    @Test func regularExpressionThatRunsOutOfWorkFails() throws {
        let predicate = EvaluationTestSupport.comparison(.keyPath("text"), .matches, .constant("(a+)+$"))
        let options = EvaluationOptions(regularExpressionLimits: RegularExpressionLimits(workUnits: 100))
        let compiled = try CompiledPredicate(predicate, options: options)
        let record: [String: Value] = ["text": .string(String(repeating: "a", count: 40) + "b")]
        let expected = FormatPredicateError.evaluation(
            "regular expression \"(a+)+$\" needed more than its work limit of 100 units (ICU match-engine steps) to match "
                + "a string of 41 UTF-16 code units; simplify the pattern or raise EvaluationOptions.regularExpressionLimits")
        // The limit counts work, not time: the same error every time.
        for _ in 0..<5 { #expect(EvaluationTestSupport.error { try compiled.evaluate(record) } == expected) }
        #expect(try compiled.evaluate(["text": "aaaa"] as [String: Value]) == true)
    }

    @Test func inWithStrings() throws {
        #expect(try holds("bour", .in, "Strasbourg") == true)
        #expect(try holds("BOUR", .in, "Strasbourg") == false)
        #expect(try holds("BOUR", .in, "Strasbourg", [.caseInsensitive]) == true)
        #expect(try holds("", .in, "Strasbourg") == false)
        #expect(try holds(.int(1), .in, "123") == false)
    }
}

@Suite("MATCHES with an empty pattern")
struct EmptyPatternTests {
    // NSPredicate's MATCHES uses ICU regular expressions over the whole string: the empty pattern
    // matches the empty string only (NSRegularExpression accepts the empty pattern).
    @Test func theEmptyPatternMatchesTheEmptyString() throws {
        #expect(try FormatPredicate(format: "name MATCHES ''").evaluate(withValue: ["name": ""]) == true)
        #expect(try FormatPredicate(format: "name MATCHES ''").evaluate(withValue: ["name": "a"]) == false)
        #expect(try FormatPredicate(format: "name MATCHES[cd] ''").evaluate(withValue: ["name": ""]) == true)
        #expect(try FormatPredicate(format: "name MATCHES 'a*'").evaluate(withValue: ["name": ""]) == true)
        #expect(try FormatPredicate(format: "name MATCHES pattern").evaluate(withValue: ["name": "", "pattern": ""]) == true)
        #expect(try RegularExpressionMatcher(pattern: "").matches("") == true)
    }
}
