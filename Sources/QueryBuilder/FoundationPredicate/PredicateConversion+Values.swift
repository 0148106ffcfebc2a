import Foundation
import PredicateLanguage

// Arithmetic, optionals and subscripts of Foundation's predicate tree.

extension PredicateExpressions.Arithmetic: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        let arithmetic: ArithmeticOperator = switch op {
        case .add: .add
        case .subtract: .subtract
        case .multiply: .multiply
        }
        return .expression(.arithmetic(arithmetic, try conversion.expression(lhs), try conversion.expression(rhs)))
    }
}

extension PredicateExpressions.FloatDivision: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .expression(.arithmetic(.divide, try conversion.expression(lhs), try conversion.expression(rhs)))
    }
}

extension PredicateExpressions.UnaryMinus: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .expression(.arithmetic(.multiply, try conversion.expression(wrapped), .constant(.int(-1))))
    }
}

extension PredicateExpressions.NilCoalesce: FormatConvertibleExpression {
    /// `a ?? b` is `TERNARY(a != nil, a, b)`.
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        let value = try conversion.expression(lhs)
        let fallback = try conversion.expression(rhs)
        return .expression(.ternary(PredicateConversion.comparison(value, .notEqualTo, .constant(.null)), value, fallback))
    }
}

extension PredicateExpressions.OptionalFlatMap: FormatConvertibleExpression {
    /// `a.flatMap { f($0) }` (and `a?.f`) is `TERNARY(a != nil, f(a), nil)`, as Apple converts it.
    /// Through an optional reference (`$0.customer?.name`) it is the walked key path alone,
    /// `customer.name`: a key path through a nil relationship reads nil, so the two are the same
    /// condition, and the key path is what the store plans in SQL.
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        let value = try conversion.expression(wrapped)
        conversion[variable.key] = value
        let transformed = try conversion.expression(transform)
        if case .keyPath(let reference) = value, case .keyPath(let walked) = transformed, walked.hasPrefix(reference + "."),
           LHS.Output.self is any OptionalWalkableReference.Type {
            return .expression(transformed)
        }
        return .expression(.ternary(PredicateConversion.comparison(value, .notEqualTo, .constant(.null)), transformed, .constant(.null)))
    }
}

extension PredicateExpressions.ForcedUnwrap: FormatConvertibleExpression {
    /// `a!` reads `a`: a stored nil then compares as nil (no record traps a query).
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .expression(try conversion.expression(inner))
    }
}

extension PredicateExpressions.CollectionIndexSubscript: FormatConvertibleExpression {
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .expression(.index(try conversion.expression(wrapped), .expression(try conversion.expression(index))))
    }
}

extension PredicateExpressions.IntDivision: FormatConvertibleExpression {
    /// `a / b` on integers truncates, as Swift does: `trunc:(a / b)` (`/` alone divides exactly).
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .expression(.function("trunc:", [.arithmetic(.divide, try conversion.expression(lhs), try conversion.expression(rhs))]))
    }
}

extension PredicateExpressions.IntRemainder: FormatConvertibleExpression {
    /// `a % b` is `modulus:by:(a, b)`: the remainder with the dividend's sign, as Swift's.
    func convert(_ conversion: inout PredicateConversion) throws(PredicateConversionError) -> PredicateConversion.Part {
        .expression(.function("modulus:by:", [try conversion.expression(lhs), try conversion.expression(rhs)]))
    }
}
