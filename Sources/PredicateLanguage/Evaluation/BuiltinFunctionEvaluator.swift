import Foundation

/// The implementations of the functions in ``BuiltinFunction``.
///
/// Statistics take a list (a `nil` counts as empty, another value as a one-member
/// list) and skip null members; arithmetic follows ``Arithmetic`` (a missing value raises, in
/// `modulus:by:` too); bitwise
/// functions need integers; string functions give `nil` for `nil`.
///
/// ```swift
/// try BuiltinFunctionEvaluator.call("average:", [[1, 2, 4]], options: .init())   // .double(2.3333333333333335)
/// try BuiltinFunctionEvaluator.call("uppercase:", ["paris"], options: .init())   // .string("PARIS")
/// ```
public enum BuiltinFunctionEvaluator {
    /// Calls the built-in function `name` with evaluated arguments.
    ///
    /// ```swift
    /// try BuiltinFunctionEvaluator.call("abs:", [-3], options: .init())   // .int(3)
    /// ```
    public static func call(_ name: String, _ arguments: [Value], options: EvaluationOptions) throws(FormatPredicateError) -> Value {
        guard let function = BuiltinFunction.named(name) else {
            throw FormatPredicateError.evaluation("there is no built-in function named \(name)")
        }
        // Extra arguments are ignored, as Apple's functions ignore them; too few is an error.
        guard arguments.count >= function.arity else {
            throw FormatPredicateError.evaluation(
                "\(name) takes \(function.arity) argument\(function.arity == 1 ? "" : "s"), but was given \(arguments.count)")
        }
        let first = arguments.first ?? .null
        let second = arguments.count > 1 ? arguments[1] : .null
        switch name {
        case "sum:": return try Statistics.sum(CollectionOperator.members(of: first), context: name)
        case "count:": return .int(Int64(CollectionOperator.members(of: first).count))
        case "min:": return try Statistics.extreme(CollectionOperator.members(of: first), wantLargest: false, context: name)
        case "max:": return try Statistics.extreme(CollectionOperator.members(of: first), wantLargest: true, context: name)
        case "average:": return try Statistics.average(CollectionOperator.members(of: first), context: name)
        case "median:": return try Statistics.median(CollectionOperator.members(of: first), context: name)
        case "mode:": return Statistics.mode(CollectionOperator.members(of: first))
        case "stddev:": return try Statistics.standardDeviation(CollectionOperator.members(of: first), context: name)
        case "add:to:": return try Arithmetic.apply(.add, first, second)
        case "from:subtract:": return try Arithmetic.apply(.subtract, first, second)
        case "multiply:by:": return try Arithmetic.apply(.multiply, first, second)
        case "divide:by:":
            return try Arithmetic.apply(.divide, first, second, describing: { "divide:by:(\(first.formatLiteral), \(second.formatLiteral))" })
        case "raise:toPower:": return try Arithmetic.apply(.power, first, second)
        case "modulus:by:": return try modulus(first, second)
        case "sqrt:": return try real(name, first) { $0.squareRoot() }
        case "log:": return try real(name, first) { log10($0) }
        case "ln:": return try real(name, first) { log($0) }
        case "exp:": return try real(name, first) { exp($0) }
        case "ceiling:": return try rounded(name, first, .up)
        case "floor:": return try rounded(name, first, .down)
        case "trunc:": return try rounded(name, first, .towardZero)
        case "abs:": return try absolute(first)
        case "bitwiseAnd:with:": return .int(try integer(name, first) & integer(name, second))
        case "bitwiseOr:with:": return .int(try integer(name, first) | integer(name, second))
        case "bitwiseXor:with:": return .int(try integer(name, first) ^ integer(name, second))
        case "leftshift:by:": return .int(try integer(name, first) << integer(name, second))
        case "rightshift:by:": return .int(try integer(name, first) >> integer(name, second))
        case "onesComplement:": return .int(~(try integer(name, first)))
        case "lowercase:": return try text(name, first) { $0.lowercased() }
        case "uppercase:": return try text(name, first) { $0.uppercased() }
        case "now": return .date(options.now?() ?? Date())
        case "random": return .double(Double.random(in: 0..<1))
        case "random:":
            let upper = try integer(name, first)
            guard upper > 0 else {
                throw FormatPredicateError.evaluation("random: needs a positive upper bound, but was given \(upper)")
            }
            return .int(Int64.random(in: 0..<upper))
        case "noindex:": return first
        case "distanceToLocation:fromLocation:":
            guard case .location(let a) = first, case .location(let b) = second else { return .null }
            return .double(a.distance(to: b))
        case "tokenize:using:":
            switch first {
            case .null: return .null
            case .string(let text): return .list(FullTextTokenizer.tokens(text).map(Value.string))
            case .list(let members):
                return .list(members.compactMap(\.stringValue).flatMap(FullTextTokenizer.tokens).map(Value.string))
            default:
                throw FormatPredicateError.evaluation("tokenize:using: needs a string, but was given a \(first.typeName)")
            }
        default:
            throw FormatPredicateError.evaluation("the built-in function \(name) is not implemented")
        }
    }

