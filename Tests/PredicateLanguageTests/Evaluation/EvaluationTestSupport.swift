import Foundation
import Testing
@testable import PredicateLanguage

/// Evaluates `l OP constant(right)` (fast path) and `l OP $r` (general path) on
/// `["l": left]`, checks they agree, and returns the answer.
func holds(
    _ left: Value, _ operator: ComparisonOperator, _ right: Value,
    _ options: ComparisonOptions = [], _ modifier: ComparisonModifier = .direct,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> Bool {
    let record: [String: Value] = ["l": left]
    let constant = FormatPredicate.comparison(
        ComparisonPredicate(.keyPath("l"), `operator`, .constant(right), modifier: modifier, options: options))
    let variable = FormatPredicate.comparison(
        ComparisonPredicate(.keyPath("l"), `operator`, .variable("r"), modifier: modifier, options: options))
    let fast = try CompiledPredicate(constant).evaluate(record)
    let general = try CompiledPredicate(variable).evaluate(record, variables: ["r": right])
    #expect(fast == general, "fast path and general path disagree", sourceLocation: sourceLocation)
    return fast
}

/// Helpers for building predicate trees in code.
enum EvaluationTestSupport {
    /// A comparison predicate.
    static func comparison(
        _ left: FormatExpression, _ operator: ComparisonOperator, _ right: FormatExpression,
        modifier: ComparisonModifier = .direct, options: ComparisonOptions = []
    ) -> FormatPredicate {
        .comparison(ComparisonPredicate(left, `operator`, right, modifier: modifier, options: options))
    }

    /// The value of an expression on a record.
    static func value(
        _ expression: FormatExpression, on record: [String: Value] = [:], variables: [String: Value] = [:],
        options: EvaluationOptions = .init()
    ) throws -> Value {
        try CompiledExpression(expression, options: options).value(for: record, variables: variables)
    }

    /// The error an evaluation throws, or nil.
    static func error(_ body: () throws -> Any) -> PredicateLanguage.FormatPredicateError? {
        do {
            _ = try body()
            return nil
        } catch let error as PredicateLanguage.FormatPredicateError {
            return error
        } catch {
            return .evaluation("unexpected error type: \(error)")
        }
    }
}
