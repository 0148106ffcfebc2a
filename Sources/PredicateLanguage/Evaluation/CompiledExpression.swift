/// An expression compiled once into a closure.
///
/// ```swift
/// let total = try CompiledExpression(.keyPath("items.@sum.price"))
/// try total.value(for: ["items": [["price": 2], ["price": 3]]] as [String: Value])   // .int(5)
/// ```
public struct CompiledExpression: Sendable {
    /// The expression as given.
    public let expression: FormatExpression
    /// The options it was compiled with.
    public let options: EvaluationOptions
    private let compute: ExpressionClosure

    /// Compiles an expression; throws `FormatPredicateError.evaluation` for an unknown
    /// function, collection operator or cast type, or an invalid constant regular expression.
    ///
    /// ```swift
    /// let compiled = try CompiledExpression(.arithmetic(.add, .keyPath("a"), .constant(1)))
    /// ```
    public init(_ expression: FormatExpression, options: EvaluationOptions = .init()) throws(FormatPredicateError) {
        self.expression = expression
        self.options = options
        self.compute = try ExpressionCompiler.compile(expression, options: options)
    }

    /// The expression's value with `object` as `SELF`.
    ///
    /// ```swift
    /// try CompiledExpression(.keyPath("name")).value(for: ["name": "Paris"] as [String: Value])   // .string("Paris")
    /// ```
    public func value(for object: some KeyValueReadable, variables: [String: Value] = [:]) throws(FormatPredicateError) -> Value {
        try EvaluationContext.evaluate(root: object, variables: variables, options: options, compute)
    }

    /// The expression's value with any value as `SELF`.
    ///
    /// ```swift
    /// try CompiledExpression(.function("uppercase:", [.evaluatedObject])).value(forValue: "paris")   // .string("PARIS")
    /// ```
    public func value(forValue value: Value, variables: [String: Value] = [:]) throws(FormatPredicateError) -> Value {
        try EvaluationContext.evaluate(root: value, variables: variables, options: options, compute)
    }
}

extension FormatExpression {
    /// Compiles and evaluates the expression once with `object` as `SELF`.
    ///
    /// ```swift
    /// try FormatExpression.keyPath("name").value(for: ["name": "Paris"] as [String: Value])   // .string("Paris")
    /// ```
    public func value(for object: some KeyValueReadable, variables: [String: Value] = [:]) throws(FormatPredicateError) -> Value {
        try CompiledExpression(self).value(for: object, variables: variables)
    }
}
