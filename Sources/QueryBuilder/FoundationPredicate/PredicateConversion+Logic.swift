import Foundation
import PredicateLanguage

// The leaves and the logic of Foundation's predicate tree: variables, constants, key paths,
// `&&`, `||`, `!`, `==`, `!=`, `<`, `<=`, `>`, `>=`, and the conditional operator.

extension PredicateExpressions.Variable: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        guard let expression = conversion[key] else { throw .unsupportedExpression("a variable of no closure of the predicate") }
        return .expression(expression)
    }
}

extension PredicateExpressions.Value: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .expression(.constant(try PredicateConversion.constant(value)))
    }
}

extension PredicateExpressions.NilLiteral: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .expression(.constant(.null))
    }
}

extension PredicateExpressions.KeyPath: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        let base = try conversion.expression(root)
        if case .evaluatedObject = base {
            guard let field = conversion.field(keyPath) else {
                throw .unknownKeyPath(String(describing: keyPath), model: conversion.modelName)
            }
            return .expression(.keyPath(field))
        }
        // A property of a reference's target walks the relationship: `customer.name`.
        if let reference = Root.Output.self as? any WalkableReference.Type {
            guard let field = reference.relatedFieldName(for: keyPath) else {
                throw .unknownKeyPath(String(describing: keyPath), model: String(describing: Root.Output.self))
            }
            return .expression(PredicateConversion.member(base, field))
        }
        // A string's length is `length`, a collection's `@count`, as Apple converts them.
        let isString = Root.Output.self == String.self || Root.Output.self == Substring.self
            || Root.Output.self == String?.self
        switch kind {
        case .collectionCount?:
            return .expression(PredicateConversion.member(base, isString ? "length" : "@count"))
        case .collectionIsEmpty?:
            return .predicate(PredicateConversion.comparison(PredicateConversion.member(base, isString ? "length" : "@count"), .equalTo, .constant(.int(0))))
        case .collectionFirst?:
            return .expression(.index(base, .first))
        case .bidirectionalCollectionLast?:
            return .expression(.index(base, .last))
        case nil:
            throw .unsupportedKeyPath(String(describing: keyPath))
        }
    }
}

extension PredicateExpressions.Conjunction: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .predicate(.and([try conversion.predicate(lhs), try conversion.predicate(rhs)]))
    }
}

extension PredicateExpressions.Disjunction: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .predicate(.or([try conversion.predicate(lhs), try conversion.predicate(rhs)]))
    }
}

extension PredicateExpressions.Negation: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .predicate(.not(try conversion.predicate(wrapped)))
    }
}

extension PredicateExpressions.Equal: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .predicate(PredicateConversion.comparison(try conversion.expression(lhs), .equalTo, try conversion.expression(rhs)))
    }
}

extension PredicateExpressions.NotEqual: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .predicate(PredicateConversion.comparison(try conversion.expression(lhs), .notEqualTo, try conversion.expression(rhs)))
    }
}

extension PredicateExpressions.Comparison: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        let comparison: ComparisonOperator = switch op {
        case .lessThan: .lessThan
        case .lessThanOrEqual: .lessThanOrEqualTo
        case .greaterThan: .greaterThan
        case .greaterThanOrEqual: .greaterThanOrEqualTo
        }
        return .predicate(PredicateConversion.comparison(try conversion.expression(lhs), comparison, try conversion.expression(rhs)))
    }
}

extension PredicateExpressions.Conditional: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .expression(.ternary(try conversion.predicate(test), try conversion.expression(trueBranch), try conversion.expression(falseBranch)))
    }
}
