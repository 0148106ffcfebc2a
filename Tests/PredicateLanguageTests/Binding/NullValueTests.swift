import Foundation
import Testing
@testable import PredicateLanguage

/// A null that arrives as a value (Apple's NSNull) prints `<null>`; the literal `nil` prints `nil`.
@Suite("Null values and the nil literal")
struct NullValueTests {
    @Test func aNullArgumentPrintsAsNullObject() throws {
        let predicate = try FormatPredicate(format: "a == %@", argumentArray: [.null])
        #expect(predicate == .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .nullValue)))
        #expect(predicate.predicateFormat == "a == <null>")
    }

    @Test func theNilLiteralPrintsAsNil() throws {
        for literal in ["nil", "NIL", "null", "NULL"] {
            let predicate = try FormatPredicate(format: "a == \(literal)")
            #expect(predicate == .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant(.null))))
            #expect(predicate.predicateFormat == "a == nil")
        }
    }

    @Test func aVariableSubstitutedWithNullPrintsAsNullObject() throws {
        let bound = try FormatPredicate(format: "a == $x AND b == $y").substituting(["x": .null, "y": 1])
        #expect(bound.predicateFormat == "a == <null> AND b == 1")
    }

    @Test func nullObjectParsesBackToTheSameTree() throws {
        // Apple's parser does not read <null>; this one does, so that the round trip holds.
        let predicate = try FormatPredicate(format: "a == %@ OR b IN {1, %@}", argumentArray: [.null, .null])
        #expect(predicate.predicateFormat == "a == <null> OR b IN {1, <null>}")
        #expect(try FormatPredicate(format: predicate.predicateFormat) == predicate)
        #expect(try FormatExpression(format: "<null>") == .nullValue)
    }

    @Test func nullObjectIsNotOtherwiseAnOperator() throws {
        // `<` followed by `null` without the closing `>` is still a comparison with NULL.
        #expect(try FormatPredicate(format: "a <null") == .comparison(ComparisonPredicate(.keyPath("a"), .lessThan, .constant(.null))))
        #expect(try FormatPredicate(format: "a < null").predicateFormat == "a < nil")
        #expect(throws: FormatPredicateError.self) { try FormatPredicate(format: "a <null> 1") }
    }

    @Test func bothNullsEvaluateAsNull() throws {
        let record: [String: Value] = ["a": .null, "b": 1]
        #expect(try FormatPredicate(format: "a == %@", argumentArray: [.null]).evaluate(withValue: .object(record)) == true)
        #expect(try FormatPredicate(format: "b == %@", argumentArray: [.null]).evaluate(withValue: .object(record)) == false)
        #expect(try FormatPredicate(format: "b != <null>").evaluate(withValue: .object(record)) == true)
        #expect(try FormatPredicate(format: "a == nil").evaluate(withValue: .object(record)) == true)
        #expect(try EvaluationTestSupport.value(.nullValue) == .null)
    }

    @Test func nullObjectIsAConstantForTheRuleProfiles() throws {
        let predicate = try FormatPredicate(format: "a == %@", argumentArray: [.null])
        try PredicateRules.cloudKit.validate(predicate)
        try PredicateRules.coreData.validate(predicate)
        #expect(FormatExpression.nullValue.constantValue == .null)
        #expect(FormatExpression.nullValue.isNullValue)
        #expect(!FormatExpression.constant(.null).isNullValue)
    }
}
