/// Hands out format arguments, left to right, to the specifiers of a format string
/// as the parser meets them, checking each against its specifier.
struct ArgumentBinder {
    /// The arguments, in order.
    let values: [Value]
    /// How many arguments have been used.
    private(set) var used = 0

    init(values: [Value]) {
        self.values = values
    }

    /// The expression for the next argument, given to the specifier `text` (`%@`, `%K`, `%d`, ...).
    ///
    /// - `%@`: any value, as a constant (an array is a constant list); a null is
    ///   ``FormatExpression/nullValue`` (Apple's `NSNull`, printed `<null>`).
    /// - `%K`: a non-empty string, as a key path.
    /// - `%d` and the other integer specifiers: an integer or a boolean, as an integer constant.
    /// - `%f` and the other floating-point specifiers: a number, as a double constant.
    mutating func bind(_ specifier: FormatSpecifier, text: String) throws(FormatPredicateError) -> FormatExpression {
        let position = used + 1
        guard used < values.count else {
            throw FormatPredicateError.argument(
                position: position,
                message: "expected a value for the specifier \(text), but only \(ArgumentBinder.count(values.count)) \(values.count == 1 ? "was" : "were") given")
        }
        let value = values[used]
        used += 1
        switch specifier {
        case .object:
            return value.isNull ? .nullValue : .constant(value)
        case .keyPath:
            guard case .string(let key) = value, !key.isEmpty else {
                let given = value.stringValue != nil ? "an empty string" : ArgumentBinder.article(value)
                throw FormatPredicateError.argument(
                    position: position, message: "%K expects a non-empty string naming a key path, but \(given) was given")
            }
            return .keyPath(key)
        case .integer:
            switch value {
            case .int: return .constant(value)
            case .bool(let flag): return .constant(.int(flag ? 1 : 0))
            default:
                throw FormatPredicateError.argument(
                    position: position, message: "\(text) expects an integer, but \(ArgumentBinder.article(value)) was given")
            }
        case .floatingPoint:
            switch value {
            case .double: return .constant(value)
            case .int(let integer): return .constant(.double(Double(integer)))
            case .bool(let flag): return .constant(.double(flag ? 1 : 0))
            default:
                throw FormatPredicateError.argument(
                    position: position, message: "\(text) expects a number, but \(ArgumentBinder.article(value)) was given")
            }
        }
    }

    private static func count(_ number: Int) -> String {
        number == 1 ? "1 argument" : "\(number) arguments"
    }

    /// "a string", "an integer", "nil", ...
    private static func article(_ value: Value) -> String {
        switch value {
        case .null: "nil"
        case .int: "an integer"
        case .object: "an object"
        default: "a \(value.typeName)"
        }
    }
}
