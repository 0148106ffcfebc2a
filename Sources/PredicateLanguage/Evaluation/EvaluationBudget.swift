/// The work many evaluations may do together: a number of steps counted across all of them (a
/// step is what ``EvaluationOptions/maximumEvaluationSteps`` counts for one object: a collection
/// member visited by `SUBQUERY`, `ANY`/`ALL`/`NONE` or a collection operator) and a deadline.
/// A store gives one to every record a query tests (``EvaluationOptions/budget``), so a query's
/// work is bounded as a whole, not only record by record.
///
/// Past either limit, evaluation stops with ``FormatPredicateError/budgetExceeded(_:)``. The
/// deadline is read when each evaluation starts and every few thousand steps within one, so a
/// single evaluation stops soon after it passes too.
///
/// ```swift
/// var options = EvaluationOptions()
/// options.budget = EvaluationBudget(maximumSteps: 1_000_000, deadline: .now + .seconds(10))
/// let compiled = try CompiledPredicate(FormatPredicate(format: "ANY tags == 'a'"), options: options)
/// for object in objects where try compiled.evaluate(object) { print(object) }
/// options.budget?.stepsTaken   // the steps every evaluation took together
/// ```
public final class EvaluationBudget: Sendable {
    /// The most steps all evaluations may take together; `Int.max` sets no limit.
    public let maximumSteps: Int
    /// When evaluating must have stopped; nil sets none.
    public let deadline: ContinuousClock.Instant?
    /// The steps taken so far.
    private let taken = LockedState(0)

    /// Steps an evaluation takes between two readings of the deadline.
    static let stepsBetweenDeadlineChecks = 4_096

    /// A budget of `maximumSteps` steps (at least 0) that ends at `deadline`.
    ///
    /// ```swift
    /// let budget = EvaluationBudget(maximumSteps: 50_000)
    /// ```
    public init(maximumSteps: Int = .max, deadline: ContinuousClock.Instant? = nil) {
        self.maximumSteps = max(0, maximumSteps)
        self.deadline = deadline
    }

    /// The steps taken so far by every evaluation the budget counted.
    ///
    /// ```swift
    /// budget.stepsTaken   // 12
    /// ```
    public var stepsTaken: Int { taken.withLock { $0 } }

    /// Counts steps taken and throws when they went past the limit, or when the deadline passed.
    func charge(_ steps: Int) throws(FormatPredicateError) {
        let total = taken.withLock { (total: inout Int) -> Int in
            total = total.addingReportingOverflow(steps).overflow ? .max : total + steps
            return total
        }
        if total > maximumSteps { throw .budgetExceeded(.steps(maximumSteps)) }
        try checkDeadline()
    }

    /// Throws when the deadline passed.
    func checkDeadline() throws(FormatPredicateError) {
        if let deadline, ContinuousClock.now >= deadline { throw .budgetExceeded(.deadline) }
    }

    /// How many steps an evaluation may take before it next comes back to the budget: what is
    /// left of it, and with a deadline no more than ``stepsBetweenDeadlineChecks``.
    func nextAllowance() -> Int {
        let left = maximumSteps - taken.withLock { $0 }
        return deadline == nil ? max(0, left) : max(0, min(left, Self.stepsBetweenDeadlineChecks))
    }
}
