/// The functions a format string may call by name, as Apple's `NSExpression`
/// documents them: `now()`, `abs:(x)`, `distanceToLocation:fromLocation:(a, b)`, ...
///
/// The parser accepts exactly these names (case-sensitive, as selectors are) with
/// at least the arity given here (extra arguments are kept and printed, and ignored when evaluating, as
/// Apple's functions ignore them); the evaluator implements each of them.
///
/// ```swift
/// BuiltinFunction.named("abs:")?.arity   // 1
/// ```
public struct BuiltinFunction: Sendable, Hashable {
    /// The selector-style name: `now`, `abs:`, `raise:toPower:`.
    public let name: String
    /// How many arguments it takes.
    public let arity: Int
    /// A one-line summary for documentation and errors.
    public let summary: String

    /// The function with this name, or nil when there is none.
    public static func named(_ name: String) -> BuiltinFunction? {
        table[name]
    }

    /// Every built-in function, in documentation order.
    public static let all: [BuiltinFunction] = [
        // Statistics over a list argument.
        .init(name: "sum:", arity: 1, summary: "the sum of the numbers in a list"),
        .init(name: "count:", arity: 1, summary: "the number of members of a list"),
        .init(name: "min:", arity: 1, summary: "the smallest member of a list"),
        .init(name: "max:", arity: 1, summary: "the largest member of a list"),
        .init(name: "average:", arity: 1, summary: "the mean of the numbers in a list"),
        .init(name: "median:", arity: 1, summary: "the median of the numbers in a list"),
        .init(name: "mode:", arity: 1, summary: "the list of the most frequent members of a list"),
        .init(name: "stddev:", arity: 1, summary: "the population standard deviation of the numbers in a list"),
        // Arithmetic.
        .init(name: "add:to:", arity: 2, summary: "a + b"),
        .init(name: "from:subtract:", arity: 2, summary: "a - b"),
        .init(name: "multiply:by:", arity: 2, summary: "a * b"),
        .init(name: "divide:by:", arity: 2, summary: "a / b"),
        .init(name: "modulus:by:", arity: 2, summary: "the remainder of a / b"),
        .init(name: "raise:toPower:", arity: 2, summary: "a ** b"),
        .init(name: "sqrt:", arity: 1, summary: "the square root"),
        .init(name: "log:", arity: 1, summary: "the base-10 logarithm"),
        .init(name: "ln:", arity: 1, summary: "the natural logarithm"),
        .init(name: "exp:", arity: 1, summary: "e raised to the power"),
        .init(name: "ceiling:", arity: 1, summary: "the smallest integer not less than the number"),
        .init(name: "floor:", arity: 1, summary: "the largest integer not greater than the number"),
        .init(name: "trunc:", arity: 1, summary: "the number with its fraction removed"),
        .init(name: "abs:", arity: 1, summary: "the absolute value"),
        // Bits.
        .init(name: "bitwiseAnd:with:", arity: 2, summary: "a & b"),
        .init(name: "bitwiseOr:with:", arity: 2, summary: "a | b"),
        .init(name: "bitwiseXor:with:", arity: 2, summary: "a ^ b"),
        .init(name: "leftshift:by:", arity: 2, summary: "a << b"),
        .init(name: "rightshift:by:", arity: 2, summary: "a >> b"),
        .init(name: "onesComplement:", arity: 1, summary: "~a"),
        // Strings.
        .init(name: "lowercase:", arity: 1, summary: "the string in lower case"),
        .init(name: "uppercase:", arity: 1, summary: "the string in upper case"),
        // Dates and randomness.
        .init(name: "now", arity: 0, summary: "the current date"),
        .init(name: "random", arity: 0, summary: "a random number between 0 and 1"),
        .init(name: "random:", arity: 1, summary: "a random integer from 0 up to, not including, the argument"),
        // Misc.
        .init(name: "noindex:", arity: 1, summary: "the argument itself (a hint to a store to not use an index)"),
        // CloudKit.
        .init(name: "distanceToLocation:fromLocation:", arity: 2, summary: "the great-circle distance in meters between two locations"),
        .init(name: "tokenize:using:", arity: 2, summary: "the full-text tokens of a string (case- and diacritic-folded, stop words removed)"),
    ]

    private static let table: [String: BuiltinFunction] = Dictionary(
        all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
}
