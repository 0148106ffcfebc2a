/// What a compiled predicate reads while it runs: the evaluated object (`SELF`),
/// the variables, the options and the steps it has left.
struct EvaluationContext {
    /// The object key paths start from.
    let root: any KeyValueReadable
    /// `$NAME` values.
    var variables: [String: Value]
    /// The options the predicate was compiled with.
    let options: EvaluationOptions
    /// The steps left, shared with the contexts nested in this one (`SUBQUERY`).
    let steps: EvaluationStepBudget

    /// Runs `body` with a fresh context whose step budget lasts as long as the call.
    @inline(__always)
    static func evaluate<Result>(
        root: any KeyValueReadable, variables: [String: Value], options: EvaluationOptions,
        _ body: (EvaluationContext) throws(FormatPredicateError) -> Result
    ) throws(FormatPredicateError) -> Result {
        try EvaluationStepBudget.withBudget(limit: options.maximumEvaluationSteps) { (steps) throws(FormatPredicateError) -> Result in
            try body(EvaluationContext(root: root, variables: variables, options: options, steps: steps))
        }
    }

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
