/// A null that arrives as a value, kept apart from the literal `nil`.
///
/// On Apple platforms a `%@` argument that is null, or a `$VARIABLE` substituted with a null
/// (JSON null), is an `NSNull` object, and prints as `<null>`; the literal `nil` or `NULL`
/// written in a format prints as `nil`. Both evaluate to null. The syntax tree keeps the
/// difference: the literal is `.constant(.null)`, the value is ``FormatExpression/nullValue``,
/// `CAST(nil, "NSNull")` in the tree, which prints as `<null>`.
///
/// Apple's parser does not read `<null>` (its printed form cannot be parsed back there); this
/// parser reads `<null>` as ``FormatExpression/nullValue``, so that printing then parsing gives
/// an equal tree here (stored cursors hold the printed predicate).
///
/// ```swift
/// try FormatPredicate(format: "a == %@", argumentArray: [.null]).predicateFormat   // a == <null>
/// try FormatPredicate(format: "a == nil").predicateFormat                          // a == nil
/// ```
extension FormatExpression {
    /// A null that arrived as a value (Apple's `NSNull`): prints as `<null>`, evaluates to null.
    public static let nullValue = FormatExpression.cast(.constant(.null), nullValueTypeName)

    /// The cast type that marks ``nullValue``.
    static let nullValueTypeName = "NSNull"

    /// Whether this is ``nullValue``.
    ///
    /// ```swift
    /// FormatExpression.nullValue.isNullValue        // true
    /// FormatExpression.constant(.null).isNullValue  // false
    /// ```
    public var isNullValue: Bool {
        if case .cast(.constant(.null), let typeName) = self { return typeName == Self.nullValueTypeName }
        return false
    }

    /// The value of a constant or of ``nullValue``; nil for any other expression.
    ///
    /// ```swift
    /// FormatExpression.nullValue.constantValue   // .null
    /// FormatExpression.constant(3).constantValue // .int(3)
    /// ```
    public var constantValue: Value? {
        switch self {
        case .constant(let value): return value
        case .cast(.constant(.null), let typeName) where typeName == Self.nullValueTypeName: return .null
        default: return nil
        }
    }
}
