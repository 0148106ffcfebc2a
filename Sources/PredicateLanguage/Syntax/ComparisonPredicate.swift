/// A comparison of two expressions: the counterpart of `NSComparisonPredicate`.
///
/// ```swift
/// // name BEGINSWITH[cd] "sa"
/// let comparison = ComparisonPredicate(
///     .keyPath("name"), .beginsWith, .constant("sa"),
///     options: [.caseInsensitive, .diacriticInsensitive])
/// ```
public struct ComparisonPredicate: Sendable, Hashable {
    /// The left-hand expression.
    public var left: FormatExpression
    /// The operator.
    public var `operator`: ComparisonOperator
    /// The right-hand expression.
    public var right: FormatExpression
    /// `ANY` or `ALL` in front of the comparison, or `.direct` for none.
    /// (`SOME` parses as `.any`; `NONE` parses as `NOT ANY`.)
    public var modifier: ComparisonModifier
    /// The `[c]`, `[d]`, `[n]`, `[l]` options.
    public var options: ComparisonOptions

    /// Creates a comparison.
    public init(
        _ left: FormatExpression,
        _ operator: ComparisonOperator,
        _ right: FormatExpression,
        modifier: ComparisonModifier = .direct,
        options: ComparisonOptions = []
    ) {
        self.left = left
        self.operator = `operator`
        self.right = right
        self.modifier = modifier
        self.options = options
    }
}

/// The operator of a comparison.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    /// `<`
    case lessThan
    /// `<=`, `=<`
    case lessThanOrEqualTo
    /// `>`
    case greaterThan
    /// `>=`, `=>`
    case greaterThanOrEqualTo
    /// `=`, `==`
    case equalTo
    /// `!=`, `<>`
    case notEqualTo
    /// `MATCHES`: the whole string matches a regular expression.
    case matches
    /// `LIKE`: the whole string matches a pattern with `*` and `?` wildcards.
    case like
    /// `BEGINSWITH`
    case beginsWith
    /// `ENDSWITH`
    case endsWith
    /// `IN`: the left side is a member of the right-hand collection, or a substring of the right-hand string.
    case `in`
    /// `CONTAINS`: the left-hand collection holds the right side, or the left-hand string contains it.
    case contains
    /// `BETWEEN`: lower bound <= left <= upper bound, with the bounds as a two-element aggregate.
    case between
    /// `UTI-CONFORMS-TO`: the uniform type identifier on the left conforms to the one on the right
    /// (``UniformTypeHierarchy``). Apple's operator since macOS 10.15 and iOS 13.
    case conformsTo
    /// `UTI-EQUALS`: the two uniform type identifiers are the same type (compared without regard to case).
    case typeEquals

    /// The operator as it prints in canonical form (`==`, `BEGINSWITH`, ...).
    public var symbol: String {
        switch self {
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        case .equalTo: "=="
        case .notEqualTo: "!="
        case .matches: "MATCHES"
        case .like: "LIKE"
        case .beginsWith: "BEGINSWITH"
        case .endsWith: "ENDSWITH"
        case .in: "IN"
        case .contains: "CONTAINS"
        case .between: "BETWEEN"
        case .conformsTo: "UTI-CONFORMS-TO"
        case .typeEquals: "UTI-EQUALS"
        }
    }
}

/// The aggregate qualifier in front of a comparison.
public enum ComparisonModifier: String, Sendable, Hashable, CaseIterable {
    /// No qualifier: the comparison applies to the values as they are.
    case direct
    /// `ANY` (or `SOME`): true when the comparison holds for at least one member of the left-hand collection.
    case any
    /// `ALL`: true when the comparison holds for every member of the left-hand collection (true when empty).
    case all
}

/// The options of a string comparison: `[c]`, `[d]`, `[n]`, `[l]`.
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `[c]`: case-insensitive.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1 << 0)
    /// `[d]`: diacritic-insensitive.
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 1 << 1)
    /// `[n]`: the strings are already normalized; compare them as they are.
    public static let normalized = ComparisonOptions(rawValue: 1 << 2)
    /// `[l]`: locale-sensitive comparison.
    public static let localeSensitive = ComparisonOptions(rawValue: 1 << 3)

    /// The options as they print: `[cd]`, `[n]`, or the empty string.
    public var formatSuffix: String {
        if isEmpty { return "" }
        var letters = ""
        if contains(.caseInsensitive) { letters += "c" }
        if contains(.diacriticInsensitive) { letters += "d" }
        if contains(.normalized) { letters += "n" }
        if contains(.localeSensitive) { letters += "l" }
        return "[\(letters)]"
    }
}
