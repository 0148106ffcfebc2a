import Foundation

/// The arithmetic of expressions: `+ - * / **` and unary minus.
///
/// As Apple's `NSExpression`, `+ - * /` on two integers (booleans count as 0 and 1) compute
/// in integers: `1 / 2` is 0 (the quotient truncated toward zero, as C's). An overflow gives a
/// double; a floating-point operand gives a double (`1.0 / 2` is 0.5); `**` always gives a double.
/// An integer division by zero is an evaluation error naming the expression. A missing value
/// (`nil`) in arithmetic is an evaluation error too, as Apple's `NSExpression` raises on it
/// (`12.845 * x + y == 14.845` with `x` missing raises; it is not false). A date plus seconds is
/// a date, a date minus a date is seconds. Anything else is `FormatPredicateError.evaluation`.
///
/// ```swift
/// try Arithmetic.apply(.add, .int(2), .int(3))          // .int(5)
/// try Arithmetic.apply(.divide, .int(3), .int(2))       // .int(1)
/// try Arithmetic.apply(.divide, .double(3), .int(2))    // .double(1.5)
/// try Arithmetic.apply(.add, .int(1), .null)            // throws: arithmetic on a missing value
/// ```
public enum Arithmetic {
    /// `left op right`.
    ///
    /// ```swift
    /// try Arithmetic.apply(.multiply, .int(4), .double(0.5))   // .double(2)
    /// ```
    public static func apply(_ operator: ArithmeticOperator, _ left: Value, _ right: Value) throws(FormatPredicateError) -> Value {
        try apply(`operator`, left, right, describing: { "\(left.formatLiteral) \(`operator`.symbol) \(right.formatLiteral)" })
    }

    /// `left op right`, where `expression` prints the expression being computed for an error.
    static func apply(
        _ operator: ArithmeticOperator, _ left: Value, _ right: Value, describing expression: () -> String
    ) throws(FormatPredicateError) -> Value {
        if left.isNull || right.isNull {
            throw missingValue(in: expression())
        }
        switch (left, right) {
        case (.date(let date), _) where right.isNumeric:
            guard let seconds = right.numericValue else { break }
            switch `operator` {
            case .add: return .date(date.addingTimeInterval(seconds))
            case .subtract: return .date(date.addingTimeInterval(-seconds))
            default: break
            }
        case (_, .date(let date)) where left.isNumeric && `operator` == .add:
            if let seconds = left.numericValue { return .date(date.addingTimeInterval(seconds)) }
        case (.date(let first), .date(let second)) where `operator` == .subtract:
            return .double(first.timeIntervalSince(second))
        default:
            break
        }
        guard let a = left.numericValue, let b = right.numericValue else {
            throw FormatPredicateError.evaluation(
                "cannot apply '\(`operator`.symbol)' to a \(left.typeName) (\(left)) and a \(right.typeName) (\(right))")
        }
        if let x = integer(left), let y = integer(right) {
            switch `operator` {
            case .add:
                let (result, overflow) = x.addingReportingOverflow(y)
                return overflow ? .double(a + b) : .int(result)
            case .subtract:
                let (result, overflow) = x.subtractingReportingOverflow(y)
                return overflow ? .double(a - b) : .int(result)
            case .multiply:
                let (result, overflow) = x.multipliedReportingOverflow(by: y)
                return overflow ? .double(a * b) : .int(result)
            case .divide:
                guard y != 0 else {
                    throw FormatPredicateError.evaluation("integer division by zero in \(expression())")
                }
                let (result, overflow) = x.dividedReportingOverflow(by: y)
                return overflow ? .double(a / b) : .int(result)
            case .power:
                break
            }
        }
        switch `operator` {
        case .add: return .double(a + b)
        case .subtract: return .double(a - b)
        case .multiply: return .double(a * b)
        case .divide: return .double(a / b)
        case .power: return .double(pow(a, b))
        }
    }

    /// `-value`.
    ///
    /// ```swift
    /// try Arithmetic.negate(.int(5))   // .int(-5)
    /// ```
    public static func negate(_ value: Value) throws(FormatPredicateError) -> Value {
        try negate(value, describing: { "-nil" })
    }

    /// `-value`, where `expression` prints the expression being computed for an error.
    static func negate(_ value: Value, describing expression: () -> String) throws(FormatPredicateError) -> Value {
        switch value {
        case .null: throw missingValue(in: expression())
        case .int(let x):
            return x == .min ? .double(-Double(x)) : .int(-x)
        case .bool(let flag): return .int(flag ? -1 : 0)
        case .double(let x): return .double(-x)
        default:
            throw FormatPredicateError.evaluation("cannot negate a \(value.typeName) (\(value))")
        }
    }

    /// The error of arithmetic that meets a missing value: Apple's `NSExpression` raises there.
    static func missingValue(in expression: String) -> FormatPredicateError {
        FormatPredicateError.evaluation("arithmetic on a missing value (nil) in \(expression)")
    }

    /// The integer of an `.int` or `.bool`.
    @inline(__always)
    static func integer(_ value: Value) -> Int64? {
        switch value {
        case .int(let x): x
        case .bool(let flag): flag ? 1 : 0
        default: nil
        }
    }
}
