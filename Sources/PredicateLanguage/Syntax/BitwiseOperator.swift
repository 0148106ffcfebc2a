/// The bitwise operators of the format language: `&`, `|`, `^` (exclusive or, not a power),
/// `<<` and `>>`, on integers.
///
/// As in Apple's parser, each operator is a spelling of a built-in function: `a & b` parses
/// to `.function("bitwiseAnd:with:", [a, b])`, and that call prints infix as `a & b`.
/// They bind looser than arithmetic and tighter than comparisons, in C's order
/// (`|` loosest, then `^`, then `&`, then `<<` and `>>`): `flags & 1 << 2 == 4` is
/// `(flags & (1 << 2)) == 4`. When printing, an operand that is itself arithmetic or another
/// bitwise operator is always parenthesized, so the printed text reads the same under any
/// relative precedence of these operators.
///
/// ```swift
/// BitwiseOperator(functionName: "bitwiseXor:with:")?.symbol   // "^"
/// ```
public enum BitwiseOperator: String, Sendable, Hashable, CaseIterable {
    /// `a | b`: `bitwiseOr:with:`.
    case or = "bitwiseOr:with:"
    /// `a ^ b`: `bitwiseXor:with:`.
    case exclusiveOr = "bitwiseXor:with:"
    /// `a & b`: `bitwiseAnd:with:`.
    case and = "bitwiseAnd:with:"
    /// `a << b`: `leftshift:by:`.
    case leftShift = "leftshift:by:"
    /// `a >> b`: `rightshift:by:`.
    case rightShift = "rightshift:by:"

    /// The operators by binding level, loosest first.
    static let levels: [[BitwiseOperator]] = [[.or], [.exclusiveOr], [.and], [.leftShift, .rightShift]]

    /// The operator of a built-in function name, or nil.
    ///
    /// ```swift
    /// BitwiseOperator(functionName: "leftshift:by:")   // .leftShift
    /// ```
    public init?(functionName: String) {
        self.init(rawValue: functionName)
    }

    /// The built-in function the operator spells.
    public var functionName: String { rawValue }

    /// The operator as it prints: `&`, `|`, `^`, `<<`, `>>`.
    public var symbol: String {
        switch self {
        case .or: "|"
        case .exclusiveOr: "^"
        case .and: "&"
        case .leftShift: "<<"
        case .rightShift: ">>"
        }
    }

    /// The binding level, 0 for the loosest (`|`).
    var level: Int {
        switch self {
        case .or: 0
        case .exclusiveOr: 1
        case .and: 2
        case .leftShift, .rightShift: 3
        }
    }
}

extension FormatExpression {
    /// The bitwise operator and its two operands, when this is a two-argument call of a bitwise
    /// built-in function (`a & b`).
    ///
    /// ```swift
    /// try FormatExpression(format: "flags & 3").bitwiseOperation?.operator   // .and
    /// ```
    public var bitwiseOperation: (operator: BitwiseOperator, left: FormatExpression, right: FormatExpression)? {
        guard case .function(let name, let arguments) = self, arguments.count == 2,
            let bitwiseOperator = BitwiseOperator(functionName: name)
        else { return nil }
        return (bitwiseOperator, arguments[0], arguments[1])
    }
}
