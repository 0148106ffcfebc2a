/// A predicate compiled once into closures, ready to evaluate against many objects.
///
/// Compiling splits key paths, folds `[c]`/`[d]` constants, compiles `LIKE`
/// patterns and `MATCHES` regular expressions, and turns constant `IN` lists into
/// sets, so evaluating never re-reads the syntax tree.
///
/// ```swift
/// let predicate = FormatPredicate.comparison(
///     ComparisonPredicate(.keyPath("name"), .beginsWith, .constant("s"), options: .caseInsensitive))
/// let compiled = try CompiledPredicate(predicate)
/// try compiled.evaluate(["name": "Strasbourg"] as [String: Value])   // true
/// ```
public struct CompiledPredicate: Sendable {
    /// The predicate as given.
    public let predicate: FormatPredicate
    /// The options it was compiled with.
    public let options: EvaluationOptions
    private let test: PredicateClosure

    /// Compiles a predicate; throws `FormatPredicateError.evaluation` for what can be found
    /// wrong before evaluating (an invalid constant regular expression, an unknown
    /// function, collection operator or cast type).
    ///
    /// ```swift
    /// let compiled = try CompiledPredicate(.comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant(1))))
    /// ```
    public init(_ predicate: FormatPredicate, options: EvaluationOptions = .init()) throws(FormatPredicateError) {
        self.predicate = predicate
        self.options = options
        self.test = try PredicateCompiler.compile(predicate, options: options)
    }

    /// Evaluates the predicate with `object` as `SELF`.
    ///
    /// ```swift
    /// try compiled.evaluate(["name": "Paris"] as [String: Value], variables: ["limit": 10])
    /// ```
    public func evaluate(_ object: some KeyValueReadable, variables: [String: Value] = [:]) throws(FormatPredicateError) -> Bool {
        try EvaluationContext.evaluate(root: object, variables: variables, options: options, test)
    }

    /// Evaluates the predicate with any value as `SELF` (`SELF BEGINSWITH "a"` on a string).
    ///
    /// ```swift
    /// try compiled.evaluate(value: .string("apple"))
    /// ```
    public func evaluate(value: Value, variables: [String: Value] = [:]) throws(FormatPredicateError) -> Bool {
        try EvaluationContext.evaluate(root: value, variables: variables, options: options, test)
    }
}

extension FormatPredicate {
    /// Compiles and evaluates the predicate once with `object` as `SELF`. To evaluate
    /// against many objects, compile a ``CompiledPredicate`` once instead.
    ///
    /// ```swift
    /// try predicate.evaluate(with: ["population": 2_148_000] as [String: Value])
    /// ```
    public func evaluate(with object: some KeyValueReadable, variables: [String: Value] = [:]) throws(FormatPredicateError) -> Bool {
        try CompiledPredicate(self).evaluate(object, variables: variables)
    }

    /// Compiles and evaluates the predicate once with any value as `SELF`.
    ///
    /// ```swift
    /// try predicate.evaluate(withValue: .string("apple"))
    /// ```
    public func evaluate(withValue value: Value, variables: [String: Value] = [:]) throws(FormatPredicateError) -> Bool {
        try CompiledPredicate(self).evaluate(value: value, variables: variables)
    }
}
