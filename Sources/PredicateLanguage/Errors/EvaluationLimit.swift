/// Which limit of an ``EvaluationBudget`` the evaluations it counts went past.
///
/// ```swift
/// EvaluationLimit.steps(1_000).description   // "a limit of 1000 evaluation steps"
/// EvaluationLimit.deadline.description       // "a deadline"
/// ```
public enum EvaluationLimit: Sendable, Hashable, CustomStringConvertible {
    /// The steps, counted across every evaluation of the budget, went past this number
    /// (``EvaluationBudget/maximumSteps``).
    case steps(Int)
    /// The budget's deadline (``EvaluationBudget/deadline``) passed.
    case deadline

    public var description: String {
        switch self {
        case .steps(let limit):
            "a limit of \(limit) evaluation steps"
        case .deadline:
            "a deadline"
        }
    }
}