    static func number(_ name: String, _ value: Value) throws(FormatPredicateError) -> Double? {
        if value.isNull { return nil }
        guard let number = value.numericValue else {
            throw FormatPredicateError.evaluation("\(name) needs a number, but was given a \(value.typeName)")
        }
        return number
    }

    static func real(_ name: String, _ value: Value, _ body: (Double) -> Double) throws(FormatPredicateError) -> Value {
        guard let number = try number(name, value) else { return .null }
        return .double(body(number))
    }

    /// Rounds a double; an integer stays as it is.
    static func rounded(_ name: String, _ value: Value, _ rule: FloatingPointRoundingRule) throws(FormatPredicateError) -> Value {
        if let integer = Arithmetic.integer(value) { return .int(integer) }
        guard let number = try number(name, value) else { return .null }
        return .double(number.rounded(rule))
    }

    static func absolute(_ value: Value) throws(FormatPredicateError) -> Value {
        switch value {
        case .int(let x): return x == .min ? .double(-Double(x)) : .int(Swift.abs(x))
        case .bool(let flag): return .int(flag ? 1 : 0)
        default:
            guard let number = try number("abs:", value) else { return .null }
            return .double(Swift.abs(number))
        }
    }

    static func modulus(_ left: Value, _ right: Value) throws(FormatPredicateError) -> Value {
        if left.isNull || right.isNull {
            throw Arithmetic.missingValue(in: "modulus:by:(\(left.formatLiteral), \(right.formatLiteral))")
        }
        if let a = Arithmetic.integer(left), let b = Arithmetic.integer(right) {
            guard b != 0 else { throw FormatPredicateError.evaluation("modulus:by: cannot divide \(a) by zero") }
            if b == -1 { return .int(0) }
            return .int(a % b)
        }
        guard let a = try number("modulus:by:", left), let b = try number("modulus:by:", right) else { return .null }
        return .double(fmod(a, b))
    }

    /// An integer argument: an integer, a boolean, or a double with no fraction.
    static func integer(_ name: String, _ value: Value) throws(FormatPredicateError) -> Int64 {
        switch value {
        case .int(let x): return x
        case .bool(let flag): return flag ? 1 : 0
        case .double(let x):
            if let exact = Int64(exactly: x) { return exact }
        default: break
        }
        throw FormatPredicateError.evaluation("\(name) needs integers, but was given a \(value.typeName) (\(value))")
    }

    static func text(_ name: String, _ value: Value, _ body: (String) -> String) throws(FormatPredicateError) -> Value {
        switch value {
        case .null: return .null
        case .string(let string): return .string(body(string))
        default: throw FormatPredicateError.evaluation("\(name) needs a string, but was given a \(value.typeName)")
        }
    }
}
