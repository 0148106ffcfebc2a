/// Searching a predicate or expression tree for an expression.
extension FormatPredicate {
    /// Whether any expression in the predicate, at any depth (inside functions, subqueries,
    /// ternaries, casts and aggregates), satisfies `condition`.
    ///
    /// ```swift
    /// let predicate = try FormatPredicate(format: "date < now() AND name == 'Paris'")
    /// predicate.containsExpression { if case .function("now", _) = $0 { true } else { false } }   // true
    /// ```
    public func containsExpression(where condition: (FormatExpression) -> Bool) -> Bool {
        switch self {
        case .constant:
            return false
        case .comparison(let comparison):
            return comparison.left.containsExpression(where: condition) || comparison.right.containsExpression(where: condition)
        case .and(let members), .or(let members):
            return members.contains { $0.containsExpression(where: condition) }
        case .not(let inner):
            return inner.containsExpression(where: condition)
        }
    }

    /// Whether the predicate can give different answers for the same record at different times:
    /// it calls `now()`, `random()`, `random:` or a `FUNCTION` whose behaviour the language
    /// cannot know.
    ///
    /// ```swift
    /// try FormatPredicate(format: "date < now()").isTimeDependent         // true
    /// try FormatPredicate(format: "population > 1000").isTimeDependent    // false
    /// ```
    public var isTimeDependent: Bool {
        containsExpression { expression in
            switch expression {
            case .function(let name, _): name == "now" || name == "random" || name == "random:"
            case .customFunction: true
            default: false
            }
        }
    }
}

extension FormatExpression {
    /// Whether this expression, or any expression inside it, satisfies `condition`.
    ///
    /// ```swift
    /// try FormatExpression(format: "abs:(x) + 1").containsExpression { $0 == .keyPath("x") }   // true
    /// ```
    public func containsExpression(where condition: (FormatExpression) -> Bool) -> Bool {
        if condition(self) { return true }
        switch self {
        case .constant, .evaluatedObject, .variable, .keyPath:
            return false
        case .member(let base, _), .negation(let base), .cast(let base, _):
            return base.containsExpression(where: condition)
        case .index(let base, let indexSubscript):
            if base.containsExpression(where: condition) { return true }
            if case .expression(let inner) = indexSubscript { return inner.containsExpression(where: condition) }
            return false
        case .aggregate(let members), .function(_, let members):
            return members.contains { $0.containsExpression(where: condition) }
        case .customFunction(let target, _, let arguments):
            return target.containsExpression(where: condition) || arguments.contains { $0.containsExpression(where: condition) }
        case .arithmetic(_, let left, let right):
            return left.containsExpression(where: condition) || right.containsExpression(where: condition)
        case .subquery(let collection, _, let predicate):
            return collection.containsExpression(where: condition) || predicate.containsExpression(where: condition)
        case .ternary(let test, let whenTrue, let whenFalse):
            return test.containsExpression(where: condition)
                || whenTrue.containsExpression(where: condition) || whenFalse.containsExpression(where: condition)
        }
    }
}

extension FormatExpression {
    /// The built-in functions that compute arithmetic, and so raise on a missing value as the
    /// operators do: `add:to:`, `modulus:by:`, the bitwise functions, ...
    static let arithmeticFunctionNames: Set<String> = [
        "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "raise:toPower:", "modulus:by:",
        "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:", "onesComplement:",
    ]

    /// Whether the expression, at any depth, computes arithmetic (`+ - * / **`, unary minus, or a
    /// function such as `multiply:by:` and the bitwise ones) on a value it reads from the object
    /// (a key path, `SELF`, a variable): evaluating it raises when that value is missing, as
    /// Apple's `NSExpression` raises. Arithmetic on constants alone never reads a missing value.
    ///
    /// ```swift
    /// try FormatExpression(format: "12.845 * x + y").computesArithmeticOnValues   // true
    /// try FormatExpression(format: "x").computesArithmeticOnValues                // false
    /// try FormatExpression(format: "2 * 3").computesArithmeticOnValues            // false
    /// ```
    public var computesArithmeticOnValues: Bool {
        containsExpression { expression in
            switch expression {
            case .arithmetic, .negation: expression.readsValues
            case .function(let name, _): Self.arithmeticFunctionNames.contains(name) && expression.readsValues
            default: false
            }
        }
    }

    /// Whether the expression reads anything of the object it is evaluated on.
    var readsValues: Bool {
        containsExpression { expression in
            switch expression {
            case .keyPath, .evaluatedObject, .variable: true
            default: false
            }
        }
    }
}
