import PredicateLanguage

/// One comparison of a field with a value: the inequality wrappers of the dictionary forms and
/// the string tests of the key path and attribute forms.
///
/// ```swift
/// try Item.query(in: context).where([.quantity: lt(5)])                 // quantity < 5
/// try Item.query(in: context).where(\.name, .beginsWith("A"))          // name BEGINSWITH "A"
/// try Item.query(in: context).where(.name, .contains("pp", .caseInsensitive))  // name CONTAINS[c] "pp"
/// ```
public struct FieldComparison: AttributeCondition, Sendable, Hashable {
    /// The operator.
    public var `operator`: ComparisonOperator
    /// The value compared with.
    public var value: Value
    /// The string options (`[c]`, `[d]`, ...).
    public var options: ComparisonOptions

    /// Creates a comparison.
    ///
    /// ```swift
    /// FieldComparison(.like, "A*", options: .caseInsensitive)
    /// ```
    public init(_ operator: ComparisonOperator, _ value: Value, options: ComparisonOptions = []) {
        self.operator = `operator`
        self.value = value
        self.options = options
    }

    /// `field <op> value`; an `==` without options is a plain equality.
    ///
    /// ```swift
    /// gt(2).fieldCondition(for: "quantity").predicate.predicateFormat   // quantity > 2
    /// ```
    public func fieldCondition(for field: String) -> FieldCondition {
        if self.operator == .equalTo, options.isEmpty { return .equality(field, value) }
        return .comparing(field, self.operator, value, options: options)
    }
}

extension AttributeCondition where Self == FieldComparison {
    /// `field == value` (a plain equality).
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.name, .equalTo("Apple"))
    /// ```
    public static func equalTo(_ value: some FormatArgument) -> FieldComparison { FieldComparison(.equalTo, value.formatArgumentValue) }
    /// `field != value`.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.quantity, .notEqualTo(0))
    /// ```
    public static func notEqualTo(_ value: some FormatArgument) -> FieldComparison { FieldComparison(.notEqualTo, value.formatArgumentValue) }
    /// `field < value`.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.quantity, .lessThan(3))
    /// ```
    public static func lessThan(_ value: some FormatArgument) -> FieldComparison { FieldComparison(.lessThan, value.formatArgumentValue) }
    /// `field <= value`.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.quantity, .lessThanOrEqualTo(3))
    /// ```
    public static func lessThanOrEqualTo(_ value: some FormatArgument) -> FieldComparison { FieldComparison(.lessThanOrEqualTo, value.formatArgumentValue) }
    /// `field > value`.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.quantity, .greaterThan(3))
    /// ```
    public static func greaterThan(_ value: some FormatArgument) -> FieldComparison { FieldComparison(.greaterThan, value.formatArgumentValue) }
    /// `field >= value`.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.quantity, .greaterThanOrEqualTo(3))
    /// ```
    public static func greaterThanOrEqualTo(_ value: some FormatArgument) -> FieldComparison { FieldComparison(.greaterThanOrEqualTo, value.formatArgumentValue) }
    /// `field BEGINSWITH prefix`, with options such as `.caseInsensitive`.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.name, .beginsWith("A"))
    /// ```
    public static func beginsWith(_ prefix: String, _ options: ComparisonOptions = []) -> FieldComparison { FieldComparison(.beginsWith, .string(prefix), options: options) }
    /// `field ENDSWITH suffix`.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.name, .endsWith("le"))
    /// ```
    public static func endsWith(_ suffix: String, _ options: ComparisonOptions = []) -> FieldComparison { FieldComparison(.endsWith, .string(suffix), options: options) }
    /// `field CONTAINS value`: a substring of a string field, or a member of a list field.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.name, .contains("pp", .caseInsensitive))
    /// ```
    public static func contains(_ value: some FormatArgument, _ options: ComparisonOptions = []) -> FieldComparison { FieldComparison(.contains, value.formatArgumentValue, options: options) }
    /// `field LIKE pattern` (`*` and `?` wildcards).
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.name, .like("A*e"))
    /// ```
    public static func like(_ pattern: String, _ options: ComparisonOptions = []) -> FieldComparison { FieldComparison(.like, .string(pattern), options: options) }
    /// `field MATCHES regex` (the whole string).
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.name, .matches("[A-Z].*"))
    /// ```
    public static func matches(_ regularExpression: String, _ options: ComparisonOptions = []) -> FieldComparison { FieldComparison(.matches, .string(regularExpression), options: options) }
    /// `field IN {values}`.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.quantity, .in([1, 2]))
    /// ```
    public static func `in`<Element: FormatArgument>(_ values: [Element]) -> FieldComparison { FieldComparison(.in, values.formatArgumentValue) }
    /// `field BETWEEN {lower, upper}`.
    ///
    /// ```swift
    /// try Item.query(in: context).where(\.quantity, .between(1, 3))
    /// ```
    public static func between<Bound: FormatArgument>(_ lower: Bound, _ upper: Bound) -> FieldComparison {
        FieldComparison(.between, .list([lower.formatArgumentValue, upper.formatArgumentValue]))
    }
}

/// `field < value`, for the dictionary forms.
///
/// ```swift
/// try Item.query(in: context).where([.quantity: lt(1)])   // quantity < 1
/// ```
public func lt(_ value: some FormatArgument) -> FieldComparison { FieldComparison(.lessThan, value.formatArgumentValue) }

/// `field <= value`, for the dictionary forms.
///
/// ```swift
/// try Item.query(in: context).where([.quantity: lte(1)])   // quantity <= 1
/// ```
public func lte(_ value: some FormatArgument) -> FieldComparison { FieldComparison(.lessThanOrEqualTo, value.formatArgumentValue) }

/// `field > value`, for the dictionary forms.
///
/// ```swift
/// try Item.query(in: context).where([.quantity: gt(1)])   // quantity > 1
/// ```
public func gt(_ value: some FormatArgument) -> FieldComparison { FieldComparison(.greaterThan, value.formatArgumentValue) }

/// `field >= value`, for the dictionary forms.
///
/// ```swift
/// try Item.query(in: context).where([.quantity: gte(1)])   // quantity >= 1
/// ```
public func gte(_ value: some FormatArgument) -> FieldComparison { FieldComparison(.greaterThanOrEqualTo, value.formatArgumentValue) }

/// `field != value`, for the dictionary forms.
///
/// ```swift
/// try Item.query(in: context).where([.quantity: ne(1)])   // quantity != 1
/// ```
public func ne(_ value: some FormatArgument) -> FieldComparison { FieldComparison(.notEqualTo, value.formatArgumentValue) }
