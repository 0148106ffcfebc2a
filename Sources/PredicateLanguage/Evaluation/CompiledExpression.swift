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
        self.compute = try ExpressionCompiler.compile(expression, options: options, layout: nil)
    }

    /// The expression's value with `object` as `SELF`.
    ///
    /// ```swift
    /// try CompiledExpression(.keyPath("name")).value(for: ["name": "Paris"] as [String: Value])   // .string("Paris")
    /// ```
    public func value(for object: some KeyValueReadable, variables: [String: Value] = [:]) throws(FormatPredicateError) -> Value {
        try EvaluationRoot.withRoot(object) { (root) throws(FormatPredicateError) -> Value in try evaluate(root: root, variables: variables) }
    }

    /// The expression's value with a dictionary of fields as `SELF`: the same as the generic
    /// `value(for:variables:)`, with the fields read without going through the protocol.
    ///
    /// ```swift
    /// try CompiledExpression(.keyPath("name")).value(for: ["name": "Paris"])   // .string("Paris")
    /// ```
    public func value(for object: consuming [String: Value], variables: [String: Value] = [:]) throws(FormatPredicateError) -> Value {
        try evaluate(root: EvaluationRoot(fields: object), variables: variables)
    }

    /// The expression's value with any value as `SELF`.
    ///
    /// ```swift
    /// try CompiledExpression(.function("uppercase:", [.evaluatedObject])).value(forValue: "paris")   // .string("PARIS")
    /// ```
    public func value(forValue value: Value, variables: [String: Value] = [:]) throws(FormatPredicateError) -> Value {
        try EvaluationRoot.withRoot(value) { (root) throws(FormatPredicateError) -> Value in try evaluate(root: root, variables: variables) }
    }

    /// The expression's value on a root: the one non-generic entry every public one ends in.
    func evaluate(root: consuming EvaluationRoot, variables: [String: Value]) throws(FormatPredicateError) -> Value {
        try EvaluationContext.evaluate(root: root, variables: variables, maximumSteps: options.maximumEvaluationSteps, budget: options.budget, compute)
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
