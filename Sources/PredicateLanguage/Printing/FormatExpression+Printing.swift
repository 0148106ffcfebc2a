/// Canonical printing of expressions, in the style of Apple's `NSExpression.description`.
extension FormatExpression: CustomStringConvertible {
    /// The expression in canonical format-string form.
    ///
    /// Arithmetic prints infix with single spaces, and, as Apple's `predicateFormat`, an
    /// arithmetic operand of arithmetic in parentheses: `a + (b * c)`, `(a + b) + c`.
    ///
    /// ```swift
    /// FormatExpression.arithmetic(.multiply, .arithmetic(.add, .keyPath("a"), .keyPath("b")), .constant(2))
    ///     .expressionFormat   // (a + b) * 2
    /// FormatExpression.function("abs:", [.keyPath("x")]).expressionFormat   // abs:(x)
    /// ```
    public var expressionFormat: String {
        switch self {
        case .constant(let value):
            return value.formatLiteral
        case .evaluatedObject:
            return "SELF"
        case .variable(let name):
            return "$\(name)"
        case .keyPath(let path):
            return KeyPathFormatting.escaped(path)
        case .member(let base, let path):
            return "\(base.postfixBaseFormat).\(KeyPathFormatting.escaped(path))"
        case .index(let base, let subscriptValue):
            return "\(base.postfixBaseFormat)[\(subscriptValue.subscriptFormat)]"
        case .aggregate(let members):
            return "{\(members.map(\.expressionFormat).joined(separator: ", "))}"
        case .function(let name, let arguments):
            if let (bitwiseOperator, left, right) = bitwiseOperation {
                let leftText = left.bitwiseOperandFormat(parent: bitwiseOperator, isLeft: true)
                let rightText = right.bitwiseOperandFormat(parent: bitwiseOperator, isLeft: false)
                return "\(leftText) \(bitwiseOperator.symbol) \(rightText)"
            }
            return "\(name)(\(arguments.map(\.expressionFormat).joined(separator: ", ")))"
        case .customFunction(let target, let name, let arguments):
            // Apple prints a space before the comma after the selector: FUNCTION(a, "pow:" , 3).
            let head = "FUNCTION(\(target.expressionFormat), \(ValueFormatting.quoted(name))"
            if arguments.isEmpty { return head + ")" }
            return "\(head) , \(arguments.map(\.expressionFormat).joined(separator: ", ")))"
        case .cast(.constant(.null), let typeName) where typeName == FormatExpression.nullValueTypeName:
            return "<null>"
        case .arithmetic(let arithmeticOperator, let left, let right):
            let leftText = left.arithmeticOperandFormat(parent: arithmeticOperator, isLeft: true)
            let rightText = right.arithmeticOperandFormat(parent: arithmeticOperator, isLeft: false)
            return "\(leftText) \(arithmeticOperator.symbol) \(rightText)"
        case .negation(let operand):
            return operand.needsParenthesesUnderNegation ? "-(\(operand.expressionFormat))" : "-\(operand.expressionFormat)"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(collection.expressionFormat), $\(variable), \(predicate.predicateFormat))"
        case .ternary(let predicate, let whenTrue, let whenFalse):
            return "TERNARY(\(predicate.predicateFormat), \(whenTrue.expressionFormat), \(whenFalse.expressionFormat))"
        case .cast(let operand, let typeName):
            return "CAST(\(operand.expressionFormat), \(ValueFormatting.quoted(typeName)))"
        }
    }

    /// The same as ``expressionFormat``.
    ///
    /// ```swift
    /// print(FormatExpression.variable("NAME"))   // $NAME
    /// ```
    public var description: String { expressionFormat }

    /// Whether this is a constant number printed with a leading minus sign.
    private var isNegativeNumberConstant: Bool {
        guard case .constant(let value) = self else { return false }
        switch value {
        case .int(let number): return number < 0
        case .double(let number): return number < 0 && number.isFinite
        default: return false
        }
    }

    /// Whether this prints with a leading unary minus (a negation or a negative number).
    private var printsWithLeadingMinus: Bool {
        if case .negation = self { return true }
        return isNegativeNumberConstant
    }

    /// The expression in front of `.path` or `[index]`: parenthesized when it is
    /// arithmetic or starts with a unary minus, since postfix binds tighter, and when it
    /// is a number constant.
    private var postfixBaseFormat: String {
        if bitwiseOperation != nil { return "(\(expressionFormat))" }
        switch self {
        case .arithmetic: return "(\(expressionFormat))"
        // A bare number before `.key` would read as a decimal point: `(1).key`.
        default: return printsWithLeadingMinus || printsAsNumberLiteral ? "(\(expressionFormat))" : expressionFormat
        }
    }

    /// Whether `-x` must print as `-(x)`: arithmetic of lower precedence than the minus
    /// (`-(a + b)`) and a number constant (`-5` would read back as the constant -5, not a
    /// negation). Not a power (`-a ** 2` reads back as `-(a ** 2)`) nor anything that already starts
    /// with a minus (`--a`, `--3`): parentheses would add a level of nesting per minus, so the
    /// printed form of deeply nested input could pass the parser's nesting limit.
    private var needsParenthesesUnderNegation: Bool {
        if case .arithmetic(let arithmeticOperator, _, _) = self { return arithmeticOperator != .power }
        if bitwiseOperation != nil { return true }
        return printsAsNumberLiteral
    }

    /// Whether this is a constant printed as a bare number (`5`, `0.5`, `1` for true): a minus
    /// written right before it would fold into the constant, so a negation of it prints `-(5)`.
    private var printsAsNumberLiteral: Bool {
        guard case .constant(let value) = self, let first = value.formatLiteral.utf8.first else { return false }
        return first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")
    }

    /// The expression as an operand of a binary arithmetic operator.
    ///
    /// As Apple's `predicateFormat` prints it, an operand that is itself arithmetic is always
    /// parenthesized (`(a + b) + c`, `a + (b * c)`). A left operand of `**` that starts with a
    /// unary minus is parenthesized too (`(-a) ** 2`), as `-a ** 2` is ambiguous.
    private func arithmeticOperandFormat(parent: ArithmeticOperator, isLeft: Bool) -> String {
        if bitwiseOperation != nil { return "(\(expressionFormat))" }
        if case .arithmetic = self { return "(\(expressionFormat))" }
        if parent == .power, isLeft, printsWithLeadingMinus {
            return "(\(expressionFormat))"
        }
        return expressionFormat
    }
}

extension FormatExpression {
    /// The expression as an operand of a bitwise operator: parenthesized when it is arithmetic,
    /// another bitwise operator, the right operand of the same one (they are left-associative),
    /// or starts with a unary minus. The printed text then reads the same whatever the relative
    /// precedence of these operators.
    fileprivate func bitwiseOperandFormat(parent: BitwiseOperator, isLeft: Bool) -> String {
        if let (child, _, _) = bitwiseOperation {
            let needsParentheses = child != parent || !isLeft
            return needsParentheses ? "(\(expressionFormat))" : expressionFormat
        }
        switch self {
        case .arithmetic, .negation: return "(\(expressionFormat))"
        default: break
        }
        if case .constant(let value) = self, value.formatLiteral.utf8.first == UInt8(ascii: "-") {
            return "(\(expressionFormat))"
        }
        return expressionFormat
    }
}

extension IndexSubscript {
    /// The subscript between the brackets: `0`, `FIRST`, `LAST`, `SIZE`, `"key"`.
    var subscriptFormat: String {
        switch self {
        case .expression(let expression): expression.expressionFormat
        case .first: "FIRST"
        case .last: "LAST"
        case .size: "SIZE"
        }
    }
}
