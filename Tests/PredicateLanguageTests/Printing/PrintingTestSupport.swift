@testable import PredicateLanguage

/// Shorthands for building trees in printer and rule tests.
enum Tree {
    static func key(_ path: String) -> FormatExpression { .keyPath(path) }

    static func constant(_ value: Value) -> FormatExpression { .constant(value) }

    static func compare(
        _ left: FormatExpression, _ comparisonOperator: ComparisonOperator, _ right: FormatExpression,
        modifier: ComparisonModifier = .direct, options: ComparisonOptions = []
    ) -> FormatPredicate {
        .comparison(ComparisonPredicate(left, comparisonOperator, right, modifier: modifier, options: options))
    }

    /// `path == value`.
    static func equals(_ path: String, _ value: Value) -> FormatPredicate {
        compare(.keyPath(path), .equalTo, .constant(value))
    }
}
