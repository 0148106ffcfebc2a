/// Canonical printing of predicates, in the style of Apple's `NSPredicate.predicateFormat`.
///
/// The printed string parses on Apple platforms to the same predicate, and parses
/// with ``FormatPredicate/init(format:_:)`` back to an equal tree.
extension FormatPredicate: CustomStringConvertible {
    /// The predicate in canonical format-string form.
    ///
    /// Compound members that are themselves compound print in parentheses;
    /// `NOT` prints `NOT p` over a comparison, a constant or another `NOT` (so a chain of
    /// negations prints as `NOT NOT p`, one nesting level each, as it parses), and `NOT (p)` over
    /// `AND` or `OR`.
    ///
    /// ```swift
    /// let predicate = FormatPredicate.or([
    ///     .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant(1))),
    ///     .and([
    ///         .comparison(ComparisonPredicate(.keyPath("b"), .equalTo, .constant(2))),
    ///         .comparison(ComparisonPredicate(.keyPath("c"), .equalTo, .constant(3))),
    ///     ]),
    /// ])
    /// predicate.predicateFormat   // a == 1 OR (b == 2 AND c == 3)
    /// ```
    public var predicateFormat: String {
        switch printedShape {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison):
            return comparison.predicateFormat
        case .and(let members):
            return members.map(\.compoundMemberFormat).joined(separator: " AND ")
        case .or(let members):
            return members.map(\.compoundMemberFormat).joined(separator: " OR ")
        case .not(let negated):
            return negated.printsAsAndOr ? "NOT (\(negated.predicateFormat))" : "NOT \(negated.predicateFormat)"
        }
    }

    /// The same as ``predicateFormat``.
    ///
    /// ```swift
    /// print(FormatPredicate.truePredicate)   // TRUEPREDICATE
    /// ```
    public var description: String { predicateFormat }

    /// The predicate as it prints: an empty `AND` is `TRUEPREDICATE`, an empty `OR`
    /// is `FALSEPREDICATE`, and a compound of one member prints as that member.
    var printedShape: FormatPredicate {
        switch self {
        case .and(let members) where members.isEmpty:
            return .constant(true)
        case .or(let members) where members.isEmpty:
            return .constant(false)
        case .and(let members) where members.count == 1:
            return members[0].printedShape
        case .or(let members) where members.count == 1:
            return members[0].printedShape
        default:
            return self
        }
    }

    /// Whether the predicate prints as `AND`, `OR` or `NOT`.
    var printsAsCompound: Bool {
        switch printedShape {
        case .and, .or, .not: true
        case .constant, .comparison: false
        }
    }

    /// Whether the predicate prints as `AND` or `OR`.
    var printsAsAndOr: Bool {
        switch printedShape {
        case .and, .or: true
        case .constant, .comparison, .not: false
        }
    }

    /// The predicate as a member of a compound: parenthesized when it is itself compound.
    private var compoundMemberFormat: String {
        printsAsCompound ? "(\(predicateFormat))" : predicateFormat
    }
}

extension ComparisonPredicate: CustomStringConvertible {
    /// The comparison in canonical form: `ANY tags ==[c] "a"`, `name BEGINSWITH "sa"`.
    ///
    /// ```swift
    /// ComparisonPredicate(.keyPath("name"), .like, .constant("a*"), options: .caseInsensitive)
    ///     .predicateFormat   // name LIKE[c] "a*"
    /// ```
    public var predicateFormat: String {
        let prefix: String
        switch modifier {
        case .direct: prefix = ""
        case .any: prefix = "ANY "
        case .all: prefix = "ALL "
        }
        return "\(prefix)\(left.expressionFormat) \(`operator`.symbol)\(options.formatSuffix) \(right.expressionFormat)"
    }

    /// The same as ``predicateFormat``.
    public var description: String { predicateFormat }
}
