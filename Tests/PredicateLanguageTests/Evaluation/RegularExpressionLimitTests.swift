import Foundation
import Testing
@testable import PredicateLanguage

/// `MATCHES` through ICU's uregex with a work limit: a pattern that runs out of its budget is a
/// typed error, every time; a legitimate match of a long subject answers true.
@Suite("Regular expression limits")
struct RegularExpressionLimitTests {
    @Test func catastrophicBacktrackingIsATypedErrorEveryTime() throws {
        let predicate = try FormatPredicate(format: "name MATCHES '(a+)+b'")
        let compiled = try CompiledPredicate(predicate)
        for count in [30, 32, 40] {
            let subject = String(repeating: "a", count: count)
            let expected = FormatPredicateError.evaluation(
                #"regular expression "(a+)+b" needed more than its work limit of 1000 units (ICU match-engine steps) to match "#
                    + "a string of \(count) UTF-16 code units; simplify the pattern or raise EvaluationOptions.regularExpressionLimits")
            for _ in 0..<3 {
                #expect(EvaluationTestSupport.error { try compiled.evaluate(["name": .string(subject)] as [String: Value]) } == expected)
            }
        }
    }

    @Test func legitimateLongSubjectsMatch() throws {
        let long = String(repeating: "ab", count: 500_000) + "c"
        #expect(try FormatPredicate(format: "name MATCHES '[ab]+c'").evaluate(withValue: ["name": .string(long)]) == true)
        #expect(try FormatPredicate(format: "name MATCHES '[a-c]+'").evaluate(withValue: ["name": .string(long)]) == true)
        #expect(try FormatPredicate(format: "name MATCHES '[ab]+'").evaluate(withValue: ["name": .string(long)]) == false)
        #expect(try FormatPredicate(format: "name MATCHES '.*b.*c'").evaluate(withValue: ["name": .string(long)]) == true)
        let medium = String(repeating: "ab", count: 20_000) + "c"
        #expect(try FormatPredicate(format: "name MATCHES '(ab)+c'").evaluate(withValue: ["name": .string(medium)]) == true)
        #expect(try FormatPredicate(format: "name MATCHES '(a+)+b'").evaluate(withValue: ["name": "aaaab"]) == true)
    }

    @Test func aSmallerBudgetStopsSoonerAndALargerOneLetsMore() throws {
        let predicate = try FormatPredicate(format: "name MATCHES '(a+)+b'")
        let subject: [String: Value] = ["name": .string(String(repeating: "a", count: 16))]
        let strict = try CompiledPredicate(predicate, options: EvaluationOptions(regularExpressionLimits: RegularExpressionLimits(workUnits: 1)))
        #expect(EvaluationTestSupport.error { try strict.evaluate(subject) } != nil)
        #expect(try CompiledPredicate(predicate).evaluate(subject) == false)
    }

    @Test func aDeepBacktrackingStackIsATypedError() throws {
        let limits = RegularExpressionLimits(workUnits: 0, stackBytes: 4_096)
        let compiled = try CompiledPredicate(try FormatPredicate(format: "name MATCHES '(a|b)*c'"), options: EvaluationOptions(regularExpressionLimits: limits))
        let error = EvaluationTestSupport.error {
            try compiled.evaluate(["name": .string(String(repeating: "ab", count: 10_000) + "c")] as [String: Value])
        }
        #expect(error == .evaluation(
            #"regular expression "(a|b)*c" needed more than its backtracking stack limit of 4096 bytes to match a string of 20001 UTF-16 code units; "#
                + "simplify the pattern or raise EvaluationOptions.regularExpressionLimits"))
    }

    @Test func diacriticFoldingAppliesToThePatternAsWellAsTheSubject() throws {
        // On Apple, `([Á-B])\w+` with [d] matches "Alice".
        #expect(try FormatPredicate(format: #"name MATCHES[d] '([Á-B])\\w+'"#).evaluate(withValue: ["name": "Alice"]) == true)
        // Without [d] the range Á-B runs backwards: ICU rejects the pattern.
        let unfolded = EvaluationTestSupport.error {
            try FormatPredicate(format: #"name MATCHES '([Á-B])\\w+'"#).evaluate(withValue: ["name": "Alice"])
        }
        #expect(unfolded == .evaluation(#"invalid regular expression "([Á-B])\w+" in MATCHES: not a valid ICU pattern (U_REGEX_INVALID_RANGE at offset 5)"#))
        #expect(try FormatPredicate(format: "name MATCHES[cd] 'élan'").evaluate(withValue: ["name": "ELAN"]) == true)
        #expect(try FormatPredicate(format: "name MATCHES[cd] $p").evaluate(withValue: ["name": "Éclair"], variables: ["p": "ecl.*"]) == true)
    }

    @Test func invalidPatternsNameThePatternAndICUsReason() {
        let error = EvaluationTestSupport.error { try FormatPredicate(format: "name MATCHES '[z-a]'").evaluate(withValue: ["name": "x"]) }
        #expect(error == .evaluation(#"invalid regular expression "[z-a]" in MATCHES: not a valid ICU pattern (U_REGEX_INVALID_RANGE at offset 4)"#))
    }
}
