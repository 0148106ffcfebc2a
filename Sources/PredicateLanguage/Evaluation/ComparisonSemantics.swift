import Foundation

/// What each comparison operator means for two values, with NSPredicate's
/// in-memory semantics (the general path; the compiler adds fast paths that give
/// the same answers).
///
/// ```swift
/// try ComparisonSemantics.holds(.equalTo, "Ärger", "arger", options: [.caseInsensitive, .diacriticInsensitive])   // true
/// try ComparisonSemantics.holds(.equalTo, "42", 42)                                                              // false
/// ```
public enum ComparisonSemantics {
    /// Whether `left op right` holds. Only `MATCHES` can throw (invalid pattern, work limit).
    ///
    /// ```swift
    /// try ComparisonSemantics.holds(.lessThan, 1, 2.5)   // true
    /// ```
    public static func holds(
        _ operator: ComparisonOperator, _ left: Value, _ right: Value,
        options: ComparisonOptions = [], regularExpressionLimits: RegularExpressionLimits = RegularExpressionLimits()
    ) throws(FormatPredicateError) -> Bool {
        switch `operator` {
        case .equalTo: return equal(left, right, options: options)
        case .notEqualTo: return !equal(left, right, options: options)
        case .lessThan: return ValueOrdering.compare(left, right, options: options) == .orderedAscending
        case .lessThanOrEqualTo:
            guard let order = ValueOrdering.compare(left, right, options: options) else { return false }
            return order != .orderedDescending
        case .greaterThan: return ValueOrdering.compare(left, right, options: options) == .orderedDescending
        case .greaterThanOrEqualTo:
            guard let order = ValueOrdering.compare(left, right, options: options) else { return false }
            return order != .orderedAscending
        case .beginsWith:
            guard case .string(let string) = left, case .string(let prefix) = right else { return false }
            return StringMatching.hasPrefix(fold(string, options), fold(prefix, options))
        case .endsWith:
            guard case .string(let string) = left, case .string(let suffix) = right else { return false }
            return StringMatching.hasSuffix(fold(string, options), fold(suffix, options))
        case .like:
            guard case .string(let string) = left, case .string(let pattern) = right else { return false }
            return LikePattern(pattern, options: options).matches(fold(string, options))
        case .matches:
            guard case .string(let string) = left, case .string(let pattern) = right else { return false }
            return try sharedRegularExpressions
                .matcher(for: pattern, options: options, limits: regularExpressionLimits)
                .matches(string)
        case .in:
            return isMember(left, of: right, options: options)
        case .contains:
            return isMember(right, of: left, options: options)
        case .between:
            return isBetween(left, right, options: options)
        case .conformsTo:
            guard case .string(let type) = left, case .string(let supertype) = right else { return false }
            return UniformTypeHierarchy.conforms(type, to: supertype)
        case .typeEquals:
            guard case .string(let type) = left, case .string(let other) = right else { return false }
            return UniformTypeHierarchy.identifies(type, sameAs: other)
        }
    }

    /// The regular expressions of patterns that are not constants.
    static let sharedRegularExpressions = RegularExpressionCache()

    @inline(__always)
    static func fold(_ string: String, _ options: ComparisonOptions) -> String {
        TextFolding.fold(string, options: options)
    }

    /// `==`: numbers by value, strings exactly or folded, lists member by member, nil only equals nil.
    ///
    /// ```swift
    /// ComparisonSemantics.equal("A", "a", options: .caseInsensitive)   // true
    /// ```
    public static func equal(_ left: Value, _ right: Value, options: ComparisonOptions = []) -> Bool {
        if TextFolding.folds(options) {
            switch (left, right) {
            case (.string(let a), .string(let b)):
                return fold(a, options) == fold(b, options)
            case (.list(let a), .list(let b)):
                return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options: options) }
            default:
                break
            }
        }
        return left == right
    }

    /// `IN` (and `CONTAINS` with the sides swapped): membership in a list or among an
    /// object's values, or a substring of a string. False for anything else.
    ///
    /// ```swift
    /// ComparisonSemantics.isMember("b", of: ["a", "b"])   // true
    /// ```
    public static func isMember(_ element: Value, of collection: Value, options: ComparisonOptions = []) -> Bool {
        switch collection {
        case .list(let members):
            return members.contains { equal(element, $0, options: options) }
        case .object(let fields):
            return fields.values.contains { equal(element, $0, options: options) }
        case .string(let string):
            guard case .string(let needle) = element else { return false }
            return StringMatching.contains(fold(string, options), fold(needle, options))
        default:
            return false
        }
    }

    /// `BETWEEN`: the right side is `{low, high}` and low <= left <= high.
    ///
    /// ```swift
    /// ComparisonSemantics.isBetween(5, [1, 10])   // true
    /// ```
    public static func isBetween(_ value: Value, _ bounds: Value, options: ComparisonOptions = []) -> Bool {
        guard case .list(let pair) = bounds, pair.count == 2 else { return false }
        guard let low = ValueOrdering.compare(value, pair[0], options: options),
            let high = ValueOrdering.compare(value, pair[1], options: options)
        else { return false }
        return low != .orderedAscending && high != .orderedDescending
    }

    /// Full-text search: whether any token of `query` is among the tokens of `texts`.
    /// A query with no tokens (only stop words or punctuation) matches nothing.
    ///
    /// ```swift
    /// ComparisonSemantics.fullTextMatches(["Bob Smith"], queryTokens: ["smith"])   // true
    /// ```
    public static func fullTextMatches(_ texts: [String], queryTokens: Set<String>) -> Bool {
        if queryTokens.isEmpty { return false }
        for text in texts {
            for token in FullTextTokenizer.tokens(text) where queryTokens.contains(token) { return true }
        }
        return false
    }
}
