import PredicateLanguage

/// Limits on the work one query's predicate may do where the evaluator tests it on records (the
/// residual a database cannot answer, or every record on the memory engine): the steps all the
/// records' evaluations take together (a step is a collection member visited by `SUBQUERY`,
/// `ANY`/`ALL`/`NONE` or a collection operator, as PredicateLanguage's `EvaluationOptions.maximumEvaluationSteps` counts them) and
/// a deadline. Past either, the query stops with ``RecordStoreError/queryTooExpensive(_:)``.
///
/// Each page of a query (a call of `records(matching:…)` or `records(continuingMatchFrom:…)`)
/// counts its own steps. The default, ``none``, sets no limit: a library caller's queries run as
/// long as they need; a server sets limits for its clients (`query serve` does).
///
/// ```swift
/// let limits = QueryCostLimits(maximumEvaluationSteps: 10_000_000, deadline: .now + .seconds(10))
/// let batch = try await store.records(matching: query, resultsLimit: 100, costLimits: limits)
/// ```
public struct QueryCostLimits: Sendable, Hashable {
    /// The most steps the evaluations of one query may take together; nil sets no limit.
    public var maximumEvaluationSteps: Int?
    /// When the query's evaluations must have stopped; nil sets no deadline.
    public var deadline: ContinuousClock.Instant?

    /// No limit: what a query has unless its caller sets some.
    ///
    /// ```swift
    /// QueryCostLimits.none.maximumEvaluationSteps   // nil
    /// ```
    public static let none = QueryCostLimits()

    /// Limits of steps and time.
    ///
    /// ```swift
    /// let limits = QueryCostLimits(maximumEvaluationSteps: 1_000_000)
    /// ```
    public init(maximumEvaluationSteps: Int? = nil, deadline: ContinuousClock.Instant? = nil) {
        self.maximumEvaluationSteps = maximumEvaluationSteps
        self.deadline = deadline
    }

    /// The evaluation options one run of a query compiles its predicate with: a fresh
    /// ``EvaluationBudget`` of these limits, shared by every record it tests; none without limits.
    package func evaluationOptions() -> EvaluationOptions {
        guard maximumEvaluationSteps != nil || deadline != nil else { return EvaluationOptions() }
        return EvaluationOptions(budget: EvaluationBudget(maximumSteps: maximumEvaluationSteps ?? .max, deadline: deadline))
    }
}
