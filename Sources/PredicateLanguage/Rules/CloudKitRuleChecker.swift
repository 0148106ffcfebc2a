/// The rules of Apple's `CKQuery` reference ("Predicate Rules for Query Objects" and
/// "Table 2: Supported predicate operators"). Each rule below quotes the sentence it
/// comes from. Nothing the reference does not state is rejected (options such as
/// `[c]`, the value types of constants, `IN` and `BEGINSWITH` shapes are all left alone).
struct CloudKitRuleChecker {
    /// The violations found so far, in reading order.
    private(set) var violations: [RuleViolation] = []

    static let distanceFunction = "distanceToLocation:fromLocation:"
    static let tokenizeFunction = "tokenize:using:"

    /// Table 2, "Functions": distanceToLocation:fromLocation:, now, tokenize:using:.
    static let supportedFunctions: Set<String> = ["now", distanceFunction, tokenizeFunction]

    private mutating func report(_ message: String, _ fragment: String) {
        violations.append(RuleViolation(profile: .cloudKit, message: "\(message) in CloudKit queries", fragment: fragment))
    }

    mutating func check(_ predicate: FormatPredicate) {
        switch predicate {
        case .constant:
            // Table 2, "Boolean value predicates": TRUEPREDICATE, FALSEPREDICATE.
            break
        case .comparison(let comparison):
            check(comparison)
        case .and(let members):
            // Table 2, "Basic compound predicates": AND, &&.
            for member in members { check(member) }
        case .or(let members):
            for (position, member) in members.enumerated() {
                check(member)
                // "Predicates use only the operators listed in Table 2", whose compound
                // operators are only AND and NOT. Reported where the first OR appears.
                if position == 0, members.count > 1 {
                    report("OR is not supported", predicate.predicateFormat)
                }
            }
        case .not:
            checkNegation(predicate)
        }
    }

    /// "The NOT compound operator is not supported in the following cases: [...]".
    /// A chain `NOT NOT p` is checked once, against the predicate it finally negates.
    private mutating func checkNegation(_ negation: FormatPredicate) {
        var negated = negation
        stripping: while true {
            switch negated {
            case .not(let inner): negated = inner
            case .and(let members) where members.count == 1: negated = members[0]
            case .or(let members) where members.count == 1: negated = members[0]
            default: break stripping
            }
        }
        let fragment = negation.predicateFormat
        // "You cannot use it to negate an AND compound predicate."
        if case .and(let members) = negated, members.count > 1 {
            report("NOT cannot negate an AND predicate", fragment)
        }
        let comparisons = Self.comparisons(in: negated)
        // "You cannot use it in tokenized queries such as self CONTAINS 'value'."
        if comparisons.contains(where: Self.isTokenizedSearch) {
            report("NOT cannot negate a tokenized search", fragment)
        }
        // "You cannot use it with the distanceToLocation:fromLocation: function."
        if comparisons.contains(where: { Self.uses(Self.distanceFunction, in: $0) }) {
            report("NOT cannot negate \(Self.distanceFunction)", fragment)
        }
        // "You cannot use it in BETWEEN queries."
        if comparisons.contains(where: { $0.operator == .between }) {
            report("NOT cannot negate BETWEEN", fragment)
        }
        check(negated)
    }

    /// The comparisons a NOT applies to: through AND and OR, but not through a nested
    /// NOT (which is checked on its own).
    private static func comparisons(in predicate: FormatPredicate) -> [ComparisonPredicate] {
        switch predicate {
        case .constant, .not: []
        case .comparison(let comparison): [comparison]
        case .and(let members), .or(let members): members.flatMap(comparisons(in:))
        }
    }

    /// `self CONTAINS ...`, or any comparison that uses tokenize:using:.
    private static func isTokenizedSearch(_ comparison: ComparisonPredicate) -> Bool {
        (comparison.operator == .contains && comparison.left == .evaluatedObject)
            || uses(tokenizeFunction, in: comparison)
    }

    private static func uses(_ functionName: String, in comparison: ComparisonPredicate) -> Bool {
        comparison.left.count(where: { $0.isCall(of: functionName) }) > 0
            || comparison.right.count(where: { $0.isCall(of: functionName) }) > 0
    }

    private mutating func check(_ comparison: ComparisonPredicate) {
        let fragment = comparison.predicateFormat
        // "The ALL aggregate operator is not supported."
        if comparison.modifier == .all {
            report("ALL is not supported", fragment)
        }
        check(comparison.left)
        checkOperator(of: comparison, fragment: fragment)
        check(comparison.right)
    }

