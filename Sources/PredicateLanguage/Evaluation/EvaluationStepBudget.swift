/// The steps an evaluation has left (see ``EvaluationOptions/maximumEvaluationSteps``):
/// a counter on the evaluating function's stack, shared by every nested context of one
/// evaluation, so counting a step allocates nothing.
struct EvaluationStepBudget {
    /// The steps left; below zero, the evaluation has exceeded its limit.
    private let remaining: UnsafeMutablePointer<Int>
    /// The limit the evaluation started with, for the error message.
    let limit: Int

    /// Runs `body` with a budget of `limit` steps that lives as long as the call.
    @inline(__always)
    static func withBudget<Result>(
        limit: Int, _ body: (EvaluationStepBudget) throws(FormatPredicateError) -> Result
    ) throws(FormatPredicateError) -> Result {
        var remaining = limit
        return try withUnsafeMutablePointer(to: &remaining) { (pointer) throws(FormatPredicateError) -> Result in
            try body(EvaluationStepBudget(remaining: pointer, limit: limit))
        }
    }

    /// Counts `steps` steps; throws once the evaluation has taken more than its limit.
    @inline(__always)
    func spend(_ steps: Int) throws(FormatPredicateError) {
        remaining.pointee &-= steps
        if remaining.pointee < 0 { throw exceeded() }
    }

    /// The error for an evaluation over its limit.
    @inline(never)
    func exceeded() -> FormatPredicateError {
        .evaluation(
            "evaluation took more than \(limit) steps (collection members visited by SUBQUERY, ANY, ALL, NONE "
                + "and collection operators) for one object; raise EvaluationOptions.maximumEvaluationSteps to allow more")
    }
}
