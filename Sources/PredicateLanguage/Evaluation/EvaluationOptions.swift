import Foundation

/// Settings for evaluating predicates and expressions: the functions that
/// `FUNCTION(...)` may call, the clock `now()` reads, the work a
/// regular expression may do, and the work one evaluation may do.
///
/// ```swift
/// var options = EvaluationOptions()
/// options.functions["double"] = { arguments in
///     guard case .int(let n) = arguments[0] else { return .null }
///     return .int(n * 2)
/// }
/// options.now = { Date(timeIntervalSince1970: 0) }
/// let compiled = try CompiledPredicate(predicate, options: options)
/// ```
public struct EvaluationOptions: Sendable {
    /// A function callable as `FUNCTION(target, "name", arguments...)`.
    /// It receives `[target] + arguments`.
    public typealias Function = @Sendable ([Value]) throws -> Value

    /// The functions `FUNCTION(target, "name", ...)` may call, by name.
    public var functions: [String: Function]
    /// The clock `now()` reads; nil reads the system clock (`Date()`).
    public var now: (@Sendable () -> Date)?
    /// How much work (match-engine steps, not seconds) and backtracking stack one `MATCHES` may
    /// use before evaluation fails with `FormatPredicateError.evaluation`. See ``RegularExpressionLimits``.
    public var regularExpressionLimits: RegularExpressionLimits
    /// How many steps one evaluation (of a predicate or expression against one object) may
    /// take before it fails with `FormatPredicateError.evaluation`. A step is one collection
    /// member visited by `SUBQUERY`, by `ANY`/`SOME`/`ALL`/`NONE`, or by a key-path collection
    /// operator (`@sum`, `@avg`, `@min`, `@max`, the unions; `@count` visits none). This stops
    /// predicates whose work grows exponentially, such as nested `SUBQUERY`s over the same list.
    /// `Int.max` sets no limit.
    ///
    /// The default, ``defaultMaximumEvaluationSteps`` (1,000,000), is far above what
    /// ordinary predicates need: `ANY` over a 200-member list takes 200 steps, and a
    /// `SUBQUERY` nested in another over the same 200 members 40,200.
    ///
    /// ```swift
    /// var options = EvaluationOptions()
    /// options.maximumEvaluationSteps = 50_000_000   // for objects with very large lists
    /// ```
    public var maximumEvaluationSteps: Int

    /// The default of ``maximumEvaluationSteps``: one million.
    ///
    /// ```swift
    /// options.maximumEvaluationSteps = 4 * EvaluationOptions.defaultMaximumEvaluationSteps
    /// ```
    public static let defaultMaximumEvaluationSteps = 1_000_000

    /// A budget every evaluation made with these options draws on together, besides each one's
    /// ``maximumEvaluationSteps``: the steps all of them take, and a deadline
    /// (``EvaluationBudget``). Past either, evaluation fails with
    /// ``FormatPredicateError/budgetExceeded(_:)``. Nil (the default) sets none. A store gives
    /// the predicate of a query a fresh budget for each page it reads.
    ///
    /// ```swift
    /// options.budget = EvaluationBudget(maximumSteps: 10_000_000, deadline: .now + .seconds(5))
    /// ```
    public var budget: EvaluationBudget?

    /// Creates options.
    ///
    /// ```swift
    /// let options = EvaluationOptions(regularExpressionLimits: RegularExpressionLimits(workUnits: 1_000), maximumEvaluationSteps: 10_000)
    /// ```
    public init(
        functions: [String: Function] = [:],
        now: (@Sendable () -> Date)? = nil,
        regularExpressionLimits: RegularExpressionLimits = RegularExpressionLimits(),
        maximumEvaluationSteps: Int = EvaluationOptions.defaultMaximumEvaluationSteps,
        budget: EvaluationBudget? = nil
    ) {
        self.functions = functions
        self.now = now
        self.regularExpressionLimits = regularExpressionLimits
        self.maximumEvaluationSteps = maximumEvaluationSteps
        self.budget = budget
    }
}