    private mutating func checkOperator(of comparison: ComparisonPredicate, fragment: String) {
        // "Predicates use only the operators listed in Table 2": of the string
        // comparisons only BEGINSWITH (and CONTAINS as below) are listed; Listing 4 adds
        // "You cannot use other string comparison operators such as CONTAINS or ENDSWITH."
        switch comparison.operator {
        case .endsWith, .like, .matches:
            report("\(comparison.operator.symbol) is not supported", fragment)
        case .conformsTo, .typeEquals:
            // Table 2 lists no uniform type identifier operators.
            report("\(comparison.operator.symbol) (a uniform type identifier operator) is not supported", fragment)
        default:
            break
        }

        // "With one exception, the CONTAINS operator can be used only to test list
        // membership. The exception is when you use it to perform full-text searches in
        // conjunction with the self key path." and "You cannot use the self key path to
        // search in fields whose type is not a string."
        let isFullTextSearch = comparison.operator == .contains && comparison.left == .evaluatedObject
        if comparison.operator == .contains {
            let isWellFormed: Bool
            if isFullTextSearch {
                if case .constant(.string) = comparison.right { isWellFormed = true } else { isWellFormed = false }
            } else if case .keyPath = comparison.left {
                isWellFormed = comparison.right.isConstantOrVariable
            } else {
                isWellFormed = false
            }
            if !isWellFormed {
                report("CONTAINS can only test list membership or search text with self", fragment)
            }
        }

        // "The self key path causes the server to look in searchable string-based fields
        // for the specified token string": SELF has no other meaning in a CloudKit query.
        let isSelf: (FormatExpression) -> Bool = { $0 == .evaluatedObject }
        let otherSelfUses = (isFullTextSearch ? 0 : comparison.left.count(where: isSelf))
            + comparison.right.count(where: isSelf)
        if otherSelfUses > 0 {
            report("SELF can only be used for a full-text search (self CONTAINS \"text\")", fragment)
        }

        // "The distanceToLocation:fromLocation: operator function performs a radius-based
        // location comparison and that comparison must determine whether the location value
        // is inside the circular area you provide." and (Listing 7) "Predicates that use this
        // function must have the structure shown in the listing":
        // distanceToLocation:fromLocation:(keyPath, location) < radius.
        let isDistance: (FormatExpression) -> Bool = { $0.isCall(of: Self.distanceFunction) }
        let distanceUses = comparison.left.count(where: isDistance) + comparison.right.count(where: isDistance)
        if distanceUses > 0 && !Self.isInsideCircleTest(comparison, distanceUses: distanceUses) {
            report("\(Self.distanceFunction) can only test whether a location is inside a circle (< or <= a radius)", fragment)
        }
    }

    /// Whether the comparison is exactly `distanceToLocation:fromLocation:(keyPath, constant) < radius`
    /// (or `<=`), with a constant or variable location and radius.
    private static func isInsideCircleTest(_ comparison: ComparisonPredicate, distanceUses: Int) -> Bool {
        guard distanceUses == 1,
            comparison.modifier == .direct,
            comparison.operator == .lessThan || comparison.operator == .lessThanOrEqualTo,
            comparison.right.isConstantOrVariable,
            case .function(let name, let arguments) = comparison.left, name == distanceFunction,
            arguments.count == 2,
            case .keyPath = arguments[0],
            arguments[1].isConstantOrVariable
        else { return false }
        return true
    }

    /// Checks an expression and everything inside it (embedded predicates of SUBQUERY and
    /// TERNARY are not checked: the whole construct is already rejected).
    private mutating func check(_ expression: FormatExpression) {
        let fragment = expression.expressionFormat
        switch expression {
        case .constant, .variable, .evaluatedObject:
            // SELF is checked with the comparison it appears in.
            break
        case .cast where expression.isNullValue:
            // A null argument (`<null>`) is a constant.
            break
        case .keyPath(let path):
            let components = path.split(separator: ".", omittingEmptySubsequences: false)
            if components.contains(where: { $0.hasPrefix("@") }) {
                // Table 2 lists no collection operators; "Key names used in predicates
                // correspond to fields in the currently evaluated record."
                report("collection operators (@count, @sum, ...) are not supported", fragment)
            } else if components.count > 1 {
                // "You cannot use key paths to specify fields in related records."
                report("key paths into related records are not supported", fragment)
            }
        case .member:
            // "You cannot use key paths to specify fields in related records."
            report("key paths into related records are not supported", fragment)
        case .index:
            // "Predicates use only the operators listed in Table 2" (no subscripts).
            report("index expressions are not supported", fragment)
        case .aggregate(let members):
            // Listing 3 shows aggregates of constants (`{ 'red', 'green' }`); members that
            // must be computed per record are no operator of Table 2.
            if !members.allSatisfy(\.isConstantOrVariable) {
                report("aggregate expressions are not supported", fragment)
            }
        case .function(let name, _):
            // Table 2, "Functions": distanceToLocation:fromLocation:, now, tokenize:using:.
            if !Self.supportedFunctions.contains(name) {
                report("the function \(name) is not supported", fragment)
            }
        // The rest are expression kinds Table 2 does not list
        // ("Predicates use only the operators listed in Table 2").
        case .customFunction:
            report("FUNCTION expressions are not supported", fragment)
        case .arithmetic:
            report("arithmetic expressions are not supported", fragment)
        case .negation:
            report("negation expressions are not supported", fragment)
        case .subquery:
            report("SUBQUERY expressions are not supported", fragment)
        case .ternary:
            report("TERNARY expressions are not supported", fragment)
        case .cast:
            report("CAST expressions are not supported", fragment)
        }
        for child in expression.childExpressions { check(child) }
    }
}
