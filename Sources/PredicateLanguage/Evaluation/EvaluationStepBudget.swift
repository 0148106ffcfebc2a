/// The steps an evaluation has left (see ``EvaluationOptions/maximumEvaluationSteps``):
/// a counter on the evaluating function's stack, shared by every nested context of one
/// evaluation, so counting a step allocates nothing.
///
/// The counter runs down an allowance; when it goes below zero, ``StepCounter/checkpoint()``
/// settles the steps taken: past the limit for one object it throws, and with a shared
/// ``EvaluationBudget`` it charges the budget (which throws past its own limits) and grants
/// the next allowance. Counting a step stays one subtraction and one test.
struct EvaluationStepBudget {
    private let counter: UnsafeMutablePointer<StepCounter>

    /// A budget counting down the steps of the counter at `counter`, which must outlive every
    /// use of the budget.
    @inline(__always)
    init(counter: UnsafeMutablePointer<StepCounter>) {
        self.counter = counter
    }

    /// Counts `steps` steps; throws once the evaluation has taken more than its limit, or its
    /// shared budget ran out.
    @inline(__always)
    func spend(_ steps: Int) throws(FormatPredicateError) {
        counter.pointee.remaining &-= steps
        if counter.pointee.remaining < 0 { try counter.pointee.checkpoint() }
    }
}

/// The step count of one evaluation: its allowance, what it has taken, and the shared budget
/// it draws on.
struct StepCounter {
    /// Steps left of the current allowance; below zero, the allowance is spent.
    var remaining: Int
    /// The allowance ``remaining`` started from.
    private var allowance: Int
    /// Steps settled at earlier checkpoints.
    private var settled = 0
    /// The most steps the one object may take.
    let limit: Int
    /// The budget shared with other evaluations, if any.
    let budget: EvaluationBudget?

    /// A counter for one evaluation of at most `limit` steps, drawing on `budget`.
    init(limit: Int, budget: EvaluationBudget?) {
        self.limit = limit
        self.budget = budget
        allowance = budget.map { min(limit, $0.nextAllowance()) } ?? limit
        remaining = allowance
    }

    /// Settles the spent allowance; throws past the object's limit or the budget's; otherwise
    /// grants the next allowance.
    @inline(never)
    mutating func checkpoint() throws(FormatPredicateError) {
        let spent = allowance &- remaining
        settled = settled.addingReportingOverflow(spent).overflow ? .max : settled + spent
        allowance = 0
        remaining = 0
        if settled > limit { throw exceeded() }
        guard let budget else { return }
        try budget.charge(spent)
        allowance = min(limit - settled, budget.nextAllowance())
        remaining = allowance
        // Nothing left to grant, though neither limit is passed yet: the next step passes one.
    }

    /// Charges the steps of the allowance not yet settled to the shared budget (at the end of
    /// an evaluation).
    mutating func settle() throws(FormatPredicateError) {
        guard let budget else { return }
        let spent = allowance &- remaining
        allowance = remaining
        if spent > 0 { try budget.charge(spent) }
    }

    /// The error for an evaluation over its limit.
    func exceeded() -> FormatPredicateError {
        .evaluation(
            "evaluation took more than \(limit) steps (collection members visited by SUBQUERY, ANY, ALL, NONE "
                + "and collection operators) for one object; raise EvaluationOptions.maximumEvaluationSteps to allow more")
    }
}
