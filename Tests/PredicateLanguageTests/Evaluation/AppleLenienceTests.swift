import Foundation
import Testing
@testable import PredicateLanguage

/// What Apple's parser accepts and its evaluation then handles: unknown collection operators
/// (`@K == YES` parses; evaluating it raises) and extra arguments to built-in functions (read
/// the arguments they need, ignore the rest), as seen in code that ran on Apple's platforms.
@Suite("Apple's lenience: unknown collection operators, extra function arguments")
struct AppleLenienceTests {
    let knownOperators = "@count, @sum, @avg, @min, @max, @distinctUnionOfObjects, @unionOfObjects, "
        + "@distinctUnionOfArrays, @unionOfArrays, @firstObject, @lastObject, @allKeys, @allValues"

    func evaluationError(_ format: String, _ object: Value) -> FormatPredicateError? {
        do {
            _ = try CompiledPredicate(FormatPredicate(format: format)).evaluate(value: object)
            return nil
        } catch let error as FormatPredicateError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    // NSPredicate(format: "@K == YES") parses on Apple's platforms and fails only when evaluated.
    @Test func anUnknownCollectionOperatorParsesAndFailsWhenEvaluated() throws {
        let predicate = try FormatPredicate(format: "@K == YES")
        #expect(predicate == .comparison(ComparisonPredicate(.keyPath("@K"), .equalTo, .constant(true))))
        #expect(predicate.predicateFormat == "@K == 1")
        #expect(try FormatPredicate(format: predicate.predicateFormat) == predicate)
        #expect(try FormatPredicate(format: "items.@median > 2").predicateFormat == "items.@median > 2")
        #expect(evaluationError("@K == YES", ["K": true])
            == .evaluation("unknown collection operator @K in the key path \"@K\"; use one of \(knownOperators)"))
        #expect(evaluationError("items.@median > 2", ["items": [1, 2, 3]])
            == .evaluation("unknown collection operator @median in the key path \"items.@median\"; use one of \(knownOperators)"))
    }

    // Apple's sum: given two lists through the expression the format string builds returned the sum of the first.
    @Test func extraArgumentsAreKeptInPrintAndIgnoredInEvaluation() throws {
        let expression = try FormatExpression(format: "sum:({1, 2}, {10, 20})")
        #expect(expression == .function("sum:", [.constant([1, 2]), .constant([10, 20])]))
        #expect(expression.expressionFormat == "sum:({1, 2}, {10, 20})")
        #expect(try FormatExpression(format: expression.expressionFormat) == expression)
        #expect(try CompiledExpression(expression).value(for: [:] as [String: Value]) == .int(3))
        #expect(try CompiledExpression(FormatExpression(format: "average:({2, 4}, 1 / 0)")).value(for: [:] as [String: Value]) == .int(3))
        #expect(try CompiledExpression(FormatExpression(format: "now(1)")).value(for: [:] as [String: Value]) != .null)
        #expect(try BuiltinFunctionEvaluator.call("abs:", [-2, 7], options: .init()) == .int(2))
        // Too few is still refused, when parsing, compiling a tree and calling.
        #expect(throws: FormatPredicateError.evaluation("add:to: takes 2 arguments, but is given 1")) {
            try CompiledExpression(.function("add:to:", [.constant(1)]))
        }
        #expect(throws: FormatPredicateError.evaluation("abs: takes 1 argument, but was given 0")) {
            try BuiltinFunctionEvaluator.call("abs:", [], options: .init())
        }
    }
}
