import PredicateLanguage

/// The predicate of a `SUBQUERY` read as a predicate on each member: `$e.salary > 10 AND
/// $e.name BEGINSWITH "A"` becomes `salary > 10 AND name BEGINSWITH "A"`, which a planner for
/// the members' type plans like any other. Nil when the predicate reads anything but the
/// variable's keys and constants (the record outside, another variable, a function), which is
/// left to the walk in Swift.
///
/// ```swift
/// let predicate = try FormatPredicate(format: "$e.salary > 10")
/// SubqueryMemberPredicate.rewrite(predicate, variable: "e")?.predicateFormat   // salary > 10
/// ```
@_spi(StorageEngine) public enum SubqueryMemberPredicate {
    /// The predicate on each member, or nil.
    @_spi(StorageEngine) public static func rewrite(_ predicate: FormatPredicate, variable: String) -> FormatPredicate? {
        switch predicate {
        case .constant:
            return predicate
        case .and(let parts):
            let rewritten = parts.compactMap { rewrite($0, variable: variable) }
            return rewritten.count == parts.count ? .and(rewritten) : nil
        case .or(let parts):
            let rewritten = parts.compactMap { rewrite($0, variable: variable) }
            return rewritten.count == parts.count ? .or(rewritten) : nil
        case .not(let inner):
            return rewrite(inner, variable: variable).map { .not($0) }
        case .comparison(var comparison):
            guard let left = rewrite(comparison.left, variable: variable),
                  let right = rewrite(comparison.right, variable: variable) else { return nil }
            comparison.left = left
            comparison.right = right
            return .comparison(comparison)
        }
    }

    private static func rewrite(_ expression: FormatExpression, variable: String) -> FormatExpression? {
        switch expression {
        case .constant:
            return expression
        case .member(.variable(let name), let path) where name == variable:
            return .keyPath(path)
        case .aggregate(let members):
            let rewritten = members.compactMap { rewrite($0, variable: variable) }
            return rewritten.count == members.count ? .aggregate(rewritten) : nil
        default:
            return nil
        }
    }
}
