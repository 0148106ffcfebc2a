/// What a compiled predicate reads while it runs: the evaluated object (`SELF`),
/// the variables and the options.
struct EvaluationContext {
    /// The object key paths start from.
    let root: any KeyValueReadable
    /// `$NAME` values.
    var variables: [String: Value]
    /// The options the predicate was compiled with.
    let options: EvaluationOptions

    /// The value of `$name`, or `FormatPredicateError.unboundVariable`.
    @inline(__always)
    func variable(_ name: String) throws(FormatPredicateError) -> Value {
        guard let value = variables[name] else { throw FormatPredicateError.unboundVariable(name) }
        return value
    }
}

/// A compiled expression: gives the expression's value in a context.
typealias ExpressionClosure = @Sendable (EvaluationContext) throws(FormatPredicateError) -> Value
/// A compiled predicate: gives its truth in a context.
typealias PredicateClosure = @Sendable (EvaluationContext) throws(FormatPredicateError) -> Bool
