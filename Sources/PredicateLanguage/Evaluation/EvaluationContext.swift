/// What a compiled predicate reads while it runs: the evaluated object (`SELF`),
/// the variables and the steps it has left.
///
/// The compiled closures borrow the context, so passing it down takes no reference counts;
/// the options are not here, the closures captured them when compiled.
struct EvaluationContext {
    /// The object key paths start from.
    let root: EvaluationRoot
    /// `$NAME` values.
    var variables: [String: Value]
    /// The steps left, shared with the contexts nested in this one (`SUBQUERY`).
    let steps: EvaluationStepBudget

    /// Runs `body` with a fresh context on `root` whose step count lasts as long as the call: at
    /// most `maximumSteps` steps, drawn from `budget` when there is one (whose deadline is read
    /// first, and which is charged the steps taken).
    ///
    /// The root moves into the context, so a dictionary root is not copied: no reference count.
    @inline(__always)
    static func evaluate<Result>(
        root: consuming EvaluationRoot, variables: [String: Value], maximumSteps: Int, budget: EvaluationBudget?,
        _ body: (EvaluationContext) throws(FormatPredicateError) -> Result
    ) throws(FormatPredicateError) -> Result {
        let root = root
        try budget?.checkDeadline()
        var counter = StepCounter(limit: maximumSteps, budget: budget)
        return try withUnsafeMutablePointer(to: &counter) { (pointer) throws(FormatPredicateError) -> Result in
            let result = try body(EvaluationContext(root: root, variables: variables, steps: EvaluationStepBudget(counter: pointer)))
            try pointer.pointee.settle()
            return result
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
