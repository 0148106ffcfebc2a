import Foundation
import Testing
@testable import PredicateLanguage

/// `%K` and `$VARIABLE` as key-path components.
///
/// Apple's answers: daydreamboy/HelloProjects, HelloNSPredicate/Tests/Tests_NSPredicate.m
/// (test_evaluateWithObject_substitutionVariables): `$a.$b == 'ABC'` and `$a[$b] == 'ABC'` with
/// a = {a: "ABC"} and b = "a" are true, as is `$a[$b] > 1` with a = [2], b = 0; `$a.$b > 1` with
/// a = [2] and b = 0 raises (test_exception).
@Suite("Key-path components from %K and variables")
struct KeyPathComponentTests {
    @Test func keyArgumentsAfterADot() throws {
        let predicate = try FormatPredicate(format: "ANY %K.%K == %@", "address", "city", "Paris")
        #expect(predicate == .comparison(ComparisonPredicate(.keyPath("address.city"), .equalTo, .constant("Paris"), modifier: .any)))
        #expect(predicate.predicateFormat == #"ANY address.city == "Paris""#)
        let people: Value = ["address": [["city": "Lyon"], ["city": "Paris"]]]
        #expect(try predicate.evaluate(withValue: people) == true)
    }

    @Test func keyArgumentsInASubquery() throws {
        let predicate = try FormatPredicate(format: "SUBQUERY(%K, $t, $t.%K == %@).@count > 0", "items", "name", "pen")
        #expect(predicate.predicateFormat == #"SUBQUERY(items, $t, $t.name == "pen").@count > 0"#)
        #expect(try FormatPredicate(format: predicate.predicateFormat) == predicate)
        #expect(try predicate.evaluate(withValue: ["items": [["name": "ink"], ["name": "pen"]]]) == true)
        #expect(try predicate.evaluate(withValue: ["items": [["name": "ink"]]]) == false)
    }

    @Test func variablesAsComponentsResolveAtEvaluation() throws {
        let predicate = try FormatPredicate(format: "$a.$b == 'ABC'")
        #expect(predicate == .comparison(ComparisonPredicate(.member(.variable("a"), "$b"), .equalTo, .constant("ABC"))))
        #expect(predicate.predicateFormat == #"$a.$b == "ABC""#)
        #expect(try FormatPredicate(format: predicate.predicateFormat) == predicate)
        #expect(predicate.variableNames == ["a", "b"])
        let variables: [String: Value] = ["a": ["a": "ABC"], "b": "a"]
        #expect(try predicate.evaluate(withValue: .null, variables: variables) == true)
        #expect(try predicate.evaluate(withValue: .null, variables: ["a": ["a": "XYZ"], "b": "a"]) == false)
    }

    @Test func variablesAsSubscriptsResolveAtEvaluation() throws {
        #expect(try FormatPredicate(format: "$a[$b] == 'ABC'").evaluate(withValue: .null, variables: ["a": ["a": "ABC"], "b": "a"]) == true)
        #expect(try FormatPredicate(format: "$a[$b] > 1").evaluate(withValue: .null, variables: ["a": [2], "b": 0]) == true)
        #expect(try FormatPredicate(format: "$a[$b].firstName == 'Lily'")
            .evaluate(withValue: .null, variables: ["a": ["a": ["firstName": "Lily"]], "b": "a"]) == true)
    }

    @Test func aVariableComponentThatIsNotAStringIsATypedError() throws {
        let predicate = try FormatPredicate(format: "$a.$b > 1")
        let error = EvaluationTestSupport.error { try predicate.evaluate(withValue: .null, variables: ["a": [2], "b": 0]) }
        #expect(error == .evaluation(
            #"the variable $b is used as a key in the key path "$b", so its value must be a non-empty string naming a key, but it is an integer (0)"#))
        let unbound = EvaluationTestSupport.error { try predicate.evaluate(withValue: .null, variables: ["a": [2]]) }
        #expect(unbound == .unboundVariable("b"))
    }

    @Test func substitutionWritesTheKeyIntoThePath() throws {
        let template = try FormatPredicate(format: "address.$field == 'Paris' AND $a.$b.count == 1")
        #expect(template.predicateFormat == #"address.$field == "Paris" AND $a.$b.count == 1"#)
        #expect(try FormatPredicate(format: template.predicateFormat) == template)
        let bound = template.substituting(["field": "city", "b": "stock"])
        #expect(bound.predicateFormat == #"address.city == "Paris" AND $a.stock.count == 1"#)
        #expect(try FormatPredicate(format: bound.predicateFormat) == bound)
        #expect(bound.variableNames == ["a"])
        // A value that is not a string leaves the variable for evaluation.
        #expect(template.substituting(["field": 3]).predicateFormat == template.predicateFormat)
        // SELF.$key substituted is a plain key path.
        #expect(try FormatPredicate(format: "SELF.$key == 1").substituting(["key": "size"]) == .comparison(
            ComparisonPredicate(.keyPath("size"), .equalTo, .constant(1))))
    }

    @Test func aMissingKeyArgumentAfterADotIsAnArgumentError() {
        #expect(throws: FormatPredicateError.argument(
            position: 2, message: "expected a value for the specifier %K, but only 1 argument was given")) {
            try FormatPredicate(format: "%K.%K == 1", "a")
        }
    }
}
