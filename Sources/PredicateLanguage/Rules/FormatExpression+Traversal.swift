/// Traversal helpers the rule checkers share.
extension FormatExpression {
    /// Whether this is a constant or a `$VARIABLE`: a value fixed before the predicate runs.
    var isConstantOrVariable: Bool {
        switch self {
        case .constant, .variable: true
        default: isNullValue
        }
    }

    /// The direct subexpressions, in reading order (embedded predicates excluded).
    var childExpressions: [FormatExpression] {
        switch self {
        case .constant, .evaluatedObject, .variable, .keyPath:
            return []
        case .member(let base, _):
            return [base]
        case .index(let base, let subscriptValue):
            if case .expression(let key) = subscriptValue { return [base, key] }
            return [base]
        case .aggregate(let members):
            return members
        case .function(_, let arguments):
            return arguments
        case .customFunction(let target, _, let arguments):
            return [target] + arguments
        case .arithmetic(_, let left, let right):
            return [left, right]
        case .negation(let operand):
            return [operand]
        case .subquery(let collection, _, _):
            return [collection]
        case .ternary(_, let whenTrue, let whenFalse):
            return [whenTrue, whenFalse]
        case .cast(let operand, _):
            return [operand]
        }
    }

    /// How many nodes of this expression tree (embedded predicates excluded) satisfy the test.
    func count(where test: (FormatExpression) -> Bool) -> Int {
        childExpressions.reduce(test(self) ? 1 : 0) { $0 + $1.count(where: test) }
    }

    /// Whether this is a call of the built-in function with this name.
    func isCall(of functionName: String) -> Bool {
        if case .function(let name, _) = self { return name == functionName }
        return false
    }
}
