/// The steps an evaluation has left (see ``EvaluationOptions/maximumEvaluationSteps``):
/// a counter on the evaluating function's stack, shared by every nested context of one
/// evaluation, so counting a step allocates nothing.
struct EvaluationStepBudget {
    /// The steps left; below zero, the evaluation has exceeded its limit.
    private let remaining: UnsafeMutablePointer<Int>
    /// The limit the evaluation started with, for the error message.
    let limit: Int

    /// A budget counting down the steps at `remaining`, which starts at `limit` and must
    /// outlive every use of the budget.
    @inline(__always)
    init(remaining: UnsafeMutablePointer<Int>, limit: Int) {
        self.remaining = remaining
        self.limit = limit
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
