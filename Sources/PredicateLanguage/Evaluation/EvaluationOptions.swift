import Foundation

/// Settings for evaluating predicates and expressions: the functions that
/// `FUNCTION(...)` may call, the clock `now()` reads, and the time a
/// regular expression may run.
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
    /// How long, in seconds, one `MATCHES` may run before evaluation fails with
    /// `FormatPredicateError.evaluation`. The default is one second.
    public var regexTimeLimit: TimeInterval

    /// Creates options.
    ///
    /// ```swift
    /// let options = EvaluationOptions(regexTimeLimit: 0.5)
    /// ```
    public init(
        functions: [String: Function] = [:],
        now: (@Sendable () -> Date)? = nil,
        regexTimeLimit: TimeInterval = 1
    ) {
        self.functions = functions
        self.now = now
        self.regexTimeLimit = regexTimeLimit
    }
}
