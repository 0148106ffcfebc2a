/// A parsed predicate: the counterpart of `NSPredicate` built from a format string.
///
/// A `FormatPredicate` is a plain value (a syntax tree). Parse one from a format
/// string, or build one in code; print it with ``predicateFormat``; evaluate it
/// after compiling it once.
///
/// ```swift
/// let predicate = try FormatPredicate(format: "name BEGINSWITH[c] %@ AND population > %d", "sa", 100_000)
/// predicate.predicateFormat   // name BEGINSWITH[c] "sa" AND population > 100000
///
/// let built = FormatPredicate.and([
///     .comparison(ComparisonPredicate(.keyPath("population"), .greaterThan, .constant(100_000))),
///     .comparison(ComparisonPredicate(.keyPath("countrycode"), .equalTo, .constant("FR"))),
/// ])
/// ```
///
/// Chains of the same connective parse into one n-ary compound (`a AND b AND c`
/// is one `.and` of three), while a parenthesized group stays a nested compound,
/// so printing then parsing gives back an equal tree.
public indirect enum FormatPredicate: Sendable, Hashable {
    /// `TRUEPREDICATE` (true) or `FALSEPREDICATE` (false).
    case constant(Bool)
    /// A comparison of two expressions.
    case comparison(ComparisonPredicate)
    /// `AND` of the subpredicates; an empty `AND` is true.
    case and([FormatPredicate])
    /// `OR` of the subpredicates; an empty `OR` is false.
    case or([FormatPredicate])
    /// `NOT` of the subpredicate.
    case not(FormatPredicate)
}

extension FormatPredicate {
    /// `TRUEPREDICATE`.
    public static let truePredicate = FormatPredicate.constant(true)
    /// `FALSEPREDICATE`.
    public static let falsePredicate = FormatPredicate.constant(false)
}
